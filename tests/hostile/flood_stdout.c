/* Writes to stdout without end, ignoring write errors. */
#include <string.h>
#include <unistd.h>

int main(void) {
    static char block[1 << 16];
    memset(block, 'x', sizeof block);
    for (;;) (void)!write(1, block, sizeof block);
}
