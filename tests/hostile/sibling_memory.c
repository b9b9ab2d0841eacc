/* Starts a sibling instead of a child (clone with CLONE_PARENT: its parent is the program's
   parent), which writes 400 MiB and holds them while the program waits, then answers. The
   sibling is as much the program's as a child: its memory counts. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
    long pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0) {
        size_t size = 400u << 20;
        volatile char *memory = malloc(size);
        for (size_t offset = 0; memory && offset < size; offset += 4096) memory[offset] = 'x';
        sleep(3);
        _exit(0);
    }
    sleep(2);
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
