/* Recursion without end: the stack overflows, SIGSEGV, RE. */
#include <stdio.h>

static int down(int n) {
    volatile char frame[256];
    frame[0] = (char)n;
    return down(n + 1) + frame[0];
}

int main(void) {
    printf("%d\n", down(0));
    return 0;
}
