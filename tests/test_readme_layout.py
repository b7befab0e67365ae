"""The README's "How the code is laid out" names every module, so a newcomer finds each one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


PERFORMANCE = ROOT / "docs" / "performance.md"
PERFORMANCE_MOST_BYTES = 20_000  # the figures now and how to measure them; runs go to the history


def _cited_sections(name: str) -> set[tuple[str, str]]:
    """Every `docs/<name>, "Section"` a doc, the README or a script cites: (citing file, title)."""
    cite = re.compile(re.escape(name) + r"\)?`?,\s+\"([^\"]+)\"")
    found = set()
    for path in [
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "scripts").glob("*.py"),
    ]:
        for title in cite.findall(path.read_text(encoding="utf-8")):
            found.add((path.name, " ".join(title.split())))
    return found


def test_performance_md_holds_the_figures_now_and_the_history_the_runs():
    """docs/performance.md grew past 80 KB of dated runs: it holds the figures of record and how
    to measure them, and docs/performance-history.md every run, none lost."""
    assert len(PERFORMANCE.read_bytes()) < PERFORMANCE_MOST_BYTES
    history = (ROOT / "docs" / "performance-history.md").read_text(encoding="utf-8")
    for run in ("| 2026-11-22 | 2-core x86_64 VM, Chromium 156, 5 loads each | 148 ms", "sw3cr"):
        assert run in history


@pytest.mark.parametrize("name", ["performance.md", "performance-history.md"])
def test_every_section_cited_in_the_performance_docs_is_there(name):
    """A citation such as (docs/performance.md, "Return visits") names a section that exists:
    its title, or the start of one."""
    titles = re.findall(r"^#+ (.+)$", (ROOT / "docs" / name).read_text(encoding="utf-8"), re.M)
    missing = sorted(
        (by, title)
        for by, title in _cited_sections(name)
        if not any(
            t == title or t.startswith(title + ":") or t.startswith(title + " (") for t in titles
        )
    )
    assert missing == []
