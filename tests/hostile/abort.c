/* abort(): SIGABRT, RE naming SIGABRT. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    fputs("about to abort\n", stderr);
    abort();
}
