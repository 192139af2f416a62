import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bundled demo for heaptui: a small "app" whose request cache never evicts. Each request
 * stores a Session holding a byte[] buffer and its listeners under a fresh key, so the cache
 * (a static HashMap) grows until memory runs out. Also: a few weakly held objects and a long
 * linked chain, so the dominator tree has something to show.
 *
 * Usage: java LeakyCache [requests] [hold-seconds]
 *        java LeakyCache grow [ms-per-request]   (heaptui demo: the cache grows a request at a
 *        time until 88 % of the heap is in use, then the app holds it, as a leak does before OOM)
 */
public class LeakyCache {
    static final Map<String, Session> CACHE = new HashMap<>();
    static final List<Runnable> LISTENERS = new ArrayList<>();

    static final class Session {
        final String user;
        final byte[] buffer;
        final List<Runnable> listeners = new ArrayList<>();
        Session(String user, int size) {
            this.user = user;
            this.buffer = new byte[size];
        }
    }

    static final class Node {
        Node next;
        final long value;
        Node(long value, Node next) { this.value = value; this.next = next; }
    }

    static Node chain;

    static void request(int i) {
        Session s = new Session("user-" + (i % 97), 1024 + (i % 7) * 512);
        Runnable r = () -> s.buffer[0]++;
        s.listeners.add(r);
        LISTENERS.add(r);
        CACHE.put("request-" + i, s);
    }

    static void grow(long msPerRequest) throws Exception {
        Runtime rt = Runtime.getRuntime();
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        for (int i = 0; rt.totalMemory() - rt.freeMemory() < rt.maxMemory() * 0.88; i++) {
            request(i);
            if (msPerRequest > 0) {
                Thread.sleep(msPerRequest);
            }
        }
        Thread.sleep(600_000L);
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("grow")) {
            grow(args.length > 1 ? Long.parseLong(args[1]) : 1);
            return;
        }
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int hold = args.length > 1 ? Integer.parseInt(args[1]) : 600;
        for (int i = 0; i < requests; i++) {
            request(i);
        }
        for (int i = 0; i < 5000; i++) {
            chain = new Node(i, chain);
        }
        java.lang.ref.WeakReference<Object> weak = new java.lang.ref.WeakReference<>(new byte[4096]);
        System.out.println("ready " + ProcessHandle.current().pid() + " " + CACHE.size() + " " + (weak.get() != null));
        System.out.flush();
        Thread.sleep(hold * 1000L);
    }
}
