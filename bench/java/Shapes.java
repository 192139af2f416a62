import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Makes a heap of about the requested size in one of the shapes that stress a heap analyser in
 * different places, and dumps it. HeapGen's mix is one shape among these; a figure measured on
 * one shape is a figure about that shape.
 *
 * <ul>
 *   <li>{@code chains}: chains of objects, each 100,000 links deep, 100 of them at 1 GB (iterative
 *       walks, deep dominator trees);
 *   <li>{@code lists}: a few {@code java.util.LinkedList}s of millions of small Strings (long paths,
 *       every node dominated by the one before it);
 *   <li>{@code maps}: millions of small HashMaps of boxed numbers in one huge ArrayList (a wide
 *       fan-out, many tiny objects, shared boxes);
 *   <li>{@code classes}: 400 generated classes loaded by each of 60 class loaders, each class with
 *       statics and instances of its own (a large class table, class-loader leaks);
 *   <li>{@code arrays}: a few huge primitive arrays and one object array of millions of slots
 *       (few objects, many bytes, long reference rows).
 * </ul>
 *
 * Deterministic (a fixed seed). Usage: java -Xmx<3 x size> Shapes SHAPE SIZE_MB OUT.hprof
 */
public class Shapes {
    static final class Link {
        Link next;
        final long value;
        final int[] data;
        Link(Link next, long value, int n) { this.next = next; this.value = value; this.data = new int[n]; }
    }

    static final List<Object> ROOTS = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        String shape = args[0];
        long target = Long.parseLong(args[1]) * 1024 * 1024;
        String out = args[2];
        Random r = new Random(42);
        switch (shape) {
            case "chains": chains(target, r); break;
            case "lists": lists(target, r); break;
            case "maps": maps(target, r); break;
            case "classes": classes(target, r); break;
            case "arrays": arrays(target, r); break;
            default: throw new IllegalArgumentException("unknown shape " + shape);
        }
        HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        bean.dumpHeap(out, true);
    }

    /** Links of about 24 + 16 + 4n bytes with compressed oops: up to 100 chains of 100,000. */
    static void chains(long target, Random r) {
        int chains = (int) Math.max(1, Math.min(100, target / (100_000L * 100)));
        long perLink = target / (chains * 100_000L);
        int ints = (int) Math.max(1, (perLink - 48) / 4);
        for (int c = 0; c < chains; c++) {
            Link head = null;
            for (int i = 0; i < 100_000; i++) {
                head = new Link(head, r.nextLong(), ints);
            }
            ROOTS.add(head);
        }
    }

    /** LinkedList nodes (24 B) holding Strings (24 B + a 16-24 B byte[]): about 72 B a node. */
    static void lists(long target, Random r) {
        long nodes = target / 72;
        int lists = 4;
        for (int l = 0; l < lists; l++) {
            LinkedList<String> list = new LinkedList<>();
            for (long i = 0; i < nodes / lists; i++) {
                list.add(Long.toString(r.nextLong() & 0xffffffffL, 36));
            }
            ROOTS.add(list);
        }
    }

    /** Maps of 4 entries (about 330 B with their boxes), a third of the boxes shared. */
    static void maps(long target, Random r) {
        long maps = target / 330;
        List<Map<Integer, Long>> all = new ArrayList<>((int) maps);
        for (long m = 0; m < maps; m++) {
            Map<Integer, Long> map = new HashMap<>(8);
            for (int e = 0; e < 4; e++) {
                map.put(r.nextInt(3) == 0 ? e : 1000 + r.nextInt(1_000_000), (long) r.nextInt(100));
            }
            all.add(map);
        }
        ROOTS.add(all);
    }

    /**
     * 400 classes compiled here, each loaded by 60 class loaders: 24,000 classes. Each holds in a
     * static array its own instances, each with a payload, so the heap reaches its size.
     */
    static void classes(long target, Random r) throws Exception {
        int kinds = 400, loaders = 60;
        Path dir = Files.createTempDirectory("shapes");
        List<File> sources = new ArrayList<>();
        for (int k = 0; k < kinds; k++) {
            String name = "Gen" + k;
            String src = "public class " + name + " {\n"
                + "  public static final Object[] ALL = new Object[" + (1 + k % 7) + "];\n"
                + "  public static String label = \"" + name + "\";\n"
                + "  public static long count;\n"
                + "  public final byte[] payload;\n"
                + "  public final " + name + " next;\n"
                + "  public " + name + "(int n, " + name + " next) { payload = new byte[n]; this.next = next; count++; }\n"
                + "  public static void fill(int n) { " + name + " p = null; for (int i = 0; i < ALL.length; i++) { p = new "
                + name + "(n, p); ALL[i] = p; } }\n"
                + "}\n";
            Path f = dir.resolve(name + ".java");
            Files.writeString(f, src);
            sources.add(f.toFile());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> cmd = new ArrayList<>(List.of("-d", dir.toString()));
        for (File f : sources) {
            cmd.add(f.getPath());
        }
        if (javac.run(null, null, null, cmd.toArray(new String[0])) != 0) {
            throw new IllegalStateException("javac failed");
        }
        long instances = 0;
        for (int k = 0; k < kinds; k++) {
            instances += 1 + k % 7;
        }
        int payload = (int) Math.max(16, target / (instances * loaders) - 32);
        URL[] path = {dir.toUri().toURL()};
        for (int l = 0; l < loaders; l++) {
            URLClassLoader loader = new URLClassLoader("shapes-" + l, path, Shapes.class.getClassLoader());
            for (int k = 0; k < kinds; k++) {
                Class<?> c = Class.forName("Gen" + k, true, loader);
                c.getMethod("fill", int.class).invoke(null, payload + r.nextInt(64));
            }
            ROOTS.add(loader);
        }
    }

    /** Four long[] of an eighth of the size each, and an Object[] of boxes filling the rest. */
    static void arrays(long target, Random r) {
        for (int a = 0; a < 4; a++) {
            long[] big = new long[(int) Math.min(Integer.MAX_VALUE - 8, target / 8 / 8)];
            for (int i = 0; i < big.length; i += 4096) {
                big[i] = r.nextLong();
            }
            ROOTS.add(big);
        }
        // Object[] slots (4 B) and Longs (16 B) for the other half, a box every other slot.
        int slots = (int) Math.min(Integer.MAX_VALUE - 8, target / 2 / 12);
        Object[] refs = new Object[slots];
        for (int i = 0; i < slots; i += 2) {
            refs[i] = Long.valueOf(r.nextLong());
        }
        ROOTS.add(refs);
    }
}
