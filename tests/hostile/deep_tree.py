"""Leaves a tree of directories deeper than a path may be long (each made relative to the one
above, as the kernel allows), after looking for the one an earlier case of the same submission
left; answers wrongly if it found it. Each case must find the working directory a cold run finds."""
import os

TOP = "judge-hostile-deep"
found = os.path.exists(TOP)
if not found:
    os.mkdir(TOP)
    fd = os.open(TOP, os.O_RDONLY)
    for _ in range(100):  # 100 levels of 200 characters: 20 KB of path, five times PATH_MAX
        os.mkdir("d" * 200, dir_fd=fd)
        below = os.open("d" * 200, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = below
n = int(input())
print("LEFTOVER " + TOP if found else ("SK" if n % 2 else "CY"))
