import android.app.Activity;
import android.graphics.Bitmap;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import leakcanary.KeyedWeakReference;

/**
 * A heap known by construction, dumped by ART itself: `KnownHeap PATH` builds it, dumps it to
 * PATH with VMDebug.dumpHprofData (as an app's `Debug.dumpHprofData` does) and prints `dumped`.
 * Every number the tests assert is a constant here. No lambdas (nothing desugars them for ART 10).
 */
public class KnownHeap {
    static final int NODES = 5000;
    static final int STRINGS = 1000;
    static final int COPIES = 100;
    static final String COPIED = "the same characters, held again and again";
    static final int WEAK_ONLY = 50;
    static final int SOFT_ONLY = 30;

    /** A link of a chain: the first holds every other one (16 bytes each on ART: header, ref, int). */
    static class Node {
        Node next;
        int value;
    }

    static class WeakOnly {
        int id;
    }

    static class SoftOnly {
        int id;
    }

    /** An activity of the app. */
    static class MainActivity extends Activity {
        String title;
    }

    static Node chain;
    static String[] strings;
    static String[] copies;
    static boolean[] booleans = {true, false, true, true, false, false, true};
    static byte[] bytes = new byte[11];
    static char[] chars = "thirteen char".toCharArray();
    static short[] shorts = new short[17];
    static int[] ints = new int[19];
    static long[] longs = new long[23];
    static float[] floats = new float[29];
    static double[] doubles = new double[31];
    static Object[] objects = new Object[37];
    static ArrayList<Activity> leaked = new ArrayList<Activity>();
    static Activity live;
    static Bitmap large;
    static KeyedWeakReference watched;
    static WeakReference<?>[] weak = new WeakReference<?>[WEAK_ONLY];
    static SoftReference<?>[] soft = new SoftReference<?>[SOFT_ONLY];
    static Object[] holdUntilDump = new Object[WEAK_ONLY + SOFT_ONLY];

    public static void main(String[] args) throws Exception {
        String path = args[0];
        for (int i = NODES - 1; i >= 0; i--) {
            Node n = new Node();
            n.value = i;
            n.next = chain;
            chain = n;
        }
        strings = new String[STRINGS];
        for (int i = 0; i < STRINGS; i++) {
            strings[i] = "known-" + i;
        }
        copies = new String[COPIES];
        char[] same = COPIED.toCharArray();
        for (int i = 0; i < COPIES; i++) {
            copies[i] = new String(same);
        }
        for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) (i * 3 - 7);
        for (int i = 0; i < shorts.length; i++) shorts[i] = (short) (i * 1000 - 3);
        for (int i = 0; i < ints.length; i++) ints[i] = i * i;
        for (int i = 0; i < longs.length; i++) longs[i] = (long) i << 40;
        for (int i = 0; i < floats.length; i++) floats[i] = i / 4.0f;
        for (int i = 0; i < doubles.length; i++) doubles[i] = -i / 8.0;
        for (int i = 0; i < objects.length; i++) objects[i] = (i % 2 == 0) ? strings[i] : null;

        MainActivity destroyed = new MainActivity();
        destroyed.title = "destroyed";
        destroyed.mDestroyed = true;
        destroyed.mFinished = true;
        leaked.add(destroyed);
        MainActivity running = new MainActivity();
        running.title = "running";
        live = running;
        large = new Bitmap(0x7f001000L, 2048, 2048);
        KeyedWeakReference.heapDumpUptimeMillis = 5000;
        watched = new KeyedWeakReference(destroyed, "a-key", "MainActivity received Activity#onDestroy() callback",
                1000, new ReferenceQueue<Object>());

        // Reachable only through the references, from just before the dump: nothing is allocated
        // between dropping the strong hold and the dump, so no collection can clear them.
        for (int i = 0; i < WEAK_ONLY; i++) {
            WeakOnly w = new WeakOnly();
            w.id = i;
            holdUntilDump[i] = w;
            weak[i] = new WeakReference<Object>(w);
        }
        for (int i = 0; i < SOFT_ONLY; i++) {
            SoftOnly s = new SoftOnly();
            s.id = i;
            holdUntilDump[WEAK_ONLY + i] = s;
            soft[i] = new SoftReference<Object>(s);
        }
        holdUntilDump = null;
        dalvik.system.VMDebug.dumpHprofData(path);
        System.out.println("dumped");
    }
}
