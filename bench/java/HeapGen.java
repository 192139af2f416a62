import com.sun.management.HotSpotDiagnosticMXBean;
import android.graphics.Bitmap;
import java.lang.management.ManagementFactory;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes a deterministic, realistic heap of about the requested size and dumps it: the benchmark
 * dumps of heaptui. A mix of what real services hold: maps of users with their orders (strings,
 * boxed numbers, byte[] payloads), lists, a sorted index, linked chains, soft and weak caches,
 * a leak (a static list that only grows), and a few Bitmaps with their pixels (a full-screen
 * ARGB_8888 one, an RGB_565 one, two equal ALPHA_8 icons) for the UI's pictures.
 *
 * Usage: java -Xmx<2.5 x size> HeapGen SIZE_MB OUT.hprof
 */
public class HeapGen {
    static final class Order {
        final long id;
        final double amount;
        final String sku;
        final byte[] payload;
        Order(long id, double amount, String sku, byte[] payload) {
            this.id = id; this.amount = amount; this.sku = sku; this.payload = payload;
        }
    }

    static final class User {
        final String name;
        final Integer age;
        final List<Order> orders = new ArrayList<>();
        User friend;
        User(String name, int age) { this.name = name; this.age = age; }
    }

    static final class Link {
        Link next;
        final int[] data;
        Link(Link next, int n) { this.next = next; this.data = new int[n]; }
    }

    static final Map<String, User> USERS = new HashMap<>();
    static final TreeMap<Long, Order> INDEX = new TreeMap<>();
    static final Map<Object, SoftReference<char[]>> SOFT_CACHE = new ConcurrentHashMap<>();
    static final WeakHashMap<Object, String> WEAK = new WeakHashMap<>();
    static final List<Object> LEAK = new ArrayList<>();
    static final List<WeakReference<Object>> WEAK_REFS = new ArrayList<>();
    static Link chain;
    static final List<Bitmap> BITMAPS = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        long target = Long.parseLong(args[0]) * 1024 * 1024;
        String out = args[1];
        Random r = new Random(42);
        long planned = 0;
        long orderId = 0;
        int u = 0;
        User prev = null;
        while (planned < target) {
            User user = new User("user-" + u + "-" + Integer.toHexString(r.nextInt()), 18 + r.nextInt(60));
            planned += 96;
            int orders = 1 + r.nextInt(8);
            for (int i = 0; i < orders; i++) {
                byte[] payload = new byte[32 + r.nextInt(480)];
                r.nextBytes(payload);
                Order o = new Order(orderId++, r.nextDouble() * 1000, "SKU-" + r.nextInt(50000), payload);
                user.orders.add(o);
                if (r.nextInt(4) == 0) {
                    INDEX.put(o.id, o);
                    planned += 40;
                }
                planned += 120 + payload.length;
            }
            if (prev != null && r.nextInt(3) == 0) {
                user.friend = prev;
            }
            prev = user;
            USERS.put(user.name, user);
            if (u % 7 == 0) {
                char[] text = new char[64 + r.nextInt(256)];
                SOFT_CACHE.put(user, new SoftReference<>(text));
                planned += 64 + text.length * 2L;
            }
            if (u % 11 == 0) {
                WEAK.put(user.orders.get(0), user.name);
                WEAK_REFS.add(new WeakReference<>(new byte[128]));
                planned += 200;
            }
            if (u % 5 == 0) {
                chain = new Link(chain, 8 + r.nextInt(24));
                planned += 100;
            }
            if (u % 3 == 0) {
                LEAK.add(new byte[256]);
                LEAK.add(new LinkedList<>(List.of(user.name, "leaked")));
                planned += 400;
            }
            u++;
        }
        BITMAPS.add(new Bitmap(1080, 1920, 4, 1));
        BITMAPS.add(new Bitmap(512, 512, 2, 2));
        BITMAPS.add(new Bitmap(48, 48, 1, 3));
        BITMAPS.add(new Bitmap(48, 48, 1, 3));
        System.out.println("users " + USERS.size() + " orders " + orderId + " planned " + (planned >> 20) + " MB");
        HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        bean.dumpHeap(out, true);
    }
}
