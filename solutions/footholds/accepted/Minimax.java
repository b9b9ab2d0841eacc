// Plain minimax on the board itself: step off (the foothold vanishes), recurse, restore.
import java.util.*;

class Solution {
    private static final int[][] STEPS = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    private int[][] board;

    // {1 if the player to move can win else 0, total moves from here} with both playing optimally.
    private int[] turn(int mr, int mc, int or, int oc) {
        if (board[mr][mc] == 0) return new int[] {0, 0};  // the other player left our shared cell
        int win = -1, lose = 0;
        for (int[] step : STEPS) {
            int nr = mr + step[0], nc = mc + step[1];
            if (nr < 0 || nr >= board.length || nc < 0 || nc >= board[0].length || board[nr][nc] == 0) continue;
            board[mr][mc] = 0;
            int[] other = turn(or, oc, nr, nc);
            board[mr][mc] = 1;
            if (other[0] == 0) win = win < 0 ? other[1] + 1 : Math.min(win, other[1] + 1);
            else lose = Math.max(lose, other[1] + 1);
        }
        return win >= 0 ? new int[] {1, win} : new int[] {0, lose};
    }

    public int solution(int[][] board, int[] aloc, int[] bloc) {
        this.board = board;
        return turn(aloc[0], aloc[1], bloc[0], bloc[1])[1];
    }
}
