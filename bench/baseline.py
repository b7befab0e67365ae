"""Earlier code to measure against in the same run: a checkout of a git revision, built.

The checkout is a detached git worktree in the system's temporary folder, with this checkout's
node_modules (the same pinned runtime) and its own build of the zipped package; it is served by
this checkout's server (`SiteServer(root)`), so only the app differs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def baseline_checkout(revision: str) -> Path:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", revision], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    if not commit:
        raise SystemExit(f"no git revision {revision!r} here")
    target = Path(tempfile.gettempdir()) / f"psi-parlour-baseline-{commit}"
    if not target.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(target), commit], cwd=ROOT, check=True
        )
    modules = target / "node_modules"
    if not modules.exists():
        os.symlink(ROOT / "node_modules", modules)
    subprocess.run([sys.executable, "-m", "scripts.build"], cwd=target, check=True)
    return target
