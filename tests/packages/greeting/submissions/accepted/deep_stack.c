/* Recurses through 256 MiB of stack before it greets: a package's submission has the stack its
 * memory limit allows, as DOMjudge and BAPCtools give it. */
#include <stdio.h>
#include <string.h>

static int descend(int depth) {
    volatile char frame[1 << 20];
    memset((char *)frame, depth & 0xff, sizeof frame);
    return depth == 0 ? frame[7] : descend(depth - 1) + frame[depth % sizeof frame];
}

int main(void) {
    char name[64];
    if (scanf("%63s", name) != 1) return 1;
    volatile int kept = descend(256);
    (void)kept;
    printf("Hello, %s!\n", name);
    return 0;
}
