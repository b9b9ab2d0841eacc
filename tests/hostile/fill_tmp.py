# Fills /tmp and leaves a file in /dev/shm, then answers while /tmp is full: its answer must
# not be lost for want of space, and a later run must find both as empty as the first did.
# (Where /tmp is the host's own, a big shared disk, it stops at 80 MiB and cleans up.)
import os
import sys

MARK = "fill-tmp-"
CHUNK = b"x" * (256 << 10)  # under any output limit, which caps each file's size
leftover = [name for place in ("/tmp", "/dev/shm") for name in os.listdir(place) if name.startswith(MARK)]
written = []
for place, budget in (("/tmp", 80 << 20), ("/dev/shm", len(CHUNK))):
    while budget > 0:
        path = os.path.join(place, f"{MARK}{os.getpid()}-{len(written)}")
        try:
            with open(path, "wb") as handle:
                handle.write(CHUNK)
        except OSError:  # full
            break
        written.append(path)
        budget -= len(CHUNK)
print("LEFTOVER " + " ".join(leftover) if leftover else "SK")
sys.stdout.flush()
sandbox_tmp = os.statvfs("/tmp").f_blocks * os.statvfs("/tmp").f_frsize <= 256 << 20
if not sandbox_tmp:
    for path in written:
        os.remove(path)
