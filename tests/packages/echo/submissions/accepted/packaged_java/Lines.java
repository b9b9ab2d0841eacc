package echo.util;

import java.util.Scanner;

public class Lines {
    public static String first() {
        return new Scanner(System.in).nextLine();
    }
}
