import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A heap whose holders are known by construction, for the merged paths and the immediate
 * dominators: 4,500 sessions, each held by exactly one of three holders and nothing else,
 * 3,000 by a HashMap (one HashMap$Node each), 1,000 by a TreeMap (one TreeMap$Entry each) and
 * 500 by an ArrayList (all in its one Object[]). Each session owns a 1,000-byte array.
 *
 * Usage: java Holders OUT.hprof
 */
public class Holders {
    static final class Session {
        final int id;
        final byte[] data = new byte[1000];
        Session(int id) { this.id = id; }
    }

    static final Map<Integer, Session> ACTIVE = new HashMap<>();
    static final Map<String, Session> BY_NAME = new TreeMap<>();
    static final List<Session> QUEUE = new ArrayList<>();

    /** Fills the holders; no session stays in a local of main's frame (a frame root would be a shorter path). */
    static void fill() {
        for (int i = 0; i < 3000; i++) {
            ACTIVE.put(i, new Session(i));
        }
        for (int i = 0; i < 1000; i++) {
            BY_NAME.put("session-" + i, new Session(3000 + i));
        }
        for (int i = 0; i < 500; i++) {
            QUEUE.add(new Session(4000 + i));
        }
    }

    public static void main(String[] args) throws Exception {
        fill();
        HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        bean.dumpHeap(args[0], true);
    }
}
