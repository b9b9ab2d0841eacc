/* Ends with abort(): the verdict must name SIGABRT. */
#include <stdlib.h>
int main(void){ abort(); }
