// An exception nobody catches: std::terminate, abort(), SIGABRT: RE naming SIGABRT.
#include <stdexcept>

int main() {
    throw std::runtime_error("nobody catches this");
}
