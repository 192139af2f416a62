package android.graphics;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.WeakHashMap;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * The framework's Bitmap from Android 8 on (pixels in native memory, which a heap dump does not
 * hold unless `am dumpheap -b` asks): the fields heaptui reads, with AOSP's names and types, and
 * what `-b` makes the app do (Android 15's `Bitmap.dumpAll`): every live Bitmap compressed into
 * the static `dumpData`, a `Bitmap$DumpData` with AOSP's fields, before ART dumps.
 *
 * The "native" pixels are not stored: pixel (x, y) of the Bitmap at native pointer p is
 * {@link #pixel}, which a test computes too. Compressing writes a PNG (RGBA, 8 bits a channel,
 * no filter) by hand: libcore has no image encoder.
 */
public final class Bitmap {
    public final long mNativePtr;
    public final int mWidth;
    public final int mHeight;
    public boolean mRecycled;

    /** The live Bitmaps, as the framework's sAllBitmaps keeps them (weakly). */
    private static final WeakHashMap<Bitmap, Object> sAllBitmaps = new WeakHashMap<Bitmap, Object>();

    /** What the last dumpAll compressed, until dumpAll(null). */
    private static volatile DumpData dumpData = null;

    public Bitmap(long nativePtr, int width, int height) {
        mNativePtr = nativePtr;
        mWidth = width;
        mHeight = height;
        synchronized (Bitmap.class) {
            sAllBitmaps.put(this, null);
        }
    }

    /** Pixel (x, y) of the Bitmap at native pointer `ptr`, as 0xRRGGBBAA. */
    public static int pixel(long ptr, int x, int y) {
        int h = (x * 73856093) ^ (y * 19349663) ^ ((int) ptr * 83492791);
        return (h & 0xFFFFFF00) | 0xFF;
    }

    private static final class DumpData {
        private int count;
        private int format;
        private long[] natives;
        private byte[][] buffers;
        private int max;

        DumpData(int format, int max) {
            this.max = max;
            this.format = format;
            this.natives = new long[max];
            this.buffers = new byte[max][];
            this.count = 0;
        }

        void add(long nativePtr, byte[] buffer) {
            natives[count] = nativePtr;
            buffers[count] = buffer;
            count = (count >= max) ? max : count + 1;
        }
    }

    /** `am dumpheap -b FORMAT`'s work in the app; null lets the last pictures go. */
    public static void dumpAll(String format) {
        if (format == null) {
            dumpData = null;
            return;
        }
        if (!format.equals("png")) {
            return; // AOSP takes jpg and webp too; this stand-in encodes PNG only.
        }
        ArrayList<Bitmap> all = new ArrayList<Bitmap>();
        synchronized (Bitmap.class) {
            for (Bitmap b : sAllBitmaps.keySet()) {
                if (b != null && !b.mRecycled) {
                    all.add(b);
                }
            }
        }
        DumpData data = new DumpData(1 /* CompressFormat.PNG's nativeInt */, all.size());
        for (Bitmap b : all) {
            data.add(b.mNativePtr, b.png());
        }
        dumpData = data;
    }

    private byte[] png() {
        byte[] raw = new byte[mHeight * (1 + 4 * mWidth)];
        int at = 0;
        for (int y = 0; y < mHeight; y++) {
            raw[at++] = 0; // filter: none
            for (int x = 0; x < mWidth; x++) {
                int p = pixel(mNativePtr, x, y);
                raw[at++] = (byte) (p >>> 24);
                raw[at++] = (byte) (p >>> 16);
                raw[at++] = (byte) (p >>> 8);
                raw[at++] = (byte) p;
            }
        }
        Deflater z = new Deflater();
        z.setInput(raw);
        z.finish();
        ByteArrayOutputStream idat = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        while (!z.finished()) {
            idat.write(chunk, 0, z.deflate(chunk));
        }
        z.end();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, 0, 8);
        byte[] ihdr = new byte[13];
        put(ihdr, 0, mWidth);
        put(ihdr, 4, mHeight);
        ihdr[8] = 8; // bits a channel
        ihdr[9] = 6; // RGBA
        chunk(out, "IHDR", ihdr);
        chunk(out, "IDAT", idat.toByteArray());
        chunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    private static void put(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] head = new byte[8];
        put(head, 0, data.length);
        for (int i = 0; i < 4; i++) {
            head[4 + i] = (byte) type.charAt(i);
        }
        CRC32 crc = new CRC32();
        crc.update(head, 4, 4);
        crc.update(data, 0, data.length);
        byte[] tail = new byte[4];
        put(tail, 0, (int) crc.getValue());
        out.write(head, 0, 8);
        out.write(data, 0, data.length);
        out.write(tail, 0, 4);
    }
}
