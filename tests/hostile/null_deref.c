/* Writes through a null pointer: SIGSEGV, RE. */
#include <stdio.h>

int main(void) {
    volatile int *volatile nothing = NULL;
    *nothing = 1;
    puts("SK");
    return 0;
}
