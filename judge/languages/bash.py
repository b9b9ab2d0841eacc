"""Bash scripts (.sh, .bash), as DOMjudge and BAPCtools judge them: ``bash -n`` checks the syntax
up front (an error is CE, as in the compiled languages), then ``bash`` runs the script. A folder's
entry is ``main.sh``, else ``main.bash``, else its only script."""

from __future__ import annotations

import shlex
from pathlib import Path

from judge.languages.base import Language, Program, cache_key, cached_build, read_source
from judge.languages.folder import entry_file
from judge.model.signature import Signature

BASH_COMMAND = ("bash", "--norc", "--noprofile")
# A folder of scripts runs from its own folder, as DOMjudge's run script does, so that the entry
# sources the others by a relative path (``. ./secondary.sh``); $0 is the entry.
FROM_OWN_FOLDER = (*BASH_COMMAND, "-c", 'cd "${0%/*}" && exec bash --norc --noprofile "$0" "$@"')


class Bash(Language):
    name = "bash"
    title = "Bash"
    extensions = (".sh", ".bash")
    toolchain = ("bash",)
    apt_packages = ("bash",)
    folder_entries = ("main.sh", "main.bash")
    self_test_file = "sum.sh"
    self_test_source = "read -r a b\necho $((a + b))\n"

    def prepare(self, source: Path, style: str, signature: Signature | None = None) -> Program:
        return self.prepare_files({"solution" + source.suffix.lower(): read_source(source)}, None)

    def prepare_folder(self, files: dict[str, bytes], path: Path, entry: str | None,
                       header_folders: tuple[str, ...] = ()) -> Program:
        return self.prepare_files(files, entry_file(files, self.extensions, self.folder_entries, path, entry))

    def prepare_files(self, files: dict[str, bytes], entry: str | None) -> Program:
        """A script, or a folder of them run from ``entry`` (the only script when None), each
        checked for syntax; the others lie next to it for it to source."""
        scripts = sorted(name for name in files if name.endswith(self.extensions))
        entry = entry or scripts[0]
        # bash -n checks one file (the next words are its arguments): each in turn, to the first error.
        check = ["/bin/sh", "-c", " && ".join(f"bash -n {shlex.quote('{work}/' + name)}" for name in scripts)]
        key = cache_key(self.name, self.version(), entry, *files, *files.values())
        directory = cached_build(key, files, check)
        command = FROM_OWN_FOLDER if len(files) > 1 else BASH_COMMAND
        return Program(self.name, directory, (*command, "{prog}/" + entry))
