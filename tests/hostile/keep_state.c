/* Looks for what an earlier case of the same submission could have left in every place a
   program can write (a file in each directory, System V shared memory, a message queue, a
   semaphore set), leaves the same for the next case, then answers: wrongly, naming what it
   found, if it found anything. Each case must find the world a cold run finds. */
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <unistd.h>

#define MARK "judge-hostile-state"
#define KEY 0x6a756467

static const char *places[] = {".", "/tmp", "/dev/shm", "/var/tmp", "/", "/dev", "/etc", "/home", "/root",
                               "/run", "/mnt", "/srv", "/media", "/opt", "/work", "/usr/local"};

int main(void) {
    char found[4096] = "";
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/" MARK, places[i]);
        FILE *file = fopen(path, "r");
        if (file) {
            fclose(file);
            strcat(found, " ");
            strcat(found, path);
        }
    }
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {  /* after looking: "." may be one of them */
        char path[512];
        snprintf(path, sizeof path, "%s/" MARK, places[i]);
        FILE *file = fopen(path, "w");
        if (file) fclose(file);
    }
    if (shmget(KEY, 4096, 0) >= 0) strcat(found, " shm");
    if (msgget(KEY, 0) >= 0) strcat(found, " msg");
    if (semget(KEY, 0, 0) >= 0) strcat(found, " sem");
    shmget(KEY, 4096, IPC_CREAT | 0600);
    msgget(KEY, IPC_CREAT | 0600);
    semget(KEY, 1, IPC_CREAT | 0600);
    int n;
    if (scanf("%d", &n) != 1) return 1;
    if (found[0]) {
        printf("LEFTOVER%s\n", found);
        return 0;
    }
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
