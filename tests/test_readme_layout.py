"""The README's "How the code is laid out" names every module, so a newcomer finds each one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def layout() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## How the code is laid out") :]
    return section[: section.index("\n```\n", section.index("```") + 3)]


def test_every_module_of_the_package_and_the_shell_is_named_in_the_layout():
    named = set(re.findall(r"[a-z_]+\.py", layout()))
    modules = [
        p
        for folder in ("py/parlour", "py/shell", "py/ui", "scripts")
        for p in (ROOT / folder).rglob("*.py")
        if p.name != "__init__.py"
    ]
    missing = sorted(str(p.relative_to(ROOT)) for p in modules if p.name not in named)
    assert not missing, f"README's layout does not name: {missing}"
