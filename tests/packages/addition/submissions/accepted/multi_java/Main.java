import java.util.Scanner;

public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println(Adder.add(Double.parseDouble(in.next()), Double.parseDouble(in.next())));
    }
}
