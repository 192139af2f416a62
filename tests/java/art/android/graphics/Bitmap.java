package android.graphics;

/**
 * The framework's Bitmap from Android 8 on (pixels in native memory, which a heap dump does not
 * hold unless `am dumpheap -b` asks): the fields heaptui reads, with AOSP's names and types.
 */
public final class Bitmap {
    public final long mNativePtr;
    public final int mWidth;
    public final int mHeight;
    public boolean mRecycled;

    public Bitmap(long nativePtr, int width, int height) {
        mNativePtr = nativePtr;
        mWidth = width;
        mHeight = height;
    }
}
