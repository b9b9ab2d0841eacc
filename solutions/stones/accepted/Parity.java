package game.stones;

import java.util.Scanner;

// Every move takes an odd number of stones, so the player to move wins exactly when N is odd.
public class 돌게임 {
    public static void main(String[] args) {
        int n = new Scanner(System.in).nextInt();
        System.out.println(n % 2 == 1 ? "SK" : "CY");
    }
}
