import sys

from judge.launch import run

sys.exit(run())
