/* The number in base 26 with the letters a-z, most significant first; and back. */
#include <stdio.h>
#include <string.h>

int main(void) {
    char kind[16], value[32];
    if (scanf("%15s %31s", kind, value) != 2) return 1;
    if (strcmp(kind, "encode") == 0) {
        long number;
        char note[16];
        int length = 0;
        sscanf(value, "%ld", &number);
        do {
            note[length++] = (char)('a' + number % 26);
            number /= 26;
        } while (number > 0);
        for (int i = length - 1; i >= 0; i--) putchar(note[i]);
        putchar('\n');
    } else {
        long number = 0;
        for (const char *letter = value; *letter; letter++) number = number * 26 + (*letter - 'a');
        printf("%ld\n", number);
    }
    return 0;
}
