# Tries to leave the root it was given, as DOMjudge's test-chroot-escape does (chroot to
# /proc/1/root) and by the classic escape (chroot into a subdirectory, climb out with "..", chroot
# to "."), then names each path given on stdin it can see.
import os
import sys

paths = sys.stdin.read().split()


def to_init_root():
    os.chroot("/proc/1/root")


def climb_out():
    os.makedirs("jail", exist_ok=True)
    os.chroot("jail")
    for _ in range(64):
        os.chdir("..")
    os.chroot(".")


for attempt in (to_init_root, climb_out):
    try:
        attempt()
        print("CHROOTED", attempt.__name__)
    except OSError as error:
        print("REFUSED", attempt.__name__, error.strerror)
for path in paths:
    if os.path.exists(path):
        print("SEES", path)
