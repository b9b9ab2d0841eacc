// Typical mistake: the winner also plays for the longest game instead of the shortest win.
// Plain minimax on the board itself: step off (the foothold vanishes), recurse, restore.
#include <string>
#include <utility>
#include <vector>

using namespace std;

// (can the player to move win?, total moves from here) with both playing optimally.
pair<bool, int> turn(vector<vector<int>>& board, int mr, int mc, int or_, int oc) {
    static const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    if (board[mr][mc] == 0) return {false, 0};  // the other player left our shared cell
    int rows = board.size(), cols = board[0].size();
    int win = -1, lose = 0;
    for (auto& step : steps) {
        int nr = mr + step[0], nc = mc + step[1];
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols || !board[nr][nc]) continue;
        board[mr][mc] = 0;
        auto [other_wins, moves] = turn(board, or_, oc, nr, nc);
        board[mr][mc] = 1;
        if (!other_wins) win = max(win, moves + 1);
        else lose = max(lose, moves + 1);
    }
    return win >= 0 ? make_pair(true, win) : make_pair(false, lose);
}

int solution(vector<vector<int>> board, vector<int> aloc, vector<int> bloc) {
    return turn(board, aloc[0], aloc[1], bloc[0], bloc[1]).second;
}
