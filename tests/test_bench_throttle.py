"""The bench's 4x-slower CPU (bench/throttle.py): the whole browser in a cgroup with a quota,
its wrapper, and the fall-back to DevTools where there is no writable cgroup."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from bench.throttle import quota_us, whole_browser


def test_the_quota_is_a_quarter_of_the_cpus_given() -> None:
    assert quota_us(4, 2) == 50_000  # the brief's machine: 2 cores, 4x slower
    assert quota_us(4, 1) == 25_000  # each busy thread at most 4x slower
    assert quota_us(4, 8) == 200_000


def test_both_browsers_get_a_group_and_only_the_slowed_one_a_quota(tmp_path: Path) -> None:
    with whole_browser(4, "/bin/echo", 2, root=tmp_path) as (free, throttle):
        groups = sorted(p.name for p in tmp_path.iterdir())
        assert [g.rsplit("-", 1)[1] for g in groups] == ["free", "slowed"]
        free_group, slowed_group = (tmp_path / g for g in groups)
        assert (free_group / "cpu.cfs_quota_us").read_text() == "-1"
        assert (slowed_group / "cpu.cfs_quota_us").read_text() == "50000"
        assert (slowed_group / "cpu.cfs_period_us").read_text() == "100000"
        assert not throttle.devtools and "50000 us per 100000 us" in throttle.describe()
        assert free["executable_path"] != throttle.launch["executable_path"]
    assert list(tmp_path.iterdir()) == []  # the groups are removed after
    assert not Path(throttle.launch["executable_path"]).exists()  # and the wrappers


def test_a_shorter_period_keeps_the_rate(tmp_path: Path) -> None:
    """The same 4x with a 10 ms period: the quota's waits are shorter, the share the same."""
    with whole_browser(4, "/bin/echo", 2, root=tmp_path, period_us=10_000) as (_, throttle):
        slowed_group = next(p for p in tmp_path.iterdir() if p.name.endswith("slowed"))
        assert (slowed_group / "cpu.cfs_quota_us").read_text() == "5000"
        assert (slowed_group / "cpu.cfs_period_us").read_text() == "10000"
        assert "5000 us per 10000 us (0.50 of" in throttle.describe()


def test_the_wrapper_joins_its_group_then_becomes_the_browser(tmp_path: Path) -> None:
    with whole_browser(4, "/bin/echo", 2, root=tmp_path) as (_, throttle):
        wrapper = throttle.launch["executable_path"]
        run = subprocess.run([wrapper, "--flag", "a b"], capture_output=True, text=True)
        assert run.returncode == 0
        assert run.stdout == "--flag a b\n"  # every argument handed on as it was
        (slowed,) = [p for p in tmp_path.iterdir() if p.name.endswith("-slowed")]
        pid = int((slowed / "cgroup.procs").read_text())
        assert pid > 0 and pid != os.getpid()  # the wrapper's own process, which became echo


def test_no_writable_cgroup_falls_back_to_devtools_and_says_so(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-controller"
    with whole_browser(4, "/bin/echo", 2, root=missing) as (free, throttle):
        assert throttle.devtools
        assert "DevTools" in throttle.describe() and "main thread only" in throttle.describe()
        assert "chromium-in" not in str(free.get("executable_path", ""))
        assert "chromium-in" not in str(throttle.launch.get("executable_path", ""))
    assert not missing.exists()
