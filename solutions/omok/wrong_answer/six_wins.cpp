#include <cstdio>

// Typical mistake: five OR MORE in a row is taken as a win, so a six wins too.
int b[19][19];

bool same(int r, int c, int s) { return r >= 0 && r < 19 && c >= 0 && c < 19 && b[r][c] == s; }

int main() {
    for (int r = 0; r < 19; r++)
        for (int c = 0; c < 19; c++) scanf("%d", &b[r][c]);
    const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {-1, 1}};
    for (int c = 0; c < 19; c++)
        for (int r = 0; r < 19; r++) {
            int s = b[r][c];
            if (!s) continue;
            for (auto& d : dirs) {
                if (same(r - d[0], c - d[1], s)) continue;
                int len = 1;
                while (same(r + d[0] * len, c + d[1] * len, s)) len++;
                if (len >= 5) { printf("%d\n%d %d\n", s, r + 1, c + 1); return 0; }
            }
        }
    puts("0");
}
