// Answers, then writes without end through a stream that stops writing once a write failed.
#include <iostream>

int main() {
    int number;
    std::cin >> number;
    std::cout << number << '\n';
    while (true) std::cout << "and more and more\n";
}
