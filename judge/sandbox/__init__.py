"""Run one untrusted program under limits and isolation, and measure it.

The sandbox is built from small system tools that exec one another, so no native code has to be
compiled and nothing runs between fork and exec in the judge (safe with threads):

    [setpriv to a slot uid] -> [bwrap | unshare] -> prlimit -> program
    bwrap as root -> setpriv to a slot uid -> prlimit -> program      (the root tier)

Isolation tiers, strongest first (probed once, see ``tiers``):
- ``root`` (only when the judge runs as root): bwrap makes the mount, PID, network, IPC and UTS
  namespaces and the view below without a user namespace, and the program starts as the run's
  slot uid with no capabilities; it works where unprivileged user namespaces are refused.
- ``bwrap``: new user, PID, network, IPC, UTS and mount namespaces; the program sees the
  allow-list view of ``view``: a read-only runtime, its own program files, an empty writable
  working directory and scratch directories of its own, nothing else of the host.
- ``unshare``: new user, PID, network, IPC and mount namespaces, with the same view built by a
  shell with mount(8) (``new_root``); where no mount namespace can be had, the host's files stay
  visible and the tier counts as weak.
- ``none``: limits only; a loud warning is printed.
When the judge runs as root, every tier first drops to a dedicated unprivileged uid, because the
kernel exempts root from RLIMIT_NPROC and lets root read everything.

Modules, one concern each: ``limits`` (what a run may use, what it did), ``tiers`` (probing, the
bwrap binary), ``namespace_refusal`` (why this system refuses user namespaces, and its fixes), ``probe_cache`` (what the probes found, remembered), ``command`` (the tool chain), ``slots`` (uids, killing, stopping everything),
``scratch`` (temporary directories), ``view`` (what a run sees), ``new_root`` (the unshare
tier's building of it), ``spawn`` (``RunSpec`` and the one way to start a process),
``run`` (one-shot runs and their watcher), ``server`` (long-lived processes).
"""

from judge.sandbox.command import PROGRAM_DIR_INSIDE, WORK_DIR_INSIDE
from judge.sandbox.limits import Limits, Outcome, RunsStopped, SandboxError
from judge.sandbox.probe_cache import probe_afresh
from judge.sandbox.run import run_sandboxed
from judge.sandbox.server import SandboxedServer
from judge.sandbox.slots import stop_all_runs, stop_on_signals, stopping
from judge.sandbox.spawn import RunSpec
from judge.sandbox.tiers import (
    INSTALL_HINT,
    SANDBOX_ENV,
    TIERS,
    WEAK_ENV,
    diagnose_refusal,
    find_bwrap,
    hides_file_system,
    isolation_fix,
    isolation_summary,
    private_directories,
    probe_tier,
    sandbox_tier,
    weakness,
)

__all__ = [
    "INSTALL_HINT",
    "PROGRAM_DIR_INSIDE",
    "SANDBOX_ENV",
    "TIERS",
    "WEAK_ENV",
    "WORK_DIR_INSIDE",
    "Limits",
    "Outcome",
    "RunSpec",
    "RunsStopped",
    "SandboxError",
    "SandboxedServer",
    "diagnose_refusal",
    "find_bwrap",
    "hides_file_system",
    "isolation_fix",
    "isolation_summary",
    "private_directories",
    "probe_afresh",
    "probe_tier",
    "run_sandboxed",
    "sandbox_tier",
    "stop_all_runs",
    "stop_on_signals",
    "stopping",
    "weakness",
]
