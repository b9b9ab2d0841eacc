/* Forks without end: every child forks too. The process count for the run stops it. */
#include <unistd.h>

int main(void) {
    for (;;) fork();
}
