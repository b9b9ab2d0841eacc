// Forks from a helper thread without end (each child does the same): the process count for
// the run stops it, and nothing may outlive the run.
#include <thread>
#include <unistd.h>

int main() {
    std::thread([] { for (;;) fork(); }).join();
}
