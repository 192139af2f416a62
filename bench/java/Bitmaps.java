import android.graphics.Bitmap;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * A dump that is mostly pixels: 2,000 Bitmaps (the stand-in in android/graphics) of 256 KB each in
 * 40 sizes. The stand-in's pattern repeats from seed to seed, so most Bitmaps have copies of the
 * same size (heaptui reports 640 groups). It measures what reading and hashing pixels costs the
 * duplicate-bitmaps rule (`docs/benchmarks.md`).
 *
 * Usage: javac -d OUT android/graphics/Bitmap.java Bitmaps.java &&
 *        java -Xmx4g -XX:+UseParallelGC -cp OUT Bitmaps bitmaps.hprof
 */
public class Bitmaps {
    static final List<Bitmap> ALL = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 2000; i++) {
            int width = 128 + (i % 40) * 8;
            ALL.add(new Bitmap(width, 65536 / width, 4, i % 10 == 9 && i >= 40 ? i - 40 : i));
        }
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpHeap(args[0], true);
    }
}
