#include <iostream>

int main() {
    int n;
    std::cin >> n;
    std::cout << 2 * n << "\n";
}
