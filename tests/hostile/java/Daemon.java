// Leaves a daemon in its own session (`setsid sleep`, recognisable command line), then answers.
import java.util.Scanner;

public class Daemon {
    public static void main(String[] args) throws Exception {
        new ProcessBuilder("/usr/bin/setsid", "/bin/sleep", "31337.42").start();
        int n = new Scanner(System.in).nextInt();
        System.out.println(n % 2 == 1 ? "SK" : "CY");
    }
}
