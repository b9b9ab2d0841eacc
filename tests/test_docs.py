"""The documentation's examples, run: what the docs and the README show is what the judge prints.

Every Markdown page under docs/ and the README is read with Sybil, and its fenced blocks are
examples of three kinds, told apart by how the block is opened:

- ```` ```console ````: each ``$ `` line (continued by a trailing ``\\``) is run with bash in the
  page's own working folder, ``judge`` being this checkout's; what it prints (stdout and stderr
  together) must be the lines shown under it. A line that is ``...`` stands for any number of
  lines, ``...`` inside a line for any text, so timings and paths can be elided.
- a block with ``title="PATH"`` (Material's file-name caption) is a file: it is written to PATH
  in the page's folder, so that the commands after it use exactly the file the page shows (a
  ``.yaml`` or ``.yml`` file must also be valid YAML, whether or not a command reads it).
- any other ```` ```yaml ```` block must be valid YAML. Blocks of other languages (``sh``,
  ``text``, ``python`` without a title) are shown, not run: a cluster or a CI workflow.

The blocks of a page run in order, in one folder (a fresh one in /tmp, readable by the sandbox's
users, with the repository's example solutions, examples and test packages linked in): a page is
one test, so a tutorial's steps build on each other as a reader's do.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, run_judge
from sybil import Document, Region

PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```(?P<language>[\w-]*)(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
TITLE = re.compile(r'title="(?P<path>[^"]+)"')
LINKED = ("solutions", "examples", "tests/packages")  # what the pages' commands may name, as a checkout has it
COMMAND_SECONDS = 60
READERS_UNSET = ("COLUMNS", "JUDGE_PROBLEMS", "JUDGE_EXPLAIN_SECONDS")


def blocks(document: Document):
    """Sybil's parser: one region per fenced block that runs (a console session, a file, YAML)."""
    for match in FENCE.finditer(document.text):
        language, info, body = match["language"], match["info"], match["body"]
        title = TITLE.search(info)
        if title:
            yield Region(match.start(), match.end(), (title["path"], body), write_file)
        elif language == "console":
            yield Region(match.start(), match.end(), body, run_session)
        elif language == "yaml":
            yield Region(match.start(), match.end(), body, parse_yaml)


def write_file(example) -> None:
    path, body = example.parsed
    if path.endswith((".yaml", ".yml")):
        parse_yaml(example, body)  # a file no command reads (a CI workflow) is still checked
    target = Path(example.namespace["folder"]) / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(body)
    target.chmod(0o755 if body.startswith("#!") else 0o644)


def parse_yaml(example, text: str | None = None) -> None:
    try:
        yaml.safe_load(example.parsed if text is None else text)
    except yaml.YAMLError as error:
        raise AssertionError(f"line {example.line}: not valid YAML: {error}") from None


def run_session(example) -> None:
    for command, shown in commands(example.parsed):
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=example.namespace["folder"],
                              env=example.namespace["env"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=COMMAND_SECONDS, check=False)
        printed = "\n".join(line.rstrip() for line in done.stdout.rstrip("\n").splitlines())
        assert matches(shown, printed), (f"{example.path}, line {example.line}: `$ {command}` printed\n{printed}\n"
                                         f"--- but the page shows ---\n{shown}")


def commands(session: str) -> list[tuple[str, str]]:
    """(command, the output shown under it) for each ``$ `` line of a console block."""
    found: list[tuple[str, list[str]]] = []
    continued = False
    for line in session.splitlines():
        if continued:
            found[-1] = (found[-1][0] + "\n" + line, found[-1][1])
        elif line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line)
        else:
            raise AssertionError(f"a console block must start with a `$ ` line, not {line!r}")
        continued = line.endswith("\\")
    return [(command, "\n".join(shown).rstrip("\n")) for command, shown in found]


def matches(shown: str, printed: str) -> bool:
    """Whether ``printed`` is what ``shown`` shows, where ``...`` elides (lines, or text in a line)."""
    pattern = []
    for line in shown.splitlines():
        line = line.rstrip()
        if line == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(".*?".join(re.escape(part) for part in line.split("...")) + r"\n")
    return re.fullmatch("".join(pattern), printed + "\n" if printed else "") is not None


