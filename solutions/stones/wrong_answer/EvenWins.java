import java.util.Scanner;

// Typical mistake: the parity is the wrong way round.
public class EvenWins {
    public static void main(String[] args) {
        int n = new Scanner(System.in).nextInt();
        System.out.println(n % 2 == 0 ? "SK" : "CY");
    }
}
