"""`judge doctor`: each language's toolchain and self-test, the sandbox tier in force, and the
compile cache with its caps."""

from __future__ import annotations

import argparse

from tabulate import tabulate

from judge.commands.common import EXIT_FAILED, EXIT_OK
from judge.errors import LanguageUnavailable
from judge.languages import LANGUAGES
from judge.languages.build_cache import cache_summary
from judge.languages.compiler_archive import archive_summary
from judge.languages.self_test import self_test
from judge.model.vocabulary import SandboxTier
from judge.sandbox import (
    TIERS,
    diagnose_refusal,
    find_bwrap,
    hides_file_system,
    probe_afresh,
    probe_tier,
    sandbox_tier,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def handle(args: argparse.Namespace) -> int:
    probe_afresh()  # what works now, not what the last command found
    rows = []
    failed = 0
    unavailable = set()
    for language in LANGUAGES.values():
        extensions = " ".join(language.extensions)
        try:
            version = language.version()
        except LanguageUnavailable as error:
            failed += 1
            unavailable.add(language.name)
            rows.append([language.name, extensions, "unavailable", str(error)])
            continue
        problem = self_test(language)
        failed += problem is not None
        rows.append([language.name, extensions, "ok" if problem is None else "FAILED",
                     version if problem is None else f"{version}: {problem}"])
    print(tabulate(rows, headers=["language", "extensions", "status", "toolchain"]))
    print()
    print_sandbox()
    print()
    print(cache_summary())
    archives = archive_summary([language for language in LANGUAGES.values() if language.name not in unavailable])
    if archives:
        print(archives)
    return EXIT_FAILED if failed else EXIT_OK


TIER_TEXT = {
    SandboxTier.ROOT: "the judge, as root, makes the namespaces itself (no user namespace); each case runs as "
                      "an unprivileged slot user with no capabilities",
    SandboxTier.BWRAP: "bwrap in a user namespace of its own",
    SandboxTier.UNSHARE: "unshare(1) in a user namespace of its own, the view built with mount(8)",
    SandboxTier.NONE: "limits only, no namespaces",
}


def print_sandbox() -> None:
    """The tier in force and what it is, each tier's state, and whether user namespaces are
    refused here: why, in this system's terms, and its fixes."""
    tier = sandbox_tier()
    print(f"sandbox tier: {tier}: {TIER_TEXT[SandboxTier(tier)]}")
    bwrap, _ = find_bwrap(SandboxTier.ROOT if tier == SandboxTier.ROOT else SandboxTier.BWRAP)
    if bwrap:
        print(f"bwrap: {bwrap.path} ({bwrap.version}, {bwrap.origin})")
    for name in TIERS:
        reason = probe_tier(name)
        print(f"  {name:8} {'unavailable: ' + reason if reason else _view_of(name, hides_file_system(name))}")
    refusal = diagnose_refusal()
    if refusal is None:
        print("user namespaces: usable (the bwrap and unshare tiers need them; the root tier does not)")
        return
    needless = " (the root tier in force needs none)" if tier == SandboxTier.ROOT else ""
    print(f"user namespaces: refused{needless}: {refusal.reason}")
    for fix in refusal.fixes:
        print(f"  fix: {fix}")
    if refusal.file:
        path, text = refusal.file
        print(f"  {path}:")
        print("\n".join(f"    {line}" for line in text.splitlines()))


def _view_of(tier: str, hides: bool) -> str:
    """What a submission sees of this machine in an available tier."""
    if hides:
        return "available: a submission sees only the languages' runtimes, its program and its scratch directories"
    cannot = "builds no file-system view" if tier == SandboxTier.NONE else "cannot build its allow-list view here"
    return (f"available, but {cannot}: a submission sees this machine's files "
            "(grading refuses it unless --allow-weak-sandbox)")
