// Typical mistake: a main left in from testing; the judge calls solution itself.
#include <stdio.h>

int solution(int** board, size_t board_rows, size_t board_cols, int aloc[], size_t aloc_len, int bloc[], size_t bloc_len) {
    return 0;
}

int main(void) {
    printf("%d\n", solution(NULL, 0, 0, NULL, 0, NULL, 0));
    return 0;
}
