/* Answers, then writes 2 MiB of blanks (twice the limit) and ends in time: OLE. */
#include <stdio.h>

int main(void) {
    int number;
    if (scanf("%d", &number) != 1) return 1;
    printf("%d\n", number);
    for (int i = 0; i < 2 << 20; i++) putchar(' ');
    putchar('\n');
    return 0;
}
