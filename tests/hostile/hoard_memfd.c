/* Holds memory in memory files (memfd_create) written with write(2) and never mapped: up to 240
   of them, each as large as the file-size limit lets it grow, some 240 MiB under a 1 MiB output
   limit, which no process's resident size and no mounted file system shows. Holds them while the
   judge looks, then answers. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void) {
    static char chunk[1 << 16];
    memset(chunk, 'x', sizeof chunk);
    signal(SIGXFSZ, SIG_IGN);  /* a write past the limit fails (EFBIG) instead of ending the program */
    long held = 0;
    for (int i = 0; i < 240; i++) {
        int fd = memfd_create("judge-hostile", 0);
        if (fd < 0) break;
        ssize_t written;
        while ((written = write(fd, chunk, sizeof chunk)) > 0) held += written;
    }
    fprintf(stderr, "holding %ld MiB\n", held >> 20);
    sleep(1);
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
