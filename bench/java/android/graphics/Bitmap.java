package android.graphics;

/**
 * A stand-in for Android's Bitmap as pre-Oreo dumps hold it (the pixels in a Java byte[]), so the
 * benchmark dumps made on OpenJDK have pictures for the UI to draw. The field names are the
 * framework's: heaptui finds a Bitmap's picture by them.
 */
public final class Bitmap {
    private final int mWidth;
    private final int mHeight;
    private final byte[] mBuffer;

    /** A picture of `bytesPerPixel` (4 ARGB_8888, 2 RGB_565, 1 ALPHA_8) filled with a pattern. */
    public Bitmap(int width, int height, int bytesPerPixel, int seed) {
        mWidth = width;
        mHeight = height;
        mBuffer = new byte[width * height * bytesPerPixel];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int i = (y * width + x) * bytesPerPixel;
                for (int c = 0; c < bytesPerPixel; c++) {
                    mBuffer[i + c] = (byte) (c == 3 ? 255 : (x * (c + 1) + y * (3 - c) + seed * 40) >> 2);
                }
            }
        }
    }
}
