/* Recursion 200000 deep, which contest code does (a DFS on a path): it fits the 64 MiB stack,
   so the answer is AC. */
#include <stdio.h>

static int depth(int n) {
    volatile char frame[64];
    frame[0] = (char)n;
    return n == 0 ? frame[0] : depth(n - 1) + 1 - frame[0] + frame[0];
}

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    if (depth(200000) != 200000) return 2;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
