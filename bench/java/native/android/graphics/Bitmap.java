package android.graphics;

/**
 * A stand-in for Android's Bitmap as Android 8 and later dump it with `am dumpheap -b`: no pixels
 * in the object, only its native pointer, and the pictures in `dumpData`'s buffers, each at the
 * slot of its pointer in `natives`. The names are the framework's: heaptui finds them by name.
 */
public final class Bitmap {
    public static DumpData dumpData;
    private final int mWidth;
    private final int mHeight;
    private final long mNativePtr;

    /** What ART fills in for `am dumpheap -b`: the format, and `natives[i]`'s picture in `buffers[i]`. */
    public static final class DumpData {
        public int format;
        public long[] natives;
        public Object[] buffers;
    }

    public Bitmap(int width, int height, long nativePtr) {
        mWidth = width;
        mHeight = height;
        mNativePtr = nativePtr;
    }
}
