/*
 * Two threads check that their default stack is the C library's own default, as it is when the
 * stack has no limit (DOMjudge's runs); they print it, which is the wrong answer. A thread whose
 * default stack follows a stack limit aborts.
 *
 * @EXPECTED_RESULTS@: WRONG-ANSWER
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *report(void *name) {
    pthread_attr_t attr;
    size_t size;
    pthread_attr_init(&attr);
    pthread_attr_getstacksize(&attr, &size);
    if (size > (8u << 20)) abort();
    printf("%s: default stack of %zu bytes\n", (char *)name, size);
    return NULL;
}

int main(void) {
    pthread_t first, second;
    pthread_create(&first, NULL, report, "first");
    pthread_join(first, NULL);
    pthread_create(&second, NULL, report, "second");
    pthread_join(second, NULL);
    return 0;
}
