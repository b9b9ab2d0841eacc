"""Looks for the key an earlier case of the same submission could have left in the uid's user
keyring, adds it for the next case, then answers: wrongly if it found it. Each case must find
the keyrings a cold run finds."""
import ctypes

libc = ctypes.CDLL(None, use_errno=True)
SYS_add_key, SYS_keyctl = 248, 250  # x86-64
KEY_SPEC_USER_KEYRING = -4
KEYCTL_SEARCH = 10
found = libc.syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, b"user", b"judge-hostile-key", 0) >= 0
libc.syscall(SYS_add_key, b"user", b"judge-hostile-key", b"secret", 6, KEY_SPEC_USER_KEYRING)
n = int(input())
print("LEFTOVER key" if found else ("SK" if n % 2 else "CY"))
