# Writes a 4 GiB file into its working directory, then many files of 1 MiB.

with open("huge.bin", "wb") as handle:
    try:
        handle.writelines(b"\0" * (1 << 20) for _ in range(4096))
    except OSError as error:
        print("huge file stopped:", error)
for index in range(4096):
    try:
        with open(f"part{index}.bin", "wb") as handle:
            handle.write(b"\0" * (1 << 20))
    except OSError as error:
        print("parts stopped at", index, error)
        break
