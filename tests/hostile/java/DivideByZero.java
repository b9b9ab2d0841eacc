// Integer division by zero: ArithmeticException, RE naming it.
import java.util.Scanner;

public class DivideByZero {
    public static void main(String[] args) {
        int n = new Scanner(System.in).nextInt();
        System.out.println(n / (n - n));
    }
}
