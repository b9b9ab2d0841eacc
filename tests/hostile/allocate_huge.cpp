// Asks for 64 GiB at once: over the address-space backstop, `new` throws std::bad_alloc, and
// the runtime saying so is MLE.
#include <cstdio>
#include <cstddef>

int main() {
    std::size_t size = std::size_t(1) << 36;
    char *volatile block = new char[size];
    block[size - 1] = 1;
    std::puts("SK");
}
