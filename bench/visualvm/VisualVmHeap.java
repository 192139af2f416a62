import java.io.BufferedWriter;
import java.io.File;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.graalvm.visualvm.lib.jfluid.heap.GCRoot;
import org.graalvm.visualvm.lib.jfluid.heap.Heap;
import org.graalvm.visualvm.lib.jfluid.heap.HeapFactory;
import org.graalvm.visualvm.lib.jfluid.heap.HeapSummary;
import org.graalvm.visualvm.lib.jfluid.heap.Instance;
import org.graalvm.visualvm.lib.jfluid.heap.JavaClass;
import org.graalvm.visualvm.lib.jfluid.heap.JavaFrameGCRoot;
import org.graalvm.visualvm.lib.jfluid.heap.JniLocalGCRoot;
import org.graalvm.visualvm.lib.jfluid.heap.ObjectArrayInstance;
import org.graalvm.visualvm.lib.jfluid.heap.PrimitiveArrayInstance;
import org.graalvm.visualvm.lib.jfluid.heap.ThreadObjectGCRoot;

/**
 * The peer side of heaptui's comparisons: VisualVM's heap library (Debian package `visualvm`)
 * computes the same things heaptui does and prints them as tab-separated lines.
 *
 *   summary  <live instances> <live bytes> <gc roots>
 *   class    <name> <instances> <shallow bytes> <retained bytes by class>
 *   top      <id hex> <class> <shallow> <retained>
 *   time     <phase> <milliseconds>
 *
 * With --threads, instead: each thread object root and its stack, and each Java-frame and JNI
 * local root with its thread and frame number (-1 where none):
 *
 *   thread   <id hex> <frames, -1 when it has no stack trace>
 *   frame    <thread id hex> <depth> <class> <method> <file or -> <line>
 *   local    <thread id hex> <frame number> <object id hex>
 *
 * With --objects, instead: every object VisualVM can materialise (instances, object and primitive
 * arrays, and class objects as kind `class`) after it has computed retained sizes; the nearest GC
 * root pointer is what Instance.getNearestGCRootPointer() gives: the object itself for a GC root,
 * 0 for none (unreachable):
 *
 *   obj      <id hex> <instance|objarray|primarray|class> <shallow> <retained> <gc root 0|1> <nearest pointer hex>
 *
 *   file     <path>   (before each dump's lines)
 *
 * VisualVM writes a `<dump>.hwcache` directory beside each dump it opens.
 *
 * Usage: java -cp <jfluid-heap.jar>:. VisualVmHeap [--top N] [--no-retained] [--threads | --objects] DUMP...
 */
public class VisualVmHeap {
    public static void main(String[] args) throws Exception {
        int top = 20;
        boolean retained = true;
        boolean threads = false;
        boolean objects = false;
        for (int a = 0; a < args.length; a++) {
            if (args[a].equals("--threads")) {
                threads = true;
            } else if (args[a].equals("--objects")) {
                objects = true;
            } else if (args[a].equals("--top")) {
                top = Integer.parseInt(args[++a]);
            } else if (args[a].equals("--no-retained")) {
                retained = false;
            } else {
                System.out.println("file\t" + args[a]);
                if (threads) {
                    threads(new File(args[a]));
                } else if (objects) {
                    objects(new File(args[a]));
                } else {
                    report(new File(args[a]), top, retained);
                }
            }
        }
    }

