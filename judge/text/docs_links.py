"""Where the judge's documentation is, named in one place.

`judge --help` and each command's help end with a link to the command's page, and errors that
have a how-to page name it. The pages are the Markdown sources under ``docs/`` of the judge's
repository, named by their path there (``docs/how-to/checkers.md``): the same path holds in a
checkout, in the repository's web view and, as ``how-to/checkers/``, in the site that
``mkdocs build`` makes of it. A path, not a web address, because the judge is not tied to a host.
"""

from __future__ import annotations

DOCS = "docs"
COMMANDS_PAGE = "reference/commands.md"


def page(path: str, anchor: str = "") -> str:
    """The link to the docs page at ``path`` (relative to docs/), at ``anchor`` if given."""
    return f"{DOCS}/{path}" + (f"#{anchor}" if anchor else "")


def command_page(name: str | None = None) -> str:
    """The link to a command's reference (``judge NAME``), or to the commands page."""
    return page(COMMANDS_PAGE, f"judge-{name}" if name else "")


def see(path: str) -> str:
    """The words an error message ends with to name its how-to page."""
    return f"(see {page(path)})"
