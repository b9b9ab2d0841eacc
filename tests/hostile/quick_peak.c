/* Touches 200 MiB, under a 128 MiB limit, then answers and ends at once: the peak must still
   be seen (it is in the usage of the process that reaped the program). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    size_t size = (size_t)200 << 20;
    volatile char *block = malloc(size);  /* volatile: every page is really written */
    if (!block) return 3;
    for (size_t offset = 0; offset < size; offset += 4096) block[offset] = (char)offset;
    long n;
    if (scanf("%ld", &n) != 1) return 2;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