    static void report(File dump, int top, boolean retained) throws Exception {
        long t0 = System.nanoTime();
        Heap heap = HeapFactory.createHeap(dump);
        HeapSummary s = heap.getSummary();
        List<JavaClass> classes = heap.getAllClasses();
        long t1 = System.nanoTime();
        System.out.println("time\topen\t" + (t1 - t0) / 1_000_000);
        System.out.println("summary\t" + s.getTotalLiveInstances() + "\t" + s.getTotalLiveBytes() + "\t" + heap.getGCRoots().size());
        StringBuilder out = new StringBuilder();
        for (JavaClass c : classes) {
            out.append("class\t").append(c.getName()).append('\t').append(c.getInstancesCount()).append('\t')
               .append(c.getAllInstancesSize()).append('\t')
               .append(retained ? c.getRetainedSizeByClass() : -1).append('\n');
        }
        long t2 = System.nanoTime();
        if (retained) {
            for (Instance i : heap.getBiggestObjectsByRetainedSize(top)) {
                out.append("top\t").append(Long.toHexString(i.getInstanceId())).append('\t').append(i.getJavaClass().getName())
                   .append('\t').append(i.getSize()).append('\t').append(i.getRetainedSize()).append('\n');
            }
        }
        long t3 = System.nanoTime();
        System.out.print(out);
        System.out.println("time\tretained\t" + (t2 - t1) / 1_000_000);
        System.out.println("time\ttop\t" + (t3 - t2) / 1_000_000);
    }

    static void threads(File dump) throws Exception {
        Heap heap = HeapFactory.createHeap(dump);
        StringBuilder out = new StringBuilder();
        for (GCRoot r : heap.getGCRoots()) {
            if (r.getInstance() == null) {
                continue; // a root naming an object the dump does not hold
            }
            if (r instanceof ThreadObjectGCRoot) {
                ThreadObjectGCRoot t = (ThreadObjectGCRoot) r;
                String id = Long.toHexString(t.getInstance().getInstanceId());
                StackTraceElement[] stack = t.getStackTrace();
                out.append("thread\t").append(id).append('\t').append(stack == null ? -1 : stack.length).append('\n');
                for (int i = 0; stack != null && i < stack.length; i++) {
                    StackTraceElement e = stack[i];
                    out.append("frame\t").append(id).append('\t').append(i).append('\t').append(e.getClassName())
                       .append('\t').append(e.getMethodName()).append('\t')
                       .append(e.getFileName() == null ? "-" : e.getFileName()).append('\t').append(e.getLineNumber()).append('\n');
                }
            } else if (r instanceof JavaFrameGCRoot || r instanceof JniLocalGCRoot) {
                ThreadObjectGCRoot t = r instanceof JavaFrameGCRoot ? ((JavaFrameGCRoot) r).getThreadGCRoot() : ((JniLocalGCRoot) r).getThreadGCRoot();
                int depth = r instanceof JavaFrameGCRoot ? ((JavaFrameGCRoot) r).getFrameNumber() : ((JniLocalGCRoot) r).getFrameNumber();
                if (t != null && t.getInstance() != null) {
                    out.append("local\t").append(Long.toHexString(t.getInstance().getInstanceId())).append('\t').append(depth)
                       .append('\t').append(Long.toHexString(r.getInstance().getInstanceId())).append('\n');
                }
            }
        }
        System.out.print(out);
    }

    static void objects(File dump) throws Exception {
        Heap heap = HeapFactory.createHeap(dump);
        heap.getBiggestObjectsByRetainedSize(1); // computes nearest GC roots, dominators and retained sizes
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out), 1 << 16);
        Set<Long> classIds = new HashSet<>();
        for (JavaClass c : heap.getAllClasses()) {
            classIds.add(c.getJavaClassId());
            object(out, heap.getInstanceByID(c.getJavaClassId()), "class");
        }
        for (Iterator<Instance> it = heap.getAllInstancesIterator(); it.hasNext();) {
            Instance i = it.next();
            if (classIds.contains(i.getInstanceId())) {
                continue; // a class dump lying among the instances: printed above
            }
            object(out, i, i instanceof ObjectArrayInstance ? "objarray" : i instanceof PrimitiveArrayInstance ? "primarray" : "instance");
        }
        out.flush();
    }

    static void object(Writer out, Instance i, String kind) throws Exception {
        Instance nearest = i.getNearestGCRootPointer();
        out.append("obj\t").append(Long.toHexString(i.getInstanceId())).append('\t').append(kind).append('\t')
           .append(Long.toString(i.getSize())).append('\t').append(Long.toString(i.getRetainedSize())).append('\t')
           .append(i.isGCRoot() ? "1" : "0").append('\t')
           .append(nearest == null ? "0" : Long.toHexString(nearest.getInstanceId())).append('\n');
    }
}
