"""The class as `judge grade` reads it: a folder per student holding their latest upload to each
problem, named after the problem (``ana/stones.py``); written to a folder, or as a zip."""

from __future__ import annotations

import io
import os
import struct
import time
import zipfile
from pathlib import Path, PurePath

from judge.course_server.submissions import CourseStore, Upload


def latest_uploads(store: CourseStore, until: dict[str, float] | None = None) -> list[Upload]:
    """Each student's latest upload to each problem; with ``until`` (a problem's last time that
    counts: its assignment's deadline, or the end of its late work), the latest by then, as a git
    repository is graded at its last commit by then, else the latest (to be graded as too late)."""
    latest: dict[tuple[str, str], Upload] = {}
    for upload in store.uploads():  # oldest first
        key = (upload.student, upload.problem)
        limit = (until or {}).get(upload.problem)
        if limit is None or upload.submitted_at <= limit or key not in latest or latest[key].submitted_at > limit:
            latest[key] = upload
    return list(latest.values())


def class_file_name(upload: Upload) -> str:
    """``<student>/<problem><suffix>``: the names `judge grade` maps to a student and a problem."""
    return f"{upload.student}/{upload.problem}{PurePath(upload.file_name).suffix}"


def write_class(store: CourseStore, folder: Path, until: dict[str, float] | None = None) -> None:
    """Each file dated when it was uploaded: a deadline reads a folder's times."""
    for upload in latest_uploads(store, until):
        path = folder / class_file_name(upload)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(store.source(upload.id))
        os.utime(path, (upload.submitted_at, upload.submitted_at))


def class_zip(store: CourseStore, until: dict[str, float] | None = None) -> bytes:
    """The class as a zip whose entries are dated when they were uploaded (not when downloaded), so
    that `judge grade --assignment` of what `unzip` makes applies the assignment's deadline."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for upload in latest_uploads(store, until):
            entry = zipfile.ZipInfo(f"class/{class_file_name(upload)}", time.localtime(upload.submitted_at)[:6])
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o600 << 16  # as writestr gives a file: its owner reads it
            entry.extra = _unix_time_field(upload.submitted_at)
            archive.writestr(entry, store.source(upload.id))
    return buffer.getvalue()


def _unix_time_field(when: float) -> bytes:
    # The zip "extended timestamp" field (0x5455): the time in UTC, which unzip sets as the file's
    # time; the entry's own date is local time, which would shift by the zone between two machines.
    return struct.pack("<HHBl", 0x5455, 5, 1, int(when))
