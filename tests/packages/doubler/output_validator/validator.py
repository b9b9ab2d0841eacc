"""Sends each number of the input, expects it back doubled; 0 ends the interaction."""
import sys

input_file, answer_file, feedback = sys.argv[1], sys.argv[2], sys.argv[3]
numbers = open(input_file).read().split()[1:]


def reject(message):
    with open(feedback + "judgemessage.txt", "w") as out:
        out.write(message + "\n")
    sys.exit(43)


for number in numbers:
    print(number, flush=True)
    line = sys.stdin.readline()
    if not line:
        reject(f"no answer to {number}")
    if line.strip() != str(2 * int(number)):
        reject(f"sent {number}, got {line.strip()}")
print(0, flush=True)
if sys.stdin.read().strip():
    reject("trailing output")
sys.exit(42)
