// The same search over a copy of the board, with every parameter taken by const reference (the
// judge accepts by value, by reference and by const reference) and a memo-free recursive lambda.
#include <bits/stdc++.h>
using namespace std;

int solution(const vector<vector<int>>& board, const vector<int>& aloc, const vector<int>& bloc) {
    vector<vector<int>> cells = board;
    const int rows = cells.size(), cols = cells[0].size();
    // (can the player to move win?, total moves from here) with both playing optimally.
    function<pair<bool, int>(int, int, int, int)> turn = [&](int mr, int mc, int or_, int oc) -> pair<bool, int> {
        if (!cells[mr][mc]) return {false, 0};
        int win = INT_MAX, lose = 0;
        const int dr[] = {1, -1, 0, 0}, dc[] = {0, 0, 1, -1};
        for (int i = 0; i < 4; i++) {
            int nr = mr + dr[i], nc = mc + dc[i];
            if (nr < 0 || nr >= rows || nc < 0 || nc >= cols || !cells[nr][nc]) continue;
            cells[mr][mc] = 0;
            auto [other_wins, moves] = turn(or_, oc, nr, nc);
            cells[mr][mc] = 1;
            if (!other_wins) win = min(win, moves + 1);
            else lose = max(lose, moves + 1);
        }
        return win != INT_MAX ? make_pair(true, win) : make_pair(false, lose);
    };
    return turn(aloc[0], aloc[1], bloc[0], bloc[1]).second;
}
