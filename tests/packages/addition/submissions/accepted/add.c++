// The extension DOMjudge's examples use for C++ (g++ reads .c++ as C++).
#include <cstdio>
#include <iostream>
int main() {
    double a, b;
    if (!(std::cin >> a >> b)) return 1;
    std::printf("%.6f\n", a + b);
}
