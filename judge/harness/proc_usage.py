"""CPU time and resident memory of a group of processes, read from /proc while they run.

Shared by the judge (judge/sandbox/) and the warm Python server, which runs inside the
sandbox: so it uses the standard library only.
"""

import os

# (Windows has no sysconf: the judge imports this module there too, and reads no /proc.)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4


def usage(pids, own_processes=1):
    """(CPU seconds, resident KiB) of the processes ``pids`` now.

    CPU counts each process's own time and that of the children it has reaped (so a worker
    that already ended still counts). With more processes than ``own_processes`` (the
    sandbox's own wrappers count here), resident memory is the sum of PSS: forked processes
    share pages, and summing their RSS would count those pages many times.
    """
    ticks, pages, alive = 0, 0, []
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is None:
            continue
        try:
            ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
            pages += int(fields[21])
        except (IndexError, ValueError):
            continue
        alive.append(pid)
    resident_kb = pages * PAGE_KB
    if len(alive) > own_processes:
        resident_kb = sum(proportional_kb(pid) for pid in alive)
    return ticks / CLOCK_TICKS, resident_kb


def _stat_fields(pid):
    """The fields of /proc/<pid>/stat after the command name, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def proportional_kb(pid):
    """A process's proportional set size (its share of the pages it shares), in KiB."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
            for line in rollup:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def descendants(root):
    """Every process below ``root`` now, children first (threads' children included)."""
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/children", "rb") as children:
                    below = [int(child) for child in children.read().split()]
            except (OSError, ValueError):
                continue
            found += below
            pending += below
    return found


def memory_files_kb(pids, exclude=()):
    """KiB held by the memory files (memfd_create) that the processes ``pids`` have open, each
    counted once: written with write(2) and never mapped, their pages show in no resident size
    and on no mounted file system. Files whose (device, inode) is in ``exclude`` are not counted."""
    seen, total = set(exclude), 0
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            path = f"/proc/{pid}/fd/{fd}"
            try:
                if not os.readlink(path).startswith("/memfd:"):
                    continue
                status = os.stat(path)
            except OSError:
                continue
            if (status.st_dev, status.st_ino) not in seen:
                seen.add((status.st_dev, status.st_ino))
                total += status.st_blocks * 512
    return total // 1024


def parent_of(pid):
    """The parent's pid of ``pid``, or None if it is gone."""
    fields = _stat_fields(pid)
    try:
        return int(fields[1]) if fields else None
    except (IndexError, ValueError):
        return None


def is_zombie(pid):
    """Whether ``pid`` has ended and waits for its parent to reap it (False if it is gone)."""
    fields = _stat_fields(pid)
    return bool(fields) and fields[0] == b"Z"


def processes_of_uid(uid):
    """Every process whose owner is ``uid`` (a sandbox slot's uid: exactly one run's processes,
    wherever they were re-parented)."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def tmpfs_used_kb(pid):
    """KiB held in the writable tmpfs mounts of ``pid``'s mount namespace (files in memory that
    no process's resident memory shows), or 0 if that namespace is this process's own.

    Only the namespace's own tmpfs mounts count. One this process sees as well is the host's: a
    sandbox that has just unshared its mounts still has a copy of the host's until it has built
    its own root, and counting the host's /dev/shm then charges whatever anyone else keeps there
    (a gigabyte from a neighbouring run) to a program that has not started yet."""
    try:
        if os.readlink(f"/proc/{pid}/ns/mnt") == os.readlink("/proc/self/ns/mnt"):
            return 0
    except OSError:
        return 0
    hosts = {device for _point, device in _tmpfs_mounts("self", writable_only=False)}
    return sum(tmpfs_kb(path) for path, device in ((f"/proc/{pid}/root{point}", device)
                                                   for point, device in _tmpfs_mounts(pid) if device not in hosts)
               if _device_of(path) == device)


def _device_of(path):
    """The device number ("major:minor", as mountinfo writes it) of the file system ``path`` is
    on now. A sandbox building its root changes its mounts between the reading of its mountinfo
    and a look at a mount point: the path may by then lead to another file system (the disk's,
    whose gigabytes in use are no run's memory), which is then not counted."""
    try:
        device = os.stat(path).st_dev
    except OSError:
        return None
    return f"{os.major(device)}:{os.minor(device)}"


def writable_tmpfs_mounts(pid="self"):
    """The mount points of the writable tmpfs mounts in ``pid``'s mount namespace."""
    return [point for point, _device in _tmpfs_mounts(pid)]


def _tmpfs_mounts(pid, writable_only=True):
    """(mount point, device number) of each (writable) tmpfs mount in ``pid``'s mount namespace:
    the device number is the file system's own, the same in every namespace that mounts it."""
    try:
        with open(f"/proc/{pid}/mountinfo", "rb") as mounts:
            lines = mounts.read().decode(errors="replace").splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        fields = line.split()
        try:
            after = fields.index("-")
        except ValueError:
            continue
        if fields[after + 1] == "tmpfs" and (not writable_only or "rw" in fields[5].split(",")):
            found.append((fields[4].replace("\\040", " "), fields[2]))
    return found


def tmpfs_kb(path):
    """KiB used in the file system at ``path`` (0 if it cannot be read)."""
    try:
        status = os.statvfs(path)
    except OSError:
        return 0
    return (status.f_blocks - status.f_bfree) * status.f_frsize // 1024
