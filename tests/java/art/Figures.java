/** Prints `MAX TOTAL FREE`: java.lang.Runtime's figures, which ART's heap answers. */
public class Figures {
    public static void main(String[] args) {
        Runtime r = Runtime.getRuntime();
        System.out.println(r.maxMemory() + " " + r.totalMemory() + " " + r.freeMemory());
    }
}
