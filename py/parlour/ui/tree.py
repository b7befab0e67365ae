"""A pure description of DOM: (tag, attributes, children), built by plain functions of a view.

Why: screens and boards are then testable in CPython (what would be in the DOM is inspectable,
which is how the tests prove no secret of another seat is there). A tree crosses to the page as
its HTML (`to_html`), which the page's main thread gives to a region's innerHTML. Text is always
text: `to_html` escapes every text and attribute, so a player's name can never become markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html import escape

Child = "Node | str"


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)
    svg: bool = False

    def walk(self) -> Iterator[Node | str]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()
            else:
                yield child

    def find_all(self, **attrs: str) -> list[Node]:
        """Descendants whose attributes include all of `attrs` (underscores read as dashes)."""
        wanted = {k.replace("_", "-"): v for k, v in attrs.items()}
        return [
            n
            for n in self.walk()
            if isinstance(n, Node) and all(n.attrs.get(k) == v for k, v in wanted.items())
        ]

    def text(self) -> str:
        return "".join(c for c in self.walk() if isinstance(c, str))


def _attrs(attrs: dict[str, object] | None) -> dict[str, str]:
    out = {}
    for key, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        out[name] = "" if value is True else str(value)
    return out


def _children(children: Iterable[object]) -> list[Node | str]:
    out: list[Node | str] = []
    for child in children:
        if child is None or child is False:
            continue
        if isinstance(child, (Node, str)):
            out.append(child)
        elif isinstance(child, (list, tuple)):
            out.extend(_children(child))
        else:
            out.append(str(child))
    return out


def h(tag: str, attrs: dict[str, object] | None = None, *children: object) -> Node:
    """An HTML element. Attribute names: class_ -> class, aria_label -> aria-label."""
    return Node(tag, _attrs(attrs), _children(children))


def s(tag: str, attrs: dict[str, object] | None = None, *children: object) -> Node:
    """An SVG element (created in the SVG namespace by the adapter)."""
    node = Node(tag, _attrs(attrs), _children(children), svg=True)
    return node


def fragment(*children: object) -> Node:
    """Children with no element around them: the content of a region (a <select>'s options)."""
    return Node("", {}, _children(children))


VOID = {"br", "hr", "img", "input", "meta", "link"}


def to_html(node: Node | str) -> str:
    """Serialise a tree (for tests and for inspecting what a seat's DOM would hold)."""
    if isinstance(node, str):
        return escape(node, quote=False)
    if not node.tag:
        return "".join(to_html(c) for c in node.children)
    attrs = "".join(f' {k}="{escape(v)}"' for k, v in node.attrs.items())
    if node.tag in VOID:
        return f"<{node.tag}{attrs}>"
    inner = "".join(to_html(c) for c in node.children)
    return f"<{node.tag}{attrs}>{inner}</{node.tag}>"
