/* A helper thread forks eight workers that each hold 100 MiB, then the program answers
   correctly: the workers are children of the thread, not of the main task. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *spawn_workers(void *unused) {
    (void)unused;
    for (int i = 0; i < 8; i++) {
        if (fork() == 0) {
            size_t size = 100u << 20;
            volatile char *block = malloc(size);
            for (size_t at = 0; block && at < size; at += 4096) block[at] = (char)(i + 1);
            sleep(3);
            _exit(0);
        }
    }
    while (wait(NULL) > 0) {}
    return NULL;
}

int main(void) {
    pthread_t helper;
    pthread_create(&helper, NULL, spawn_workers, NULL);
    pthread_join(helper, NULL);
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
