#include <iostream>
int main() {
    long long x;
    while (std::cin >> x && x != 0) std::cout << 2 * x << std::endl;
}
