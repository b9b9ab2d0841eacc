"""Judges both passes of a case.

Pass 1 (no note kept in the feedback directory yet): the submission's note must be 1 to 8
lowercase letters, so the number itself cannot be written down; the note is kept in the feedback
directory, and nextpass.in asks for pass 2 with the input "decode" and the note.
Pass 2: the input file must be that pass's input, and the submission must answer the number of
the answer file.

It first writes the pass's input on its standard output: in this batch problem that goes
nowhere, and in the interactive variant of the package (tests/test_icpc_multipass.py) it is
what the submission reads.
"""
import os
import sys
from pathlib import Path

input_file, answer_file, feedback = sys.argv[1:4]
kept_note = os.path.join(feedback, "note")  # the judge keeps the feedback directory between passes


def judge(exit_code, message):
    with open(os.path.join(feedback, "judgemessage.txt"), "a") as log:  # appended: one log of all passes
        log.write(message + "\n")
    sys.exit(exit_code)


pass_input = Path(input_file).read_text()
sys.stdout.write(pass_input)
sys.stdout.flush()
reply = sys.stdin.readline().strip()
if sys.stdin.read().strip():
    judge(43, "output after the first line")
if not os.path.exists(kept_note):
    if not (1 <= len(reply) <= 8 and reply.isascii() and reply.isalpha() and reply.islower()):
        judge(43, f"the note must be 1 to 8 lowercase letters, got {reply[:20]!r}")
    with open(kept_note, "w") as note:
        note.write(reply)
    with open(os.path.join(feedback, "nextpass.in"), "w") as next_pass:
        next_pass.write(f"decode\n{reply}\n")
    judge(42, f"note {reply!r}")
if pass_input != f"decode\n{Path(kept_note).read_text()}\n":
    sys.exit(f"the input file of pass 2 is not the input of pass 2: {pass_input[:40]!r}")  # exit 1: IE
number = Path(answer_file).read_text().strip()
if reply != number:
    judge(43, f"expected {number} back, got {reply[:20]!r}")
judge(42, f"{number} remembered")
