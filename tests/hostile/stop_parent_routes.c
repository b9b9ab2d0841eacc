/* Tries every way there is to stop its parent besides kill(2): tkill, tgkill, sigqueue, a pidfd
   (from pidfd_open and from /proc/PID), and SIGIO redirected as SIGSTOP (F_SETOWN, F_SETSIG) to
   the parent and its process group (unless it is the program's own). Then answers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static void stop_through(int pidfd) {
    if (pidfd >= 0) syscall(SYS_pidfd_send_signal, pidfd, SIGSTOP, NULL, 0);
}

static void stop_by_sigio(pid_t owner) {
    int ends[2];
    if (pipe(ends) != 0) return;
    fcntl(ends[0], F_SETOWN, owner);
    fcntl(ends[0], F_SETSIG, SIGSTOP);
    fcntl(ends[0], F_SETFL, O_ASYNC | O_NONBLOCK);
    if (write(ends[1], "x", 1) != 1) return;
}

int main(void) {
    int n;
    char path[64];
    pid_t parent = getppid();
    union sigval value = {0};
    syscall(SYS_tkill, parent, SIGSTOP);
    syscall(SYS_tgkill, parent, parent, SIGSTOP);
    sigqueue(parent, SIGSTOP, value);
    stop_through(syscall(SYS_pidfd_open, parent, 0));
    snprintf(path, sizeof path, "/proc/%d", (int) parent);
    stop_through(open(path, O_RDONLY | O_DIRECTORY));
    stop_by_sigio(parent);
    if (getpgid(parent) != getpgrp()) stop_by_sigio(-getpgid(parent));  /* not its own group */
    usleep(100000);  /* for any signal on its way */
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
