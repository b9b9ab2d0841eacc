/* Leaves daemons behind: fork, setsid, fork again; one grandchild becomes `sleep` with a
   recognisable command line, another stays this program and waits forever. Then answers. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    int n;
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            execl("/bin/sleep", "sleep", "31337.31", (char *)NULL);
            _exit(1);
        }
        if (fork() == 0) {
            for (;;) pause();
        }
        _exit(0);
    }
    wait(NULL);
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
