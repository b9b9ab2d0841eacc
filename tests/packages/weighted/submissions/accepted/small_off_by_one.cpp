#include <iostream>

// Off by one up to 100, wrong above: half the small group's points.
int main() {
    int n;
    std::cin >> n;
    std::cout << (n <= 100 ? 2 * n - 1 : 0) << "\n";
}
