"""The class as `judge grade` reads it: a folder per student holding their latest upload to each
problem, named after the problem (``ana/stones.py``); written to a folder, or as a zip."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path, PurePath

from judge.course_server.submissions import CourseStore, Upload


def latest_uploads(store: CourseStore) -> list[Upload]:
    """Each student's latest upload to each problem."""
    latest: dict[tuple[str, str], Upload] = {}
    for upload in store.uploads():
        latest[(upload.student, upload.problem)] = upload
    return list(latest.values())


def class_file_name(upload: Upload) -> str:
    """``<student>/<problem><suffix>``: the names `judge grade` maps to a student and a problem."""
    return f"{upload.student}/{upload.problem}{PurePath(upload.file_name).suffix}"


def write_class(store: CourseStore, folder: Path) -> None:
    for upload in latest_uploads(store):
        path = folder / class_file_name(upload)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(store.source(upload.id))


def class_zip(store: CourseStore) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for upload in latest_uploads(store):
            archive.writestr(f"class/{class_file_name(upload)}", store.source(upload.id))
    return buffer.getvalue()
