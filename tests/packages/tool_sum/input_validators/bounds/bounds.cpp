// Two integers in [-1000, 1000] on one line, read with BAPCtools' validation.h.
#include "validation.h"

int main(int argc, char** argv) {
    InputValidator v(argc, argv);
    v.read_integer("a", -1000, 1000);
    v.space();
    v.read_integer("b", -1000, 1000);
    v.newline();
}