@pytest.fixture
def page_folder():
    """A fresh working folder the sandbox's users can read, with a ``judge`` that is this checkout's."""
    folder = Path(tempfile.mkdtemp(prefix="judge-docs-"))
    folder.chmod(0o755)
    for name in LINKED:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).symlink_to(ROOT / name)
    bin_folder = folder / ".bin"
    bin_folder.mkdir()
    (bin_folder / "judge").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m judge "$@"\n')
    (bin_folder / "judge").chmod(0o755)
    # A reader's environment: none of the suite's own settings (conftest turns the counterexample
    # search off for speed; the pages show it on, as a reader gets it).
    env = {key: value for key, value in os.environ.items() if key not in READERS_UNSET}
    env.update(PATH=f"{bin_folder}:{env['PATH']}", PYTHONPATH=str(ROOT))
    yield folder, env
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_the_pages_examples_print_what_they_show(page, page_folder):
    document = Document.parse(str(page), blocks)
    document.namespace.update(folder=str(page_folder[0]), env=page_folder[1])
    for example in document:
        example.evaluate()


@pytest.mark.parametrize("shown, printed, same", [
    ("a\nb", "a\nb", True),
    ("a\n...\nd", "a\nb\nc\nd", True),
    ("a\n...\nb", "a\nb", True),
    ("took ... ms", "took 12 ms", True),
    ("a\nb", "a\nc", False),
    ("a", "a\nb", False),
    ("", "", True),
])
def test_elisions_stand_for_what_varies_and_nothing_else(shown, printed, same):
    assert matches(shown, printed) is same


def test_a_console_block_is_read_as_commands_and_their_output():
    assert commands("$ judge list \\\n  --problems x\nid\n$ echo\n") == [("judge list \\\n  --problems x", "id"),
                                                                         ("echo", "")]


def test_every_commands_help_ends_with_its_docs_page():
    from judge.commands import COMMANDS
    from judge.text.docs_links import command_page
    for command in COMMANDS:
        done = subprocess.run([sys.executable, "-m", "judge", command, "--help"], cwd=ROOT, capture_output=True,
                              text=True, check=False)
        assert done.stdout.rstrip().endswith(f"docs: {command_page(command)}"), done.stdout
    assert (ROOT / command_page().split("#")[0]).is_file(), "the help links to a page that is not in docs/"


def test_the_generated_commands_reference_names_every_option():
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    try:
        import commands_reference
    finally:
        sys.path.pop(0)
    from judge.cli import build_parser
    page = commands_reference.commands_markdown()
    subcommands = next(action for action in build_parser()._actions if action.dest == "==SUPPRESS==" and action.choices)
    for name, command in subcommands.choices.items():
        assert f"## judge {name} {{#judge-{name}}}" in page
        for action in command._actions:
            for option in action.option_strings:
                assert option == "-h" or option == "--help" or f"`{option}" in page, (name, option)


def test_the_architecture_page_names_every_module_of_the_import_layers():
    import tomllib
    contract = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"][0]
    page = (ROOT / "docs" / "explanation" / "architecture.md").read_text()
    layers = page[page.index("## The import layers"):]
    for layer in contract["layers"]:
        for module in re.split(r"[:|]", layer):
            name = module.strip()
            assert f"`{name}`" in layers or f"`{name}/`" in layers, f"{name} is in pyproject.toml's layers, not on the page"


def test_every_how_to_page_an_error_names_exists():
    named = set()
    for source in (ROOT / "judge").rglob("*.py"):
        named.update(re.findall(r"""see\(['"]([^'"]+)['"]\)""", source.read_text(encoding="utf-8")))
    assert len(named) >= 4, named
    assert not [path for path in named if not (ROOT / "docs" / path).is_file()], named


def test_an_error_with_a_how_to_page_names_it(tmp_path):
    suite = tmp_path / "cases" / "aplusb.yaml"
    suite.parent.mkdir()
    suite.write_text("id: aplusb\ntitle: A + B\nio: stdio\nfeedback: everything\n"
                     "cases:\n  - {name: one, input: \"1 2\\n\", output: \"3\\n\"}\n")
    done = run_judge("show", "aplusb", "--problems", str(tmp_path))
    assert done.returncode == 2 and "(see docs/how-to/feedback-and-hints.md)" in done.stderr, done.stderr


def test_the_suite_yaml_page_names_every_key_the_suite_reader_knows():
    from judge.model.feedback import POLICY_KEYS
    from judge.formats.suite.format import (CASE_KEYS, CHECKER_KEYS, GENERATED_KEYS, GROUP_KEYS, HEADER_KEYS, LIMIT_KEYS,
                                     TASK_CASE_KEYS)

    page = (ROOT / "docs" / "reference" / "suite-yaml.md").read_text(encoding="utf-8")
    keys = {*HEADER_KEYS, *LIMIT_KEYS, *CHECKER_KEYS, *CASE_KEYS, *GROUP_KEYS, *GENERATED_KEYS, *POLICY_KEYS,
            *(key for keys in TASK_CASE_KEYS.values() for key in keys)}
    assert not sorted(key for key in keys if f"`{key}`" not in page and f"{key}:" not in page)
