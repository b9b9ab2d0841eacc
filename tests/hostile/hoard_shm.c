/* Holds up to 1 GiB in System V shared memory segments of 32 MiB, each written and then
   detached: memory no process's resident size shows, which lasts until the segment is removed
   (or its IPC namespace goes). Answers once it holds all of it. */
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

#define SEGMENT (32 << 20)

int main(void) {
    int held = 0;
    for (; held < 32; held++) {
        int id = shmget(IPC_PRIVATE, SEGMENT, IPC_CREAT | 0600);
        if (id < 0) break;
        char *memory = shmat(id, NULL, 0);
        if (memory == (void *)-1) break;
        memset(memory, 'x', SEGMENT);
        shmdt(memory);
    }
    fprintf(stderr, "holding %d MiB\n", held * 32);
    sleep(1);  /* hold it while the judge looks */
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
