import java.util.ArrayList;
import java.util.List;

/**
 * A JVM for the monitor's tests. {@code grow}: keeps 256 KiB arrays until 86 % of the heap is
 * live, then holds them (a leak that stops just short of OOM). {@code churn}: allocates as fast,
 * but keeps only the last 16 arrays (4 MiB), so the collector frees the rest.
 * Prints "ready" once started; runs until killed.
 */
public class HeapGrowth {
    static final List<byte[]> KEPT = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        boolean grow = args.length > 0 && args[0].equals("grow");
        long limit = (long) (Runtime.getRuntime().maxMemory() * 0.86);
        System.out.println("ready");
        System.out.flush();
        long kept = 0;
        while (true) {
            if (!grow || kept < limit) {
                byte[] b = new byte[256 * 1024];
                b[b.length - 1] = 1;
                KEPT.add(b);
                kept += b.length;
                if (!grow && KEPT.size() > 16) {
                    KEPT.remove(0);
                }
            }
            Thread.sleep(grow ? 10 : 1);
        }
    }
}
