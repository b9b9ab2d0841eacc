"""`python3 -m judge.languages`: the Debian packages that provide the toolchains this machine
lacks, one per line (what `.ci/run` installs), so the list comes from the languages themselves."""

from __future__ import annotations

import shutil

from judge.languages import LANGUAGES


def missing_packages() -> list[str]:
    missing = []
    for language in LANGUAGES.values():
        if not all(shutil.which(tool) for tool in language.toolchain):
            missing += [package for package in language.apt_packages if package not in missing]
    return missing


if __name__ == "__main__":
    print("\n".join(missing_packages()))
