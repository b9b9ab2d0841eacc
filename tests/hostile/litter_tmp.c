/* Leaves 512 KiB files in /tmp and /dev/shm (small: within every limit), then answers.
   Nothing of them may outlive the run. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void litter(const char *path) {
    static char block[1 << 19];
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    memset(block, 'x', sizeof block);
    for (int i = 0; fd >= 0 && i < 1; i++) (void)!write(fd, block, sizeof block);
    if (fd >= 0) close(fd);
}

int main(void) {
    int n;
    litter("/tmp/judge-hostile-litter-c.bin");
    litter("/dev/shm/judge-hostile-litter-c.bin");
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
