#include <iostream>
#include <vector>
// Dynamic programming over the game: a position is winning if some move leads to a losing one.
int main() {
    int n; std::cin >> n;
    std::vector<bool> win(n + 1, false);
    for (int i = 1; i <= n; i++) win[i] = !win[i - 1] || (i >= 3 && !win[i - 3]);
    std::cout << (win[n] ? "SK" : "CY") << "\n";
}
