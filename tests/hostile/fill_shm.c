/* Writes up to 650 MiB into /dev/shm (memory that no process's resident size shows), then
   into /tmp, in files of 512 KiB (under the file-size limit), reports how far it got, and
   answers correctly. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static long fill(const char *directory) {
    static char chunk[512 << 10];
    memset(chunk, 'x', sizeof chunk);
    long written = 0;  /* in units of 512 KiB */
    for (; written < 1300; written++) {
        char path[256];
        snprintf(path, sizeof path, "%s/judge-hostile-fill-%ld", directory, written);
        FILE *file = fopen(path, "wb");
        if (!file) break;
        int complete = fwrite(chunk, 1, sizeof chunk, file) == sizeof chunk;
        if (fclose(file) != 0 || !complete) break;
    }
    return written / 2;
}

int main(void) {
    long shm = fill("/dev/shm");
    long tmp = fill("/tmp");
    fprintf(stderr, "wrote %ld MiB to /dev/shm and %ld MiB to /tmp\n", shm, tmp);
    sleep(1);  /* hold it while the judge looks */
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
