#include <cstdio>
#include "add.h"
int main() {
    double a, b;
    if (std::scanf("%lf %lf", &a, &b) != 2) return 1;
    std::printf("%.9f\n", add(a, b));
}
