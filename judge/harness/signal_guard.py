"""Keeping a case's signals off the processes that watch it. Runs INSIDE the sandbox, next to the
warm servers: standard library only.

A warm case runs as the same user as the server that watches it and is its child (or the
zygote's), so the kernel lets it stop or kill them: SIGSTOP to its parent would stop the wall
clock. ``protect`` installs a seccomp filter, inherited by every process the caller starts from
then on and kept across exec, under which each way of sending a signal to a protected process
fails with EPERM:

- kill and rt_sigqueueinfo to a protected pid, to a protected process group (-pgid), or to
  every process (-1); tkill, tgkill and rt_tgsigqueueinfo to a protected (thread group) id;
- pidfd_open of a protected pid, and pidfd_send_signal to any pidfd (one can be had by opening
  /proc/PID too, which the filter cannot tell apart);
- F_SETOWN of a file to a protected pid or group (its SIGIO, or any signal F_SETSIG names, would
  go there); F_SETOWN_EX and the FIOSETOWN and SIOCSPGRP ioctls, whose target the filter cannot
  read, always;
- any system call of another ABI than the native one (32-bit calls of a 64-bit process, x32),
  whose numbers the filter does not check.

Tracing them (ptrace, /proc/PID/mem) is closed already: the servers are not dumpable. Where the
machine is not x86_64 or aarch64 (the system call numbers differ), or seccomp is not available,
nothing is installed: the judge's own wall clock (judge/languages/warm.py) is the backstop either way.
"""

import platform
import struct

EPERM = 1
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_DENY = 0x00050000 | EPERM  # SECCOMP_RET_ERRNO with EPERM
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2
# Classic BPF opcodes.
LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JUMP_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
RETURN = 0x06  # BPF_RET | BPF_K
# Offsets in struct seccomp_data: nr, arch, then six 64-bit arguments, of which the filter reads
# the low half (little-endian: first), all that the kernel reads of a pid or a command.
NR, ARCH = 0, 4


def argument(index):
    return 16 + 8 * index


F_SETOWN, F_SETOWN_EX = 8, 15
FIOSETOWN, SIOCSPGRP = 0x8901, 0x8902
X32_BIT = 0x40000000
# machine: (AUDIT_ARCH, system call numbers)
SYSTEMS = {
    "x86_64": (0xC000003E, {"kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129,
                            "rt_tgsigqueueinfo": 297, "pidfd_send_signal": 424, "pidfd_open": 434,
                            "fcntl": 72, "ioctl": 16}),
    "aarch64": (0xC00000B7, {"kill": 129, "tkill": 130, "tgkill": 131, "rt_sigqueueinfo": 138,
                             "rt_tgsigqueueinfo": 240, "pidfd_send_signal": 424, "pidfd_open": 434,
                             "fcntl": 25, "ioctl": 29}),
}


def protect(pids, groups):
    """Make every process the caller starts from now on (and the caller itself) unable to signal
    ``pids`` or the process groups ``groups``. True if the filter is in force."""
    system = SYSTEMS.get(platform.machine())
    if system is None:
        return False
    program = assemble(filter_program(*system, pids, groups))
    return install(program)


def filter_program(arch, numbers, pids, groups):
    """The filter as (opcode, jump if true, jump if false, constant) with labels for jumps."""
    pids = sorted({pid & 0xFFFFFFFF for pid in pids})
    targets = sorted(set(pids) | {-group & 0xFFFFFFFF for group in groups} | {0xFFFFFFFF})  # -1: everyone
    code = [(LOAD_WORD, 0, 0, ARCH), (JUMP_EQUAL, 0, "deny", arch), (LOAD_WORD, 0, 0, NR)]
    if arch == SYSTEMS["x86_64"][0]:
        code.append((JUMP_AT_LEAST, "deny", 0, X32_BIT))
    checks = {"kill": "targets", "rt_sigqueueinfo": "targets", "tkill": "pids", "tgkill": "pids",
              "rt_tgsigqueueinfo": "pids", "pidfd_open": "pids", "pidfd_send_signal": "deny",
              "fcntl": "fcntl", "ioctl": "ioctl"}
    for name, label in checks.items():
        code.append((JUMP_EQUAL, label, 0, numbers[name]))
    code.append((RETURN, 0, 0, SECCOMP_RET_ALLOW))
    code += [("targets",), *one_of(argument(0), targets)]
    code += [("pids",), *one_of(argument(0), pids)]
    code += [("fcntl",), (LOAD_WORD, 0, 0, argument(1)), (JUMP_EQUAL, "deny", 0, F_SETOWN_EX),
             (JUMP_EQUAL, 0, "allow", F_SETOWN), *one_of(argument(2), targets)]
    code += [("ioctl",), (LOAD_WORD, 0, 0, argument(1)), (JUMP_EQUAL, "deny", 0, FIOSETOWN),
             (JUMP_EQUAL, "deny", "allow", SIOCSPGRP)]
    code += [("allow",), (RETURN, 0, 0, SECCOMP_RET_ALLOW), ("deny",), (RETURN, 0, 0, SECCOMP_RET_DENY)]
    return code


def one_of(offset, values):
    """Deny when the word at ``offset`` is one of ``values``, else allow."""
    return [(LOAD_WORD, 0, 0, offset), *((JUMP_EQUAL, "deny", 0, value) for value in values),
            (RETURN, 0, 0, SECCOMP_RET_ALLOW)]


def assemble(code):
    """struct sock_filter bytes of ``code``, its labels (1-tuples) resolved to relative jumps."""
    labels, instructions = {}, []
    for entry in code:
        if len(entry) == 1:
            labels[entry[0]] = len(instructions)
        else:
            instructions.append(entry)

    def jump(target, index):
        return target if isinstance(target, int) else labels[target] - index - 1

    return b"".join(struct.pack("=HBBI", opcode, jump(true, index), jump(false, index), constant)
                    for index, (opcode, true, false, constant) in enumerate(instructions))


def install(program):
    import ctypes  # the only way to prctl from the standard library

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fprog = Program(len(program) // 8, program)
        return (libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
                and libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0)
    except (OSError, AttributeError):
        return False

