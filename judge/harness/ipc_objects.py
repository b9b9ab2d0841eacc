"""System V IPC objects (shared memory segments, message queues, semaphore sets): kernel objects
that outlive the process that made them, so they are memory no process's resident size shows
and state a later run could read. The warm servers count and remove a case's after it, and the
judge those of a run without an IPC namespace of its own.

Objects are found in /proc/sysvipc/, which lists those of the reader's IPC namespace, and are
matched by their creator's uid (the owner's a program may hand to anyone, its creator it cannot
change). Shared by the judge and the warm servers, which run inside the sandbox: so it uses the
standard library only.
"""

IPC_RMID = 0
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
    """KiB held (resident or swapped) by the shared memory segments ``uid`` created."""
    total = 0
    for row in listed("shm"):
        if row.get("cuid") == str(uid):
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
