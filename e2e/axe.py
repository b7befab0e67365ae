"""axe-core in the real page: inject the pinned copy, run it, keep what a person would trip on.

axe-core is a devDependency of package.json, exact-pinned, and is read from node_modules here: it
is never published (scripts/build.py's published_files has no node_modules) and never reaches a
reader's page. It is injected with Playwright's evaluate, which the page's Content-Security-Policy
does not govern, so the page is tested with its real CSP.

Only "serious" and "critical" violations fail a test (issue 17); the rest are axe's advice.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
FAILING = ("serious", "critical")

# Every rule axe runs by default (WCAG 2.0-2.2 A and AA, and its best practices); no rule is
# switched off. The result is trimmed in the page: a failing run's full JSON is large.
RUN = """
async (context) => {
  const result = await axe.run(context || document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({
      impact: n.impact, target: n.target.join(" "), html: n.html.slice(0, 200),
      summary: (n.failureSummary || "").slice(0, 400),
    })),
  }));
}
"""


def source() -> str:
    """The pinned axe-core, or a sentence on how to get it (a missing file is a set-up fault)."""
    if not AXE_JS.is_file():
        raise AssertionError(
            f"{AXE_JS.relative_to(ROOT)} is missing: run `npm ci` (make test does it), which "
            "installs the devDependency axe-core pinned in package.json"
        )
    return AXE_JS.read_text(encoding="utf-8")


def pinned_version() -> str:
    """The version package.json pins, to check the copy in node_modules is that one."""
    manifest = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    return str(manifest["devDependencies"]["axe-core"])


def inject(page) -> None:
    """Put axe on the page unless it is there already (a navigation within the page keeps it)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(source() + "\n;undefined")


# Violations inside a game's own board or controls, found while other work was changing those
# modules (issue 17): each is tolerated here, by rule and by a piece of the failing element's
# HTML, until its fix lands; then its line goes. `AXE_STRICT=1` tolerates none of them.
KNOWN: tuple[tuple[str, str, str], ...] = ()


def tolerated(rule: str, html: str) -> bool:
    if os.environ.get("AXE_STRICT"):
        return False
    return any(rule == known and piece in html for known, piece, _ in KNOWN)


def violations(page, context: str | None = None) -> list[dict]:
    """Every serious or critical violation on what the page shows now (hidden screens are
    skipped by axe itself), each with the nodes that fail, less the KNOWN ones."""
    inject(page)
    found = page.evaluate(RUN, context)
    kept = []
    for v in found:
        nodes = [
            n
            for n in v["nodes"]
            if (n["impact"] or v["impact"]) in FAILING and not tolerated(v["id"], n["html"])
        ]
        if nodes:
            kept.append({**v, "nodes": nodes})
    return kept


def describe(found: list[dict], where: str) -> str:
    """The violations as lines a person can act on: rule, what it asks, which elements."""
    lines = []
    for v in found:
        lines.append(f"{where}: {v['id']} ({v['impact']}): {v['help']}")
        for n in v["nodes"][:6]:
            lines.append(f"    {n['target']}  {n['html'][:120]}")
            lines.append(f"      {n['summary'].splitlines()[-1] if n['summary'] else ''}")
        if len(v["nodes"]) > 6:
            lines.append(f"    ... and {len(v['nodes']) - 6} more")
    return "\n".join(lines)


class AxeLog:
    """The violations met over a journey: each screen checked adds its own, and the test fails
    once at the end with all of them (one run shows every fault, not the first)."""

    def __init__(self, page, label: str) -> None:
        self.page, self.label = page, label
        self.found: list[str] = []
        self.checked: list[str] = []

    def check(self, where: str, context: str | None = None) -> None:
        name = f"{self.label} {where}"
        self.checked.append(name)
        bad = violations(self.page, context)
        if bad:
            self.found.append(describe(bad, name))

    def assert_clean(self) -> None:
        assert not self.found, "axe-core found serious or critical violations:\n" + "\n".join(
            self.found
        )
