// Prints the right answer for n, then halts with status n % 256: any status but 0 is RE.
import java.util.Scanner;

public class ExitStatus {
    public static void main(String[] args) {
        int n = new Scanner(System.in).nextInt();
        System.out.println(n % 2 == 1 ? "SK" : "CY");
        System.out.flush();
        Runtime.getRuntime().halt(n % 256);
    }
}
