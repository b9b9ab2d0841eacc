/*
 * Two result lines: DOMjudge refuses the submission at import.
 *
 * @EXPECTED_RESULTS@: WRONG-ANSWER
 * @EXPECTED_RESULTS@: WRONG-ANSWER
 */
int main(void) { return 0; }
