"""System V IPC objects (shared memory segments, message queues, semaphore sets), and the keys of
a uid's shared keyrings: kernel objects that outlive the process that made them, so they are
memory no process's resident size shows and state a later run could read. The warm servers count
and remove a case's after it, and the judge those of a run without an IPC namespace of its own.

Objects are found in /proc/sysvipc/, which lists those of the reader's IPC namespace, and are
matched by their creator's uid (the owner's a program may hand to anyone, its creator it cannot
change). Shared by the judge and the warm servers, which run inside the sandbox: so it uses the
standard library only.
"""

IPC_RMID = 0
# keyctl(2) by number: the C library has no wrapper for it (libkeyutils does).
KEYCTL_SYSCALL = {"x86_64": 250, "aarch64": 219}
KEYCTL_CLEAR = 7
# The keyrings every process of a uid shares, which outlive them all: the user keyring and the
# user's default session keyring (a process's own session keyring goes with the processes).
SHARED_KEYRINGS = (-4, -5)  # KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING
KINDS = ("shm", "msg", "sem")
# The libc function that controls each kind; semctl takes a semaphore number before the command.
CONTROL = {"shm": "shmctl", "msg": "msgctl", "sem": "semctl"}
ID_COLUMN = {"shm": "shmid", "msg": "msqid", "sem": "semid"}


def listed(kind):
    """The objects of ``kind`` in this IPC namespace, each a dict of its /proc/sysvipc/ columns."""
    try:
        with open(f"/proc/sysvipc/{kind}", "rb") as table:
            lines = table.read().decode(errors="replace").splitlines()
    except OSError:
        return []
    if not lines:
        return []
    header = lines[0].split()
    return [dict(zip(header, line.split())) for line in lines[1:] if line.strip()]


def created_by(kind, uid):
    """The ids of the objects of ``kind`` that ``uid`` created."""
    return [int(row[ID_COLUMN[kind]]) for row in listed(kind) if row.get("cuid") == str(uid)]


def shared_memory_kb(uid):
    """KiB held (resident or swapped) by the shared memory segments ``uid`` created that no
    process has attached: an attached segment's pages are in its processes' resident memory
    already, and counting them here too would charge them twice."""
    total = 0
    for row in listed("shm"):
        if row.get("cuid") == str(uid) and row.get("nattch", "0") == "0":
            total += int(row.get("rss", 0)) + int(row.get("swap", 0))
    return total // 1024


def remove_created_by(uid):
    """Remove every object ``uid`` created (a segment still attached goes once detached)."""
    import ctypes  # only when there is something to remove: a Python case never needs it

    found = {kind: created_by(kind, uid) for kind in KINDS}
    if not any(found.values()):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for kind, ids in found.items():
        control = getattr(libc, CONTROL[kind])
        for ident in ids:
            if kind == "sem":
                control(ident, 0, IPC_RMID)
            else:
                control(ident, IPC_RMID, None)


def in_own_user_namespace():
    """Whether this process runs in a user namespace of its own (not the host's initial one,
    which maps every uid to itself): then its uid's keyrings are the sandbox's alone."""
    try:
        with open("/proc/self/uid_map", "rb") as mapping:
            return mapping.read().split() != [b"0", b"0", b"4294967295"]
    except OSError:
        return False


def clear_keyrings():
    """Unlink every key from the keyrings this uid's processes share (a key added there outlives
    the process that added it, and the next process of the uid could read it). Only for a uid
    that is the run's own: in the host's user namespace, the judge's user's keys are there."""
    keyctl = _keyctl()
    if keyctl is None:
        return
    syscall, number = keyctl
    for keyring in SHARED_KEYRINGS:
        syscall(number, KEYCTL_CLEAR, keyring)


_KEYCTL = []  # [(libc's syscall, keyctl's number) or None], once per process: a warm server clears per case


def _keyctl():
    if not _KEYCTL:
        # Only when a keyring is cleared: a Python case never needs ctypes (loaded before the zygote forks).
        import ctypes
        import os

        number = KEYCTL_SYSCALL.get(os.uname().machine)
        _KEYCTL.append((ctypes.CDLL(None, use_errno=True).syscall, number) if number is not None else None)
    return _KEYCTL[0]
