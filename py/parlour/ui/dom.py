"""The one adapter from a pure tree to real DOM elements (browser only).

SVG elements are made with createElementNS (pyscript.web makes HTML only); text is set with
createTextNode, never parsed as HTML, so names and peer text cannot become markup.
"""

from __future__ import annotations

from pyodide.ffi import jsnull
from pyscript import document

from parlour.ui.tree import SVG_NS, Node


def value(x):
    """A JS result as Python: JavaScript's null arrives as `jsnull`, which becomes None."""
    return None if x is None or x is jsnull else x


def build(node: Node | str):
    if isinstance(node, str):
        return document.createTextNode(node)
    element = (
        document.createElementNS(SVG_NS, node.tag) if node.svg else document.createElement(node.tag)
    )
    for name, value in node.attrs.items():
        element.setAttribute(name, value)
    for child in node.children:
        element.appendChild(build(child))
    return element


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
    container.replaceChildren(build(node))
    target = value(container.querySelector(key)) if key else None
    if target is None:
        target = value(container.querySelector("[autofocus]"))
    if target is not None:
        target.focus()
