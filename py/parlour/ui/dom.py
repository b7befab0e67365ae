"""The one adapter from a pure tree to real DOM elements (browser only).

A tree becomes DOM in one call: its HTML (`tree.to_html`) is given to the container's
innerHTML. Building it node by node cost one call across the Python-JavaScript bridge per
element and per attribute, about a thousand for a Psi Squad sheet, most of a move's time.
Every text and attribute value is escaped by `to_html`, so a name or a peer's text is parsed
back as exactly that text and can never become markup (tests/ui/test_tree_html.py); the HTML
parser makes SVG elements inside <svg> itself, with their camelCase names and attributes.
"""

from __future__ import annotations

from pyodide.ffi import jsnull
from pyscript import document

from parlour.ui.tree import Node, to_html


def value(x):
    """A JS result as Python: JavaScript's null arrives as `jsnull`, which becomes None."""
    return None if x is None or x is jsnull else x


def focus_key(element) -> str | None:
    """A stable name for the focused control, to give focus back after a re-render."""
    if value(element) is None or not hasattr(element, "getAttribute"):
        return None
    parts = []
    for attr in ("data-cell", "data-symbol", "data-cmd", "data-slot", "data-card", "data-name"):
        found = value(element.getAttribute(attr))
        if found:
            quoted = str(found).replace("\\", "\\\\").replace('"', '\\"')
            parts.append(f'[{attr}="{quoted}"]')
    return "".join(parts) or None


def render(container, node: Node) -> None:
    """Replace the container's content with `node`, keeping keyboard focus where it was."""
    active = value(document.activeElement)
    key = focus_key(active) if active is not None and container.contains(active) else None
    container.innerHTML = to_html(node)
    target = value(container.querySelector(key)) if key else None
    if target is None:
        target = value(container.querySelector("[autofocus]"))
    if target is not None:
        target.focus()
