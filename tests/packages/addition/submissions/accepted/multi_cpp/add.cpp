#include "add.h"
double add(double a, double b) { return a + b; }
