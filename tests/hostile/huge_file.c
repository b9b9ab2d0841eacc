/* Writes a 4 GiB file into its working directory, ignoring write errors. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    static char block[1 << 20];
    int fd = open("judge-hostile-huge.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 4096; i++) (void)!write(fd, block, sizeof block);
    return 0;
}
