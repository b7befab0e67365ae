"""The Zener symbols as drawn on every board and card: one sprite, two uses.

The sprite is in the page itself (index.html's `<svg class="sprite">`, symbols `zener-<name>`):
a `<use>` of another file made the browser fetch it from its cache each time one was parsed,
about 5 ms a redraw of ESPEERS at a phone's speed (issue 39). Each symbol is stroked with
currentColor, so whatever draws it colours it by CSS.
"""

from __future__ import annotations

from parlour.ui.tree import Node, s

SPRITE = "#zener-"  # + the symbol's name: an id in the page


def symbol_use(name: str, x: float, y: float, size: float, css: str) -> Node:
    """The symbol as a `size`-square inside an SVG drawing, its top-left corner at (x, y)."""
    return s(
        "use",
        {
            "href": f"{SPRITE}{name}",
            "x": f"{x:.1f}",
            "y": f"{y:.1f}",
            "width": f"{size:.1f}",
            "height": f"{size:.1f}",
            "class": css,
        },
    )


def symbol_icon(name: str) -> Node:
    """The symbol as a small inline icon of its own (trays, buttons)."""
    return s(
        "svg",
        {"viewBox": "0 0 100 100", "class": "icon", "aria-hidden": "true"},
        s("use", {"href": f"{SPRITE}{name}"}),
    )
