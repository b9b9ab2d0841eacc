// Typical mistake: the foothold under a player is never checked, so a player whose cell vanished plays on.
// Plain minimax on the board itself: step off (the foothold vanishes), recurse, restore.
#include <stdbool.h>
#include <stddef.h>

static int **grid;
static int rows, cols;

// Whether the player to move (at me) can win, and the total moves from here with both
// playing optimally.
static bool turn(int mr, int mc, int or_, int oc, int *moves) {
    static const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int win = -1, lose = 0;
    for (int i = 0; i < 4; i++) {
        int nr = mr + steps[i][0], nc = mc + steps[i][1];
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols || !grid[nr][nc]) continue;
        int after;
        grid[mr][mc] = 0;
        bool other_wins = turn(or_, oc, nr, nc, &after);
        grid[mr][mc] = 1;
        if (!other_wins) {
            if (win < 0 || after + 1 < win) win = after + 1;
        } else if (after + 1 > lose) {
            lose = after + 1;
        }
    }
    *moves = win >= 0 ? win : lose;
    return win >= 0;
}

int solution(int** board, size_t board_rows, size_t board_cols, int aloc[], size_t aloc_len, int bloc[], size_t bloc_len) {
    int moves;
    grid = board;
    rows = (int)board_rows;
    cols = (int)board_cols;
    turn(aloc[0], aloc[1], bloc[0], bloc[1], &moves);
    return moves;
}
