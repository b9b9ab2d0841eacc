/* Answers the first number wrongly and crashes at once, without waiting for the validator: the
   validator rejects on the answer alone, so the verdict is WA however the two endings fall. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    long long number;
    if (scanf("%lld", &number) != 1) return 1;
    printf("%lld\n", 3 * number);
    fflush(stdout);
    abort();
}
