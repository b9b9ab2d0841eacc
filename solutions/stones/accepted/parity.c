#include <stdio.h>

/* Every move takes an odd number of stones, so the player to move wins exactly when N is odd. */
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
