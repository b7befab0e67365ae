"""The main thread's modules (py/shell/), tested under the real MicroPython that runs them in
the page: the PyScript build from npm, loaded in Node by tests/shell/mpy_run.mjs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
RUNTIME = ROOT / "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"
SUITES = sorted(p.name for p in HERE.glob("mpy_test_*.py"))


def test_there_are_suites_to_run():
    assert len(SUITES) >= 4


@pytest.mark.parametrize("suite", SUITES)
def test_under_micropython(suite):
    node = shutil.which("node")
    assert node, "Node is needed to run MicroPython (see README, 'The two commands')"
    assert RUNTIME.exists(), "the runtime is missing: run `npm ci` (make unit does)"
    run = subprocess.run(
        [node, str(HERE / "mpy_run.mjs"), str(HERE / suite)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0 and "FAIL" not in report, report
    assert report.count("ok ") >= 1, report


def test_the_page_keeps_an_answers_bulk_and_gives_it_back_whole():
    """assets/answers.mjs, the page's reading of the worker's answers (tests/shell/answers_test.mjs:
    its bulk kept aside by name, given back whole, let go once the answer is applied)."""
    node = shutil.which("node")
    assert node, "Node is needed (see README, 'The two commands')"
    run = subprocess.run(
        [node, str(HERE / "answers_test.mjs")], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr
