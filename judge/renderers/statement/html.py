"""`judge show --html`: a problem's statement as one HTML page. The statement's text (a suite's
Markdown, a package's statement rendered to text) is cut into blocks (headings, paragraphs,
lists, fenced code) and every word escaped by the template; the samples are a table of their
input and output, each in a pre block."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from judge.formats.icpc.show import sample_interactions
from judge.model.problem import Problem
from judge.model.vocabulary import Visibility
from judge.problem_code.reference import expected_output
from judge.renderers.html_page import environment

HEADING = re.compile(r"(#{1,6})\s+(.*)")
ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s+(.*)")


@dataclass(frozen=True)
class Block:
    """A piece of the statement: ``kind`` is h1..h6, p, ul or pre; ``lines`` its text."""

    kind: str
    lines: tuple[str, ...]


def render(problem: Problem) -> str:
    """The statement page of ``problem``: title, statement and samples."""
    transcripts = sample_interactions(problem.package) if problem.package is not None else {}
    # (caption, input, output); an interaction's transcript is one text, its output None
    samples = [(f"{case.name} (interaction)", transcripts[case.name], None) if case.name in transcripts else
               (case.name, _shown(case.input if case.input is not None else list(case.args or ())),
                _shown(expected_output(problem, case)))
               for case in problem.cases if case.visibility == Visibility.SAMPLE]
    samples += [(f"{name} (interaction)", text, None) for name, text in transcripts.items()
                if name not in problem.package.cases]
    return environment().get_template("statement.html.j2").render(
        problem=problem, blocks=blocks(problem.statement), samples=samples,
        own_title=not problem.statement.lstrip().startswith("#"))  # else the statement's heading is the title


def blocks(text: str) -> list[Block]:
    """The statement cut into headings, paragraphs, lists and fenced code, in order."""
    found: list[Block] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.strip().startswith("```"):
            end = next((at for at in range(index + 1, len(lines)) if lines[at].strip().startswith("```")), len(lines))
            found.append(Block("pre", tuple(lines[index + 1:end])))
            index = end + 1
            continue
        if heading := HEADING.fullmatch(line.strip()):
            found.append(Block(f"h{len(heading[1])}", (heading[2],)))
        elif item := ITEM.fullmatch(line):
            if found and found[-1].kind == "ul" and index and lines[index - 1].strip():
                found[-1] = Block("ul", (*found[-1].lines, item[1]))
            else:
                found.append(Block("ul", (item[1],)))
        elif line.strip():
            if found and found[-1].kind == "p" and index and lines[index - 1].strip():
                found[-1] = Block("p", (*found[-1].lines, line.strip()))
            else:
                found.append(Block("p", (line.strip(),)))
        index += 1
    return found


def _shown(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)
