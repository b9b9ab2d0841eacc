"""`judge show PKG`: a package's name, limits (and where the time limit came from), statement and
samples (``.in``/``.ans`` pairs, and ``.interaction`` transcripts of interactive and multi-pass
problems)."""

from __future__ import annotations

from judge.formats.icpc.timelimit import GIVEN, default_limit_warning, time_limit_known
from judge.model.problem import Problem
from judge.model.vocabulary import Visibility

TIME_SOURCES = {
    "problem.yaml": "from problem.yaml",
    ".timelimit": "from .timelimit",
    "inferred": "inferred from the slowest accepted submission x {factor:g}",
    GIVEN: "given with --time-limit",
}


def render_package(problem: Problem) -> str:
    """The text `judge show` prints for a problem package."""
    package = problem.package
    timing = package.timing
    source = TIME_SOURCES[timing.source].format(factor=timing.ac_to_time_limit)
    if default_limit_warning(package):
        source = "the format's default, one time_resolution: no accepted submission passed to infer it from"
    unit = "pass" if package.multi_pass else "case"
    time = f"{problem.time_limit:g} s CPU per {unit} ({source})" if time_limit_known(package) else (
        "time limit not given: `judge test` (or the first `judge run`) infers it from the slowest accepted "
        f"submission x {timing.ac_to_time_limit:g}")
    lines = [f"# {problem.title} ({package.root})", "",
             f"Type: {', '.join(sorted(package.types))}; format {package.version}"
             + ("; custom output validator" if package.output_validator else ""),
             f"Limits: {time}, {package.memory_mib} MiB memory, {package.output_mib} MiB output."]
    if package.multi_pass:
        lines.append(f"Multi-pass: the submission runs on a case up to {package.validation_passes} times "
                     f"(limits.validation_passes), each pass on the input the output validator wrote in nextpass.in")
    if package.data_pending:
        lines.append("Test data: to be made from generators/generators.yaml by the first `judge test`, "
                     "`judge run` or `judge generate` (the samples shown are data/'s own)")
    elif package.generated is not None:
        lines.append(f"Test data: made from generators/generators.yaml ({len(package.generated.cases)} cases)")
    lines.append("")
    if problem.statement.strip():
        lines += [problem.statement.rstrip(), ""]
    transcripts = sample_interactions(package)
    for case in problem.cases:
        if case.visibility == Visibility.SAMPLE:
            if case.name in transcripts:
                lines += [f"## {case.name} (interaction)", transcripts[case.name], ""]
            elif package.multi_pass:  # the answer file is the validator's, not a pass's output
                lines += [f"## {case.name}", "input of the first pass:", case.input.rstrip(), "answer file:",
                          str(case.expected).rstrip(), ""]
            else:
                lines += [f"## {case.name}", "input:", case.input.rstrip(), "output:", str(case.expected).rstrip(), ""]
    for name in [name for name in transcripts if name not in package.cases]:
        lines += [f"## {name} (interaction)", transcripts[name], ""]
    return "\n".join(lines).rstrip() + "\n"


def sample_interactions(package) -> dict[str, str]:
    """The samples' ``.interaction`` transcripts, readable, by case name (a sample's own, and
    those of interactions without a case, in order)."""
    paths = [files.interaction for name, files in package.cases.items()
             if name in package.samples and files.interaction is not None] + list(package.interactions)
    return {str(path.relative_to(package.data_dir).with_suffix("")):
            _interaction(path.read_text(encoding="utf-8", errors="replace")) for path in paths}


def _interaction(text: str) -> str:
    """A transcript: ``<`` lines are the judge's output, ``>`` lines the submission's."""
    shown = []
    for line in text.splitlines():
        if line.startswith("<"):
            shown.append(f"judge:      {line[1:]}")
        elif line.startswith(">"):
            shown.append(f"submission: {line[1:]}")
        elif line == "---":  # a multi-pass sample's passes are separated so
            shown.append("--- next pass ---")
        else:
            shown.append(line)
    return "\n".join(shown)
