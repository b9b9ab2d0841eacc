#include <stdio.h>

/* Typical mistake: an off-by-one bound (18 where the board has 19 rows and columns) in the scan
   for the first stone of a five, so a five lying along the board's last row or column is missed. */
static int b[19][19];

static int same(int r, int c, int s) { return r >= 0 && r < 19 && c >= 0 && c < 19 && b[r][c] == s; }

int main(void) {
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++)
            if (scanf("%d", &b[r][c]) != 1) return 1;
    const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {-1, 1}};
    for (int c = 0; c < 18; c++)
        for (int r = 0; r < 18; r++) {
            int s = b[r][c];
            if (!s) continue;
            for (int d = 0; d < 4; d++) {
                if (same(r - dirs[d][0], c - dirs[d][1], s)) continue;
                int len = 1;
                while (same(r + dirs[d][0] * len, c + dirs[d][1] * len, s)) len++;
                if (len == 5) {
                    printf("%d\n%d %d\n", s, r + 1, c + 1);
                    return 0;
                }
            }
        }
    puts("0");
    return 0;
}
