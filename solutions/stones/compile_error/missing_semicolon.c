#include <stdio.h>
int main(void) { int n; scanf("%d", &n) puts(n % 2 ? "SK" : "CY"); return 0; }
