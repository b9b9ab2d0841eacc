/* A helper thread forks two CPU burners that run 1.5 s each, then the program answers
   correctly: neither burner is a child of the main task. */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_seconds(void) {
    return (double)clock() / CLOCKS_PER_SEC;
}

static void *spawn_burners(void *unused) {
    (void)unused;
    for (int i = 0; i < 2; i++) {
        if (fork() == 0) {
            volatile unsigned long spin = 0;
            while (cpu_seconds() < 1.5) spin++;
            _exit(0);
        }
    }
    while (wait(NULL) > 0) {}
    return NULL;
}

int main(void) {
    pthread_t helper;
    pthread_create(&helper, NULL, spawn_burners, NULL);
    pthread_join(helper, NULL);
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(n % 2 ? "SK" : "CY");
    return 0;
}
