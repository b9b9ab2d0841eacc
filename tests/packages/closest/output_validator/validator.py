"""Scores an integer guess: 10 for the answer, one less per unit off (at least 0)."""
import sys

input_file, answer_file, feedback = sys.argv[1], sys.argv[2], sys.argv[3]
answer = int(open(answer_file).read())
open(input_file).read()  # the validator may read the input too
try:
    guess = int(sys.stdin.read())
except ValueError:
    with open(feedback + "judgemessage.txt", "w") as message:
        message.write("not an integer\n")
    sys.exit(43)
with open(feedback + "judgemessage.txt", "w") as message:
    message.write(f"off by {abs(guess - answer)}\n")
with open(feedback + "score.txt", "w") as score:
    score.write(str(max(0, 10 - abs(guess - answer))))
sys.exit(42)
