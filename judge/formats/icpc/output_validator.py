"""Output validators: the default one, or the package's own program run in the sandbox as

    validator input answer feedback_dir [args] < team_output

Exit 42 accepts, 43 rejects, anything else is the judge's fault (IE), never the submission's.
``judgemessage.txt`` in the feedback directory becomes the case's message, ``score.txt`` its score.
The validator gets its own sandbox and limits; the input and answer are copied into its working
directory (the submission never sees them).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from judge.formats.icpc import default_validator
from judge.formats.icpc.package import CaseFiles, Package, PackageError
from judge.formats.icpc.programs import package_program
from judge.languages import CompileError, LanguageUnavailable, Program, UnknownLanguage
from judge.model.verdict import Verdict, signal_name
from judge.sandbox import Limits, Outcome, run_sandboxed

ACCEPTED_EXIT, REJECTED_EXIT = 42, 43
MESSAGE_KEEP = 2000  # characters of judgemessage.txt kept for the case's message
NEXT_PASS_FILE = "nextpass.in"  # a multi-pass validator's request for another pass, with its input


@dataclass(frozen=True)
class Judgement:
    """What an output validator decided about one case."""

    verdict: Verdict  # AC, WA or IE
    message: str = ""
    score: float | None = None
    score_multiplier: float | None = None  # score_multiplier.txt: a share of the case's maximum score


class ValidatorWorkspace:
    """A validator's working directory: the case's input and answer, and an empty feedback dir."""

    def __init__(self, files: CaseFiles) -> None:
        self.scratch = Path(tempfile.mkdtemp(prefix="judge-validator-"))
        self.path = self.scratch / "work"  # the sandbox opens up the parent; this one is ours
        # Only the validator's sandbox user (it is handed over) may read the answer: in the weaker
        # sandbox tiers a submission running meanwhile (interactive problems) sees the host's /tmp.
        self.path.mkdir(mode=0o700)
        shutil.copyfile(files.input_path, self.path / "input.in")
        shutil.copyfile(files.answer_path, self.path / "answer.ans")
        (self.path / "feedback").mkdir()

    def next_pass_input(self) -> bytes | None:
        """What the validator wrote to ``nextpass.in`` to ask for another pass of a multi-pass
        problem (the file is taken away: it is not there at the next pass), or None. PackageError
        when it is not a regular file (a link could lead anywhere the judge can read)."""
        path = self.path / "feedback" / NEXT_PASS_FILE
        if not path.exists() and not path.is_symlink():
            return None
        if path.is_symlink() or not path.is_file():
            raise PackageError(f"the output validator made {NEXT_PASS_FILE} a link or a folder, not a file")
        data = path.read_bytes()
        path.unlink()
        return data

    def start_pass(self, pass_input: bytes) -> None:
        """The next pass's input as the validator's input file (the file the submission is given,
        as the format's invocation says); the feedback directory stays as it is."""
        (self.path / "input.in").write_bytes(pass_input)

    def arguments(self, files: CaseFiles) -> list[str]:
        return ["{work}/input.in", "{work}/answer.ans", "{work}/feedback/", *files.output_validator_args]

    def judgement(self, outcome: Outcome, name: str) -> Judgement:
        """The verdict the validator's exit status and feedback files give."""
        # One line, as every case message is: the validator's lines joined.
        message = " / ".join(line.strip() for line in self._read("judgemessage.txt")[:MESSAGE_KEEP].splitlines()
                             if line.strip())
        if outcome.internal_error:
            return Judgement(Verdict.IE, f"output validator could not run: {outcome.internal_error}")
        if outcome.wall_timed_out or outcome.signal is not None:
            how = ("ran out of time" if outcome.wall_timed_out else
                   f"was stopped at its memory limit ({outcome.memory_text()})" if outcome.stopped == "memory" else
                   f"was stopped at its CPU time limit ({outcome.cpu_time:.2f} s)" if outcome.stopped == "cpu" else
                   f"was killed by {signal_name(outcome.signal)}")
            return Judgement(Verdict.IE, f"output validator {name} {how}")
        if outcome.exit_code not in (ACCEPTED_EXIT, REJECTED_EXIT):
            stderr = outcome.stderr.decode("utf-8", errors="replace").strip().splitlines()
            return Judgement(Verdict.IE, f"output validator {name} exited {outcome.exit_code}, not {ACCEPTED_EXIT} "
                                   f"(accepted) or {REJECTED_EXIT} (wrong answer)"
                                   + (f": {stderr[-1][:200]}" if stderr else ""))
        score_text = self._read("score.txt").strip()
        multiplier_text = self._read("score_multiplier.txt").strip()
        if score_text and multiplier_text:  # 2025-09, "Scoring test cases": a judge error
            return Judgement(Verdict.IE, f"output validator {name} wrote both score.txt and score_multiplier.txt; "
                                   f"write one of them")
        try:
            score = float(score_text) if score_text else None
            multiplier = float(multiplier_text) if multiplier_text else None
        except ValueError:
            wrote = f"score.txt {score_text[:40]!r}" if score_text else f"score_multiplier.txt {multiplier_text[:40]!r}"
            return Judgement(Verdict.IE, f"output validator {name} wrote {wrote}, not a number")
        if multiplier is not None and not 0 <= multiplier <= 1:
            return Judgement(Verdict.IE, f"output validator {name} wrote score_multiplier.txt {multiplier_text[:40]!r}, "
                                   f"not a number from 0 to 1")
        if outcome.exit_code != ACCEPTED_EXIT:
            return Judgement(Verdict.WA, message)
        return Judgement(Verdict.AC, message, score, multiplier)

    def _read(self, name: str) -> str:
        path = self.path / "feedback" / name
        try:
            return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        except OSError:
            return ""

    def close(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


class OutputValidator:
    """The package's output validator, built once (thread-safe) and run per case."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self.path = package.output_validator
        self._program: Program | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return str(self.path.relative_to(self.package.root)) if self.path else "default validator"

    def program(self) -> Program:
        """The built validator; PackageError (naming it) when it does not build."""
        assert self.path is not None
        with self._lock:
            if self._program is None:
                try:
                    self._program = package_program(self.package, self.path)
                except (CompileError, UnknownLanguage, LanguageUnavailable) as error:
                    raise PackageError(f"{self.path}: the output validator does not build: {error}") from None
        return self._program

    def limits(self) -> Limits:
        return self.package.validator_limits()

    def command(self, workspace: ValidatorWorkspace, files: CaseFiles) -> list[str]:
        program = self.program()
        return [*program.command, *workspace.arguments(files)]

    def check(self, files: CaseFiles, team_output: bytes, workspace: ValidatorWorkspace | None = None) -> Judgement:
        """Judge a submission's output for one case; in ``workspace`` when given (a multi-pass
        case's, kept between passes), else in a fresh one."""
        if self.path is None:
            return default_check(files, team_output)
        program = self.program()
        own = workspace is None
        workspace = workspace or ValidatorWorkspace(files)
        try:
            command = [part.replace("{memory_mb}", str(self.limits().memory >> 20))
                       for part in self.command(workspace, files)]
            outcome = run_sandboxed(command, stdin=team_output, limits=self.limits(),
                                    program_dir=program.directory, work_dir=workspace.path)
            return workspace.judgement(outcome, self.name)
        finally:
            if own:
                workspace.close()


def default_check(files: CaseFiles, team_output: bytes) -> Judgement:
    """The default validator on one case, with the case's validator flags."""
    try:
        result = default_validator.validate(team_output, files.answer_path.read_bytes(), files.output_validator_args)
    except default_validator.FlagError as error:
        return Judgement(Verdict.IE, f"default validator: {error} (in validator_flags / output_validator_args)")
    return Judgement(Verdict.AC if result.ok else Verdict.WA, result.message)
