import java.io.*;

// Typical mistake: five OR MORE in a row is taken as a win, so a six wins too.
public class SixWins {
    static int[][] b = new int[19][19];

    static boolean same(int r, int c, int s) {
        return r >= 0 && r < 19 && c >= 0 && c < 19 && b[r][c] == s;
    }

    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        for (int r = 0; r < 19; r++)
            for (int c = 0; c < 19; c++) { in.nextToken(); b[r][c] = (int) in.nval; }
        int[][] dirs = {{0, 1}, {1, 0}, {1, 1}, {-1, 1}};
        for (int c = 0; c < 19; c++)
            for (int r = 0; r < 19; r++) {
                int s = b[r][c];
                if (s == 0) continue;
                for (int[] d : dirs) {
                    if (same(r - d[0], c - d[1], s)) continue;
                    int len = 1;
                    while (same(r + d[0] * len, c + d[1] * len, s)) len++;
                    if (len >= 5) { System.out.println(s + "\n" + (r + 1) + " " + (c + 1)); return; }
                }
            }
        System.out.println(0);
    }
}
