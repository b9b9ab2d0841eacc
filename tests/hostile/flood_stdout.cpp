// Writes to std::cout without end; iostreams stop at the first failed write, so it also
// clears the error and goes on.
#include <iostream>
#include <string>

int main() {
    std::ios::sync_with_stdio(false);
    const std::string line(1023, 'x');
    for (;;) {
        std::cout << line << '\n';
        std::cout.clear();
    }
}
