/*
 * A score line that names a result is read as a second result line: refused at import.
 *
 * @EXPECTED_RESULTS@: WRONG-ANSWER
 * @EXPECTED_SCORE@: WRONG-ANSWER
 */
int main(void) { return 0; }
