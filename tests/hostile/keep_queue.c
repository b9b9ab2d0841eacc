/* Looks for the POSIX message queue an earlier case of the same submission (or any earlier run)
   left, leaves it for the next case, then answers: wrongly if it found one, even one it may not
   open. Each case must find the IPC namespace a cold run finds. */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>

#define QUEUE "/judge-hostile-queue"

int main(void) {
    mqd_t queue = mq_open(QUEUE, O_RDWR);
    int found = queue != (mqd_t)-1 || errno == EACCES;
    struct mq_attr attributes = {0, 10, 8192, 0};
    mq_open(QUEUE, O_RDWR | O_CREAT, 0600, &attributes);
    int n;
    if (scanf("%d", &n) != 1) return 1;
    puts(found ? "LEFTOVER queue" : (n % 2 ? "SK" : "CY"));
    return 0;
}
