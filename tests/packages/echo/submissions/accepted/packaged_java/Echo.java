package echo.app;

import echo.util.Lines;

public class Echo {
    public static void main(String[] args) {
        System.out.println(Lines.first());
    }
}
