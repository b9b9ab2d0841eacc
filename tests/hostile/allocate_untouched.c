/* Allocates 1 GiB and never touches it, then answers. Untouched pages cost no memory, and a
   contest judge counts resident memory: this is AC under a 128 MiB limit (the address-space
   backstop, 2 x limit + 1 GiB, is not reached). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n;
    char *volatile block = malloc((size_t)1 << 30);
    if (!block) return 3;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
