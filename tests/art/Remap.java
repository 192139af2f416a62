import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/**
 * Android's libcore compiles against ICU4J under the name {@code android.icu}; Debian ships it as
 * {@code com.ibm.icu}. Writes the jar IN's ICU classes renamed into OUT (for javac only: the
 * classes are not part of the runtime). Usage: Remap IN OUT.
 */
public class Remap {
    public static void main(String[] args) throws Exception {
        Remapper toAndroid = new Remapper() {
            @Override
            public String map(String name) {
                return name.startsWith("com/ibm/icu/") ? "android/icu/" + name.substring("com/ibm/icu/".length()) : name;
            }
        };
        try (ZipInputStream in = new ZipInputStream(new FileInputStream(args[0]));
                ZipOutputStream out = new ZipOutputStream(new FileOutputStream(args[1]))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                String name = e.getName();
                if (!name.startsWith("com/ibm/icu/") || !name.endsWith(".class")) {
                    continue;
                }
                ClassWriter writer = new ClassWriter(0);
                new ClassReader(in.readAllBytes()).accept(new ClassRemapper(writer, toAndroid), 0);
                out.putNextEntry(new ZipEntry(toAndroid.map(name.substring(0, name.length() - 6)) + ".class"));
                out.write(writer.toByteArray());
            }
        }
    }
}
