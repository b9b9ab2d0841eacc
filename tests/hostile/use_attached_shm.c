/* Uses 80 MiB of System V shared memory the honest way: one segment, attached, written, and
   still attached while the judge looks. Its pages are this process's resident memory, and must
   not be charged a second time as a segment (2 x 80 MiB is over the stones limit of 128 MiB). */
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

#define SEGMENT (80 << 20)

int main(void) {
    int id = shmget(IPC_PRIVATE, SEGMENT, IPC_CREAT | 0600);
    if (id < 0) return 2;
    char *memory = shmat(id, NULL, 0);
    if (memory == (void *)-1) return 3;
    shmctl(id, IPC_RMID, NULL);  /* removed once detached: nothing left behind */
    memset(memory, 'x', SEGMENT);
    usleep(400 * 1000);  /* attached while the judge looks */
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
