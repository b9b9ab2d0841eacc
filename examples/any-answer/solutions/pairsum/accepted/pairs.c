/* Right: every pair in turn, the first that adds up. */
#include <stdio.h>

int main(void) {
    static long values[100000];
    int count;
    long target;
    if (scanf("%d %ld", &count, &target) != 2) return 1;
    for (int i = 0; i < count; i++) scanf("%ld", &values[i]);
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++)
            if (values[i] + values[j] == target) {
                printf("%d %d\n", i + 1, j + 1);
                return 0;
            }
    return 0;
}
