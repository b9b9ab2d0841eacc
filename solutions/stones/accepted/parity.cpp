#include <iostream>

// Every move takes an odd number of stones, so the player to move wins exactly when N is odd.
int main() {
    int n;
    std::cin >> n;
    std::cout << (n % 2 ? "SK" : "CY") << '\n';
}
