import java.util.Scanner;

// Typical mistake: the game recursion without memo is exponential in N.
public class Recursion {
    static boolean wins(int n) { return n > 0 && (!wins(n - 1) || (n >= 3 && !wins(n - 3))); }

    public static void main(String[] args) {
        System.out.println(wins(new Scanner(System.in).nextInt()) ? "SK" : "CY");
    }
}
