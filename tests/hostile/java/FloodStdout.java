// Writes to System.out without end; PrintStream swallows write errors, so it never stops.
public class FloodStdout {
    public static void main(String[] args) {
        String line = "x".repeat(1023);
        for (;;) {
            System.out.println(line);
        }
    }
}
