/* No result line: what it must get is for a person to decide. */
int main(void) { return 0; }
