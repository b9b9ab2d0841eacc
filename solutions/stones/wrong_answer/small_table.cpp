#include <iostream>
// Typical mistake: a lookup table sized for the samples, not for N up to 1000.
int main() {
    int n; std::cin >> n;
    if (n > 100) { std::cout << "CY\n"; return 0; }
    std::cout << (n % 2 ? "SK" : "CY") << "\n";
}
