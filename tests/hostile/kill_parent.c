/* Tries to kill the judge: its parent, its parent's process group, every process it can reach.
   Then answers. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    int n;
    pid_t parent = getppid();
    if (parent > 1) {
        kill(parent, SIGKILL);
        killpg(getpgid(parent), SIGKILL);
    }
    kill(-1, SIGKILL);
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
