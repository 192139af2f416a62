package android.app;

/** The framework's Activity, with the fields heaptui's rules read (AOSP's names and types). */
public class Activity {
    /** Set by ActivityThread once onDestroy has run. */
    public boolean mDestroyed;
    /** Set by finish(). */
    public boolean mFinished;
    /** What the activity shows (a View in the framework). */
    public Object mWindow;
}
