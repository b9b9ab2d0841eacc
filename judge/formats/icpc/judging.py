"""How a case of a package runs: batch (the submission's output, then the output validator) or
interactive (submission and validator connected by pipes both ways, each in its own sandbox).

Interactive verdicts follow problemtools' and DOMjudge's precedence: a validator that failed (IE),
or rejected before the submission's end reached it (the judge gives it that end, see
exit_order.py), decides; then the submission's TLE or crash; then the validator.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import threading

from judge.formats.icpc.output_validator import Judgement, OutputValidator, ValidatorWorkspace
from judge.formats.icpc.scoring import multiplied_score
from judge.languages import Program
from judge.model.problem import Case, Problem
from judge.model.results import CaseResult
from judge.model.verdict import CheckResult, Verdict
from judge.runner import decide_run, shown_error
from judge.sandbox import Limits, Outcome, run_sandboxed
from judge.sandbox.exit_order import HeldEnd

VALIDATOR = "validator"


def run_package_case(problem: Problem, prepared, case: Case, execute, validator: OutputValidator):
    """Run one case of a package problem and decide its verdict (a CaseResult)."""
    program, limits = prepared.program, prepared.limits
    files = problem.package.cases[case.name]
    command = program.argv(limits)
    if problem.package.interactive:
        outcome, judgement = run_interactive(validator, files, command, program, limits)
    else:
        outcome = execute(command, files.input_path.read_bytes(), limits, program.directory)
        judgement = validator.check(files, outcome.stdout) if ran_cleanly(outcome) else None
    if judgement is not None and judgement.score_multiplier is not None:
        judgement = multiplied_score(problem.package, case.name, judgement)
    return package_case_result(case, prepared, outcome, judgement)


def ran_cleanly(outcome: Outcome) -> bool:
    """Whether a batch run's output is the validator's to judge (else its own failure decides)."""
    return not outcome.internal_error and outcome.exit_code == 0 and outcome.signal is None


def package_case_result(case: Case, prepared, outcome: Outcome, judgement: Judgement | None) -> CaseResult:
    """The case's result from the submission's run and the validator's judgement (None: the
    submission's own failure decides)."""
    if judgement is not None and judgement.verdict == Verdict.IE:
        outcome.internal_error = judgement.message
    check = CheckResult(judgement.verdict == Verdict.AC, judgement.message) if judgement else None
    decision = decide_run(outcome, prepared.limits, check, prepared.language,
                          shown_error(outcome.stderr, case.visibility, prepared.language))
    return CaseResult(
        name=case.name, group=case.group, verdict=decision.verdict, cpu_time=round(outcome.cpu_time, 4),
        wall_time=round(outcome.wall_time, 4), memory_kb=outcome.memory_kb, exit_code=outcome.exit_code,
        signal=outcome.signal, message=decision.message, visibility=case.visibility,
        output=outcome.stdout.decode("utf-8", errors="replace"),
        score=judgement.score if judgement and decision.verdict == Verdict.AC else None,
        machine_short_of_memory=decision.machine_short_of_memory)


def run_interactive(validator: OutputValidator, files, command: list[str], program: Program,
                    limits: Limits, workspace: ValidatorWorkspace | None = None) -> tuple[Outcome, Judgement | None]:
    """Run submission and validator connected by two pipes; (the submission's outcome, the
    judgement when the validator decides — None when the submission's own failure does). The
    validator works in ``workspace`` when given (a multi-pass case's, the caller's to close)."""
    validator_program = validator.program()
    own_workspace = workspace is None
    workspace = workspace or ValidatorWorkspace(files)
    to_validator_read, to_validator_write = os.pipe2(os.O_CLOEXEC)
    to_submission_read, to_submission_write = os.pipe2(os.O_CLOEXEC)
    validator_limits = validator.limits()
    # The validator waits on the submission: its wall clock must outlast the submission's.
    validator_limits = dataclasses.replace(validator_limits, wall_time=validator_limits.wall_time + limits.wall_time)
    outcomes: dict[str, Outcome] = {}
    # The submission's end reaches the validator only when the judge gives it (see exit_order.py).
    held_end = HeldEnd(os.dup(to_validator_write), input_read=os.dup(to_validator_read),
                       output_read=os.dup(to_submission_read))

    def run_validator() -> None:
        command_line = [part.replace("{memory_mb}", str(validator_limits.memory >> 20))
                        for part in validator.command(workspace, files)]
        try:
            outcomes[VALIDATOR] = run_sandboxed(command_line, stdin=b"", limits=validator_limits,
                                                program_dir=validator_program.directory, work_dir=workspace.path,
                                                stdio=(to_validator_read, to_submission_write),
                                                on_start=held_end.validator_started)
        finally:
            unread.start()  # from here on it owns the kept end of the submission's output

    # The judge keeps its own end of the pipe to the submission: a submission that ends early
    # must not kill the validator's next write with SIGPIPE (that would be the judge's fault,
    # IE). Once the submission is done, what the validator still writes is read and dropped, as
    # problemtools' interactive runner does.
    kept_reader = os.dup(to_submission_read)
    drain = threading.Thread(target=_read_to_the_end, args=(kept_reader,), daemon=True)
    # And of the pipe from the submission: what it writes after the validator has ended (one
    # that accepts without reading to the end) is read and dropped, as BAPCtools' runner does,
    # instead of killing the submission with SIGPIPE.
    kept_submission_output = os.dup(to_validator_read)
    unread = threading.Thread(target=_read_to_the_end, args=(kept_submission_output,), daemon=True)
    thread = threading.Thread(target=run_validator, daemon=True)
    try:
        thread.start()
        try:
            submission = run_sandboxed(command, stdin=b"", limits=limits, program_dir=program.directory,
                                       stdio=(to_submission_read, to_validator_write))
        finally:
            drain.start()  # from here on the drain owns the kept end, and closes it
        validator_first = held_end.give(thread.is_alive)
        thread.join()
        drain.join(timeout=1.0)
        unread.join(timeout=1.0)
        return submission, _interactive_judgement(submission, outcomes[VALIDATOR], validator_first, workspace,
                                                  validator, limits)
    finally:
        if unread.ident is None:  # never started: the validator's thread did not run
            os.close(kept_submission_output)
        held_end.close()  # the validator is never left waiting for an end that does not come
        if own_workspace:
            workspace.close()


def _read_to_the_end(fd: int) -> None:
    """Read and drop what arrives on ``fd`` until every writer is gone; then close it."""
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)


def _interactive_judgement(submission: Outcome, validator_outcome: Outcome, validator_first: bool,
                           workspace: ValidatorWorkspace, validator: OutputValidator,
                           limits: Limits) -> Judgement | None:
    """``validator_first``: whether the validator ended before the submission's end reached it."""
    judgement = workspace.judgement(validator_outcome, validator.name)
    # A submission that the validator's end killed (SIGPIPE: it wrote what nobody would read) is
    # judged by the validator, as one that failed after a rejection made on its output is.
    validator_first = validator_first or submission.signal == signal.SIGPIPE
    if judgement.verdict == Verdict.IE or (validator_first and (judgement.verdict == Verdict.WA
                                                                or submission.signal == signal.SIGPIPE)):
        submission.signal = None  # the submission's end afterwards (a broken pipe, say) is not its fault
        submission.exit_code = 0
        submission.cpu_time = min(submission.cpu_time, limits.cpu_time)
        submission.wall_timed_out = False
        return judgement
    if submission.exit_code != 0 or submission.signal is not None or submission.wall_timed_out:
        return None  # the submission's own TLE / RE / MLE decides
    return judgement
