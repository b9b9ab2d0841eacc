/* Tries to suspend the judge: stops its parent, its parent's process group and every process
   it can reach (except itself). Then answers. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    int n;
    pid_t parent = getppid();
    signal(SIGTSTP, SIG_IGN);
    if (parent > 1) {
        kill(parent, SIGSTOP);
        killpg(getpgid(parent), SIGTSTP);
    }
    kill(-1, SIGSTOP);
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
