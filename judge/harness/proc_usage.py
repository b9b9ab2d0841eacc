"""CPU time and resident memory of a process tree, read from /proc while it runs.

Shared by the judge (judge/sandbox.py) and the warm Python server, which runs inside the
sandbox: so it uses the standard library only.
"""

import os

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def tree_usage(root, own_processes=1):
    """(CPU seconds, resident KiB) of ``root`` and all its descendants now.

    With more processes than ``own_processes`` (the sandbox's own wrappers count here),
    resident memory is the sum of PSS: forked processes share pages, and summing their RSS
    would count those pages many times.
    """
    ticks, pages, pending, pids = 0, 0, [root], []
    while pending:
        pid = pending.pop()
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
            pages += int(fields[21])
            pids.append(pid)
            with open(f"/proc/{pid}/task/{pid}/children", "rb") as children:
                pending += [int(child) for child in children.read().split()]
        except (OSError, IndexError, ValueError):
            continue
    resident_kb = pages * PAGE_KB
    if len(pids) > own_processes:
        resident_kb = sum(proportional_kb(pid) for pid in pids)
    return ticks / CLOCK_TICKS, resident_kb


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
