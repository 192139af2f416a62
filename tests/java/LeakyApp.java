import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A JVM app with three known leaks, for heaptui's leak-triage tests. Run it `leaky` and the dump
 * must show exactly these suspects; run it `clean` (each leak undone) and it must show none.
 *
 * 1. A static collection that only grows: SESSIONS, 4000 sessions of 4 KiB.
 * 2. A class loader leak: a plugin loaded by its own URLClassLoader, whose instance stays in
 *    PLUGIN after the loader is dropped, so the loader (and every class it loaded) stays too.
 * 3. A ThreadLocal leak: a pool-style thread keeps a 1 MiB value in a ThreadLocal that nothing
 *    references any more, so the entry is stale but its value is never freed.
 *
 * Usage: java LeakyApp leaky|clean OUT.hprof PLUGIN_CLASSES_DIR [SESSIONS]
 * (SESSIONS, default 4000: two dumps with different counts show the map growing.)
 */
public class LeakyApp {
    static final Map<String, byte[]> SESSIONS = new HashMap<>();
    static Object PLUGIN;
    static ThreadLocal<byte[]> LOCAL = new ThreadLocal<>();

    public static void main(String[] args) throws Exception {
        boolean leaky = args[0].equals("leaky");
        int sessions = args.length > 3 ? Integer.parseInt(args[3]) : 4000;
        for (int i = 0; i < sessions; i++) {
            SESSIONS.put("session-" + i, new byte[4096]);
        }
        if (!leaky) {
            SESSIONS.clear();
        }

        URLClassLoader loader = new URLClassLoader(new URL[] {Path.of(args[2]).toUri().toURL()}, LeakyApp.class.getClassLoader());
        PLUGIN = loader.loadClass("Plugin").getDeclaredConstructor().newInstance();
        if (!leaky) {
            PLUGIN = null;
            loader.close();
        }
        loader = null;

        CountDownLatch ready = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            LOCAL.set(new byte[1 << 20]);
            if (!leaky) {
                LOCAL.remove();
            }
            ready.countDown();
            while (true) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "pool-worker-1");
        worker.setDaemon(true);
        worker.start();
        ready.await();
        LOCAL = null;

        HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        bean.dumpHeap(args[1], true);
    }
}
