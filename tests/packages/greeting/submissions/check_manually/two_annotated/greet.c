/*
 * Both files of this submission are annotated: refused at import.
 *
 * @EXPECTED_RESULTS@: CORRECT, WRONG-ANSWER
 */
#include <stdio.h>
int main(void) { char name[64]; if (scanf("%63s", name) == 1) printf("Hello, %s!\n", name); return 0; }
