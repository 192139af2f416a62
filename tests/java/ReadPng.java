import java.awt.image.BufferedImage;
import java.io.File;
import javax.imageio.ImageIO;

/**
 * The JDK's own PNG decoder, for the tests to read heaptui's PNG files back with a decoder that
 * is not heaptui's: prints the width and height, then each pixel as "r g b a", row by row.
 *
 * Usage: java ReadPng FILE.png
 */
public class ReadPng {
    public static void main(String[] args) throws Exception {
        BufferedImage img = ImageIO.read(new File(args[0]));
        System.out.println(img.getWidth() + " " + img.getHeight());
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int argb = img.getRGB(x, y);
                System.out.println(((argb >> 16) & 0xff) + " " + ((argb >> 8) & 0xff) + " " + (argb & 0xff) + " " + ((argb >>> 24) & 0xff));
            }
        }
    }
}
