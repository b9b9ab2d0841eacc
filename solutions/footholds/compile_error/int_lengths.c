// Typical mistake: int lengths where Programmers' convention passes size_t.
int solution(int** board, int board_rows, int board_cols, int aloc[], int aloc_len, int bloc[], int bloc_len) {
    return 0;
}
