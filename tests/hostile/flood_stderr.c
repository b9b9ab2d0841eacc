/* Writes 64 MiB to stderr, then the right answer: stderr is not output, so this is AC. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    static char block[1 << 16];
    int n;
    memset(block, 'e', sizeof block);
    for (int i = 0; i < 1024; i++) (void)!write(2, block, sizeof block);
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
