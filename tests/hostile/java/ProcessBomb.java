// Starts processes without end (each a `sleep` with a recognisable command line) until the
// process count for the run refuses: an uncaught IOException, RE; nothing may outlive the run.
import java.util.ArrayList;
import java.util.List;

public class ProcessBomb {
    public static void main(String[] args) throws Exception {
        List<Process> started = new ArrayList<>();
        for (;;) {
            started.add(new ProcessBuilder("/bin/sleep", "31337.41").start());
        }
    }
}
