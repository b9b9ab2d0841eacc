# Leaves a file and a directory in each of the host's shared temporary directories, then answers.
import os

for directory in ("/tmp", "/var/tmp", "/dev/shm"):
    try:
        with open(f"{directory}/judge-hostile-left-file", "w") as handle:
            handle.write("left behind")
        os.makedirs(f"{directory}/judge-hostile-left-dir/inner", exist_ok=True)
    except OSError:
        pass
print("SK" if int(input()) % 2 else "CY")
