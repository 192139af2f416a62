import java.util.HashMap;

/**
 * An app on ART with a heap known by construction: `Sessions COUNT [GROW [GC_MS]]` holds COUNT
 * `Sessions$Session`s (each with a 1 KiB buffer) in a static map, prints `ready PID`, then lives
 * on: it adds GROW sessions a second, and with GC_MS it makes garbage without pause and every
 * GC_MS milliseconds asks ART for a concurrent collection (VMRuntime.requestConcurrentGC, as the
 * framework does when it trims), so ART keeps collecting. No lambdas (nothing desugars them for
 * ART 10).
 */
public class Sessions {
    static class Session {
        final int id;
        final byte[] buffer = new byte[1024];

        Session(int id) {
            this.id = id;
        }
    }

    static final HashMap<Integer, Session> SESSIONS = new HashMap<Integer, Session>();
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int grow = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        long gcEvery = args.length > 2 ? Long.parseLong(args[2]) : 0;
        for (int i = 0; i < count; i++) {
            SESSIONS.put(i, new Session(i));
        }
        System.out.println("ready " + android.system.Os.getpid());
        long start = System.currentTimeMillis();
        long lastGc = start;
        int next = count;
        for (long n = 0; ; n++) {
            if (gcEvery > 0) {
                sink = new byte[256];
            }
            long now = System.currentTimeMillis();
            if (grow > 0 && next - count < (now - start) * grow / 1000) {
                SESSIONS.put(next, new Session(next));
                next++;
            }
            if (gcEvery > 0 && now - lastGc >= gcEvery) {
                dalvik.system.VMRuntime.getRuntime().requestConcurrentGC();
                lastGc = now;
            }
            if (n % 64 == 0) {
                Thread.sleep(1);
            }
        }
    }
}
