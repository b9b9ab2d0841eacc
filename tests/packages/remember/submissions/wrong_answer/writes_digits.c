/* Writes the number itself as its note: rejected in pass 1, which asks for letters. */
#include <stdio.h>

int main(void) {
    char kind[16], value[32];
    if (scanf("%15s %31s", kind, value) != 2) return 1;
    printf("%s\n", value);
    return 0;
}
