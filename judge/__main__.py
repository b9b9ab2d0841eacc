import sys

from judge.cli import run

sys.exit(run())
