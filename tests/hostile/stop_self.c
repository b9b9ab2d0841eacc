/* Stops itself with SIGSTOP and would answer only if someone resumed it: nobody should. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>

int main(void) {
    int n;
    raise(SIGSTOP);
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
