/* Writes to stdout without end: the file-size limit's SIGXFSZ must end it (OLE), which it
   cannot if the program inherited SIGXFSZ as ignored. */
#include <stdio.h>

int main(void) {
    static char block[1 << 16];
    for (;;) fwrite(block, 1, sizeof block, stdout);
}
