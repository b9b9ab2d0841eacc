// Recursion 100000 deep, which contest code does (a DFS on a path): fits the 64 MiB stack, AC.
import java.util.Scanner;

public class DeepRecursion {
    static int depth(int n) {
        return n == 0 ? 0 : depth(n - 1) + 1;
    }

    public static void main(String[] args) {
        int n = new Scanner(System.in).nextInt();
        if (depth(100000) == 100000) System.out.println(n % 2 == 1 ? "SK" : "CY");
    }
}
