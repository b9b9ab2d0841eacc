"""The roster's tokens: a random secret per student (and per teacher), of which the store keeps
only the SHA-256, compared with every token in force in constant time, so that neither the store
nor the time an answer takes gives one away."""

from __future__ import annotations

import csv
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path

from judge.course_server.submissions import CourseStore
from judge.errors import UsageError

STUDENT, TEACHER = "student", "teacher"
TOKEN_BYTES = 24
NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@")


@dataclass(frozen=True)
class Identity:
    name: str
    role: str

    @property
    def is_teacher(self) -> bool:
        return self.role == TEACHER


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue(store: CourseStore, name: str, role: str = STUDENT) -> str:
    """A new token for ``name``, its hash recorded; the token itself is shown once, here."""
    check_name(name)
    token = new_token()
    store.add_token(token_hash(token), name, role)
    return token


def new_token(draw=secrets.token_urlsafe) -> str:
    """A random token that does not start with '-', which a command line would read as an option
    (`judge login --token -x...`)."""
    while (token := draw(TOKEN_BYTES)).startswith("-"):
        pass
    return token


def identify(store: CourseStore, token: str) -> Identity | None:
    """Whose token this is (None: nobody's, or revoked). Every token in force is compared, each
    in constant time, so the answer takes as long whichever one matches."""
    presented = token_hash(token).encode("ascii")
    found = None
    for stored, name, role in store.tokens_in_force():
        if hmac.compare_digest(stored.encode("ascii"), presented):
            found = Identity(name, role)
    return found


def check_name(name: str) -> None:
    """A student's name is a folder's name in the class download: letters, digits, ``._-@``."""
    if not name or name.startswith(".") or not set(name) <= NAME_CHARACTERS:
        raise UsageError(f"student name {name!r} must be letters, digits, '.', '_', '-' or '@', "
                         f"not starting with '.' (it names the student's folder in the class download)")


def roster_names(path: Path) -> list[str]:
    """The ``student`` column of the roster CSV ``path``, in order, each name once."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as file:
            reader = csv.DictReader(file)
            if reader.fieldnames is None or "student" not in reader.fieldnames:
                raise UsageError(f"{path}: the roster needs a header line with a 'student' column, "
                                 f"got {', '.join(reader.fieldnames or []) or 'no header'}")
            names = [(row.get("student") or "").strip() for row in reader]
    except OSError as error:
        raise UsageError(f"cannot read the roster {path} ({error.strerror})") from None
    except (csv.Error, UnicodeDecodeError) as error:
        raise UsageError(f"{path} is not a readable CSV roster ({error})") from None
    names = [name for name in names if name]
    for name in names:
        check_name(name)
    return list(dict.fromkeys(names))
