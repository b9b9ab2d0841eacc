/* Allocates and touches 512 MiB under a 128 MiB limit: MLE. */
#include <stdlib.h>
#include <string.h>

int main(void) {
    for (int i = 0; i < 512; i++) {
        char *block = malloc(1 << 20);
        if (!block) return 3;
        memset(block, i, 1 << 20);
    }
    return 0;
}
