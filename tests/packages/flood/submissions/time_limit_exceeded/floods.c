/* Answers, then writes without end: past the output limit its writes fail and it goes on. */
#include <stdio.h>

int main(void) {
    int number;
    if (scanf("%d", &number) != 1) return 1;
    printf("%d\n", number);
    for (;;) fputs("and more and more\n", stdout);
}
