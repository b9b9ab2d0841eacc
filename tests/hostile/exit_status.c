/* Prints the right answer for n, then exits with status n % 256: any status but 0 is RE,
   including those a shell would write as 128 + a signal number. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    fflush(stdout);
    exit(n % 256);
}
