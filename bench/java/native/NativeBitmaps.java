import android.graphics.Bitmap;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * A dump of N Bitmaps as `am dumpheap -b` leaves them (the stand-in in android/graphics here): each
 * picture a 1 KB buffer in `Bitmap.dumpData`, found by the Bitmap's native pointer. It measures
 * how the duplicate-bitmaps rule grows with the number of Bitmaps (`docs/benchmarks.md`).
 *
 * Usage: javac -d OUT android/graphics/Bitmap.java NativeBitmaps.java &&
 *        java -XX:+UseParallelGC -cp OUT NativeBitmaps native-bitmaps.hprof 20000
 */
public class NativeBitmaps {
    static final List<Bitmap> ALL = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[1]);
        Bitmap.DumpData data = new Bitmap.DumpData();
        data.format = 1;
        data.natives = new long[n];
        data.buffers = new Object[n];
        for (int i = 0; i < n; i++) {
            long pointer = 0x7f000000L + 64L * i;
            byte[] picture = new byte[1024];
            picture[0] = (byte) i;
            picture[1] = (byte) (i >> 8);
            picture[2] = (byte) (i % 7);
            data.natives[i] = pointer;
            data.buffers[i] = picture;
            ALL.add(new Bitmap(16 + i % 5, 16, pointer));
        }
        Bitmap.dumpData = data;
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpHeap(args[0], true);
    }
}
