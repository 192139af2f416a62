import android.graphics.Bitmap;

/**
 * An app on ART holding Bitmaps known by construction: `Pictures` keeps three (64x48, 32x32 and
 * 20x10, native pointers 0x7f0001000, 0x7f0002000, 0x7f0003000) in a static array, prints
 * `ready PID` and lives on. Their pixels are `Bitmap.pixel` (tests/java/art/android/graphics).
 */
public class Pictures {
    static final Bitmap[] HELD = {
        new Bitmap(0x7f0001000L, 64, 48), new Bitmap(0x7f0002000L, 32, 32), new Bitmap(0x7f0003000L, 20, 10),
    };

    public static void main(String[] args) throws Exception {
        System.out.println("ready " + android.system.Os.getpid());
        while (true) {
            Thread.sleep(1000);
        }
    }
}
