#include <stdio.h>

/* Typical mistake: the parity is the wrong way round. */
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 == 0 ? "SK" : "CY");
    return 0;
}
