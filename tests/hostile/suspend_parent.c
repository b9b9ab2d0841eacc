/* On input 1 stops its watcher (its parent, its parent's process group, every process it can
   reach: PID 1 of the sandbox among them), on input 2 kills it, then sleeps far past any wall
   limit; on any other input answers at once. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    if (n == 1 || n == 2) {
        int sig = n == 1 ? SIGSTOP : SIGKILL;
        pid_t parent = getppid();
        kill(parent, sig);
        killpg(getpgid(parent), sig);
        kill(1, sig);
        kill(-1, sig);
        sleep(100);
    }
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
