import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A finalizer backlog by construction: in mode `stuck`, the finalizer thread is blocked forever in
 * one object's finalize(), then N objects of class Pending (each with a 100-byte array) become
 * garbage; the collector finds them and queues them for finalization, where they wait. In mode
 * `drained` the same N objects are made, finalized (System.runFinalization) and collected: nothing
 * waits. Then the heap is dumped.
 *
 * Usage: java StuckFinalizer stuck|drained N OUT.hprof
 */
public class StuckFinalizer {
    static final CountDownLatch STUCK = new CountDownLatch(1);
    static final CountDownLatch NEVER = new CountDownLatch(1);

    static final class Blocker {
        @Override
        @SuppressWarnings("deprecation")
        protected void finalize() throws InterruptedException {
            STUCK.countDown();
            NEVER.await();
        }
    }

    static volatile int finalized;

    static final class Pending {
        final byte[] data = new byte[100];

        // Not empty: HotSpot does not register objects whose finalize() does nothing.
        @Override
        @SuppressWarnings("deprecation")
        protected void finalize() {
            finalized++;
        }
    }

    static void garbage(int n) {
        for (int i = 0; i < n; i++) {
            new Pending();
        }
    }

    public static void main(String[] args) throws Exception {
        boolean stuck = args[0].equals("stuck");
        int n = Integer.parseInt(args[1]);
        if (stuck) {
            new Blocker();
            while (!STUCK.await(10, TimeUnit.MILLISECONDS)) {
                System.gc();
            }
        }
        garbage(n);
        // The collector discovers them; the reference handler thread moves them to the
        // finalizer's queue (a static of java.lang.ref.Finalizer), where the dump sees them.
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
        }
        if (!stuck) {
            System.runFinalization();
            System.gc();
        }
        HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        bean.dumpHeap(args[2], true);
        System.exit(0);
    }
}
