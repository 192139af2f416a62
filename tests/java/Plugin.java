/** The plugin LeakyApp loads through its own class loader. */
public class Plugin {
    final byte[] state = new byte[100_000];
    static final String NAME = "plugin";
}
