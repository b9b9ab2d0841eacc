// Tries to kill the judge: its parent process, then answers.
import java.util.Scanner;

public class KillParent {
    public static void main(String[] args) {
        ProcessHandle.current().parent().ifPresent(ProcessHandle::destroyForcibly);
        int n = new Scanner(System.in).nextInt();
        System.out.println(n % 2 == 1 ? "SK" : "CY");
    }
}
