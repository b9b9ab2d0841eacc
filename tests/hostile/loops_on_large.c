/* Right for small piles, an endless loop for 900 stones or more: a submission that is still
   running when the grader stops the judge. */
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    volatile unsigned long spin = 0;
    while (n >= 900) spin++;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
