/* Integer division by zero: SIGFPE, RE. */
#include <stdio.h>

int main(void) {
    int n = 0;
    if (scanf("%d", &n) != 1) return 1;
    volatile int zero = n - n;
    printf("%d\n", n / zero);
    return 0;
}
