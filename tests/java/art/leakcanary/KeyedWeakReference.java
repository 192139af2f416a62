package leakcanary;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/** LeakCanary 2's watch on an object: its fields and its static, with LeakCanary's names. */
public class KeyedWeakReference extends WeakReference<Object> {
    /** When LeakCanary dumped the heap (uptime, ms). */
    public static volatile long heapDumpUptimeMillis;

    public final String key;
    public final String description;
    public final long watchUptimeMillis;
    public volatile long retainedUptimeMillis;

    public KeyedWeakReference(Object referent, String key, String description, long watchUptimeMillis,
            ReferenceQueue<Object> queue) {
        super(referent, queue);
        this.key = key;
        this.description = description;
        this.watchUptimeMillis = watchUptimeMillis;
        this.retainedUptimeMillis = -1;
    }
}
