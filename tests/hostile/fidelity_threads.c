/* Starts 48 threads (each reserves a full-size stack), then answers: the address-space backstop
   must leave room for them. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *idle(void *unused) {
    (void)unused;
    sleep(1);
    return NULL;
}

int main(void) {
    pthread_t threads[48];
    int made = 0;
    for (int i = 0; i < 48; i++) made += pthread_create(&threads[i], NULL, idle, NULL) == 0;
    for (int i = 0; i < made; i++) pthread_join(threads[i], NULL);
    int n;
    if (scanf("%d", &n) != 1) return 1;
    printf("%s\n", made < 48 ? "too few threads" : n % 2 ? "SK" : "CY");
    return 0;
}
