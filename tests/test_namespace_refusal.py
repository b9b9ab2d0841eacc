"""Where user namespaces are refused, the diagnosis names the cause in the system's own terms and
only fixes that exist there: each system is a fake tree of the files the diagnosis reads (its
/proc/sys switches, its /proc/self, its container marks)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from judge.sandbox.namespace_refusal import AS_ROOT, apparmor_profile, diagnose

MOUNTED_ROOT = "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n22 27 0:21 / /proc rw,relatime - proc proc rw\n"
SWITCHES = ("kernel.unprivileged_userns_clone", "kernel.apparmor_restrict_unprivileged_userns",
            "user.max_user_namespaces")


def system(tmp_path: Path, files: dict[str, str]) -> Path:
    """A fake root holding ``files`` (path below the root: text) and, unless given, a plain
    machine's: / a mount point, no seccomp filter, namespaces allowed."""
    plain = {"proc/self/mountinfo": MOUNTED_ROOT, "proc/self/status": "Name:\tjudge\nSeccomp:\t0\n",
             "proc/sys/user/max_user_namespaces": "63432", "proc/1/cgroup": "0::/init.scope\n"}
    for name, text in {**plain, **files}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def named_switches(text: str) -> set[str]:
    return {switch for switch in SWITCHES if switch in text}


def test_ubuntu_apparmor_names_its_switch_and_a_profile_for_the_judges_bwrap(tmp_path):
    root = system(tmp_path, {"proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"})
    found = diagnose("unshare: write failed /proc/self/uid_map: Operation not permitted", as_root=False,
                     bwrap="/opt/venv/bin/bwrap", root=root)
    assert "AppArmor" in found.reason
    text = found.text()
    assert "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0" in text
    assert named_switches(text) == {"kernel.apparmor_restrict_unprivileged_userns"}
    assert "profile judge-bwrap /opt/venv/bin/bwrap flags=(unconfined)" in text and "userns," in text
    assert found.file == ("/etc/apparmor.d/judge-bwrap", apparmor_profile("/opt/venv/bin/bwrap"))
    assert AS_ROOT in found.fixes
    assert "bubblewrap" not in text  # installed or not, it is no fix here


def test_the_profile_given_is_one_apparmor_parses(tmp_path):
    parser = subprocess.run(["sh", "-c", "command -v apparmor_parser"], capture_output=True, text=True).stdout.strip()
    if not parser:
        pytest.skip("apparmor_parser is not installed here")
    version = subprocess.run([parser, "--version"], capture_output=True, text=True, check=False).stdout.split("\n")[0]
    if not re.search(r"version ([4-9]|\d\d)\.", version):
        # The restriction, and the userns rule and abi/4.0 the profile uses, came with AppArmor 4.0.
        pytest.skip(f"the profile is AppArmor 4's (Ubuntu 23.10 and later); this parser says: {version}")
    profile = tmp_path / "judge-bwrap"
    profile.write_text(apparmor_profile("/usr/bin/bwrap"))
    # -Q: compiled but not loaded into the kernel; -K: no cache written
    done = subprocess.run([parser, "-Q", "-K", str(profile)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_debians_switch_is_named_where_the_kernel_has_it(tmp_path):
    root = system(tmp_path, {"proc/sys/kernel/unprivileged_userns_clone": "0"})
    found = diagnose(as_root=False, root=root)
    assert named_switches(found.text()) == {"kernel.unprivileged_userns_clone"}
    assert "sudo sysctl -w kernel.unprivileged_userns_clone=1" in found.fixes[0]


def test_a_zero_namespace_limit_is_named(tmp_path):
    root = system(tmp_path, {"proc/sys/user/max_user_namespaces": "0",
                             "proc/sys/kernel/unprivileged_userns_clone": "1"})
    found = diagnose("unshare: unshare failed: No space left on device", as_root=False, root=root)
    assert "user.max_user_namespaces is 0" in found.reason
    assert named_switches(found.text()) == {"user.max_user_namespaces"}
    assert found.fixes == (found.fixes[0], AS_ROOT)


def test_running_as_root_is_offered_only_to_a_judge_that_is_not_root(tmp_path):
    root = system(tmp_path, {"proc/sys/kernel/unprivileged_userns_clone": "0"})
    assert AS_ROOT in diagnose(as_root=False, root=root).fixes
    assert AS_ROOT not in diagnose(as_root=True, root=root).fixes


def test_a_chroot_whose_root_is_no_mount_point_says_how_to_make_it_one(tmp_path):
    no_root_mount = "184 49 254:0 /usr /usr rw - ext4 /dev/vda rw\n186 49 0:21 / /proc rw - proc proc rw\n"
    found = diagnose(as_root=False, root=system(tmp_path, {"proc/self/mountinfo": no_root_mount}))
    assert "chroot" in found.reason and not named_switches(found.text())
    assert found.fixes[0] == "run the judge outside the chroot"
    assert "mount --bind DIR DIR" in found.fixes[1] and AS_ROOT not in found.fixes


def test_a_chroot_seen_from_pid_1s_root(tmp_path):
    elsewhere = tmp_path / "host"
    elsewhere.mkdir()
    root = system(tmp_path / "chroot", {})
    (root / "proc/1/root").symlink_to(elsewhere)
    found = diagnose(as_root=True, root=root)
    assert "chroot" in found.reason and found.fixes == ("run the judge outside the chroot",)


def test_a_container_gets_the_options_that_let_it_through(tmp_path):
    root = system(tmp_path, {".dockerenv": "", "proc/self/status": "Name:\tjudge\nSeccomp:\t2\n"})
    found = diagnose("unshare: unshare failed: Operation not permitted", as_root=False, root=root)
    assert "container" in found.reason and "seccomp" in found.reason
    for_users, for_root = found.fixes
    assert "--security-opt seccomp=unconfined" in for_users and "systempaths=unconfined" in for_users
    assert "--cap-add SYS_ADMIN --cap-add NET_ADMIN" in for_root
    assert not named_switches(found.text())


def test_a_container_is_also_seen_by_its_cgroup(tmp_path):
    root = system(tmp_path, {"proc/1/cgroup": "0::/kubepods/besteffort/pod1234/abcd\n"})
    assert "container" in diagnose(as_root=True, root=root).reason


def test_a_seccomp_filter_outside_a_container_is_named(tmp_path):
    root = system(tmp_path, {"proc/self/status": "Name:\tjudge\nSeccomp:\t2\n"})
    found = diagnose(as_root=False, root=root)
    assert "seccomp filter" in found.reason and found.fixes == ("start the judge without that filter", AS_ROOT)


def test_an_unexplained_refusal_quotes_the_kernel_and_offers_only_root(tmp_path):
    found = diagnose("unshare: unshare failed: Operation not permitted", as_root=False, root=system(tmp_path, {}))
    assert "Operation not permitted" in found.reason and found.fixes == (AS_ROOT,)
    assert not named_switches(found.text())
