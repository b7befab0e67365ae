"""The ESP board as a pure SVG tree, drawn from one seat's view (never from the state itself).

Pointy-top hexes; the viewBox is the bounding box of what is drawn plus a margin, so the board
grows and re-centres as the group grows. Every cell is a focusable group carrying its cell in
`data-cell`; one delegated listener reads it. A symbol-down tile shows a plain back; its owner's
view adds a small mark of the symbol underneath; no other view has it to draw.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from parlour.games.esp.hexgrid import Cell, neighbours
from parlour.games.esp.options import SEAT_COLOURS
from parlour.games.esp.views import EspPublicView, EspTile
from parlour.ui.tree import Node, s
from parlour.ui.zener_art import symbol_use

SIZE = 30.0  # centre to corner
MARGIN = 12.0
COLOURS = SEAT_COLOURS  # the seats' colours, declared with the set-up (games/esp/options.py)


@dataclass
class BoardMarks:
    """What the play screen wants emphasised: nothing here is a rule, only highlighting."""

    targets: Collection[Cell] = ()  # cells a click would place or land on
    selected: Cell | None = None
    flippable: Cell | None = None
    focus: Cell | None = None
    revealed: Mapping[Cell, str] = field(default_factory=dict)  # opened at the end of the game


def centre(cell: Cell) -> tuple[float, float]:
    q, r = cell
    return (SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r)


def _hexagon(radius: float) -> str:
    points = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        points.append(f"{radius * math.cos(angle):.2f},{radius * math.sin(angle):.2f}")
    return " ".join(points)


HEX = _hexagon(SIZE - 1.5)
INNER = _hexagon(SIZE * 0.55)


def cell_key(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_key(text: str | None) -> Cell | None:
    try:
        q, r = (int(x) for x in (text or "").split(","))
    except ValueError:
        return None
    return (q, r)


def _symbol(name: str, scale: float, css: str) -> Node:
    half = SIZE * scale
    return symbol_use(name, -half, -half, 2 * half, css)


def _tile(tile: EspTile, viewer: int | None, hidden: Mapping[str, str], marks: BoardMarks) -> Node:
    cell = (tile["cell"][0], tile["cell"][1])
    key = cell_key(cell)
    owner = tile["owner"]
    colour = COLOURS[owner]
    classes = ["cell", "tile", f"seat-{owner}", tile["face"]]
    children: list[Node] = [s("polygon", {"points": HEX, "class": "hex"})]
    if tile["face"] == "up":
        children.append(_symbol(tile["symbol"], 0.52, "symbol"))
        label = f"{colour} {tile['symbol']}, symbol-up"
    else:
        children.append(s("polygon", {"points": INNER, "class": "back"}))
        label = f"{colour} tile, symbol-down"
        if owner == viewer and key in hidden:
            children.append(_symbol(hidden[key], 0.3, "mark"))
            label += f" (your {hidden[key]})"
        elif cell in marks.revealed:
            children.append(_symbol(marks.revealed[cell], 0.4, "mark revealed"))
            label += f", was {marks.revealed[cell]}"
    if cell == marks.selected:
        classes.append("selected")
    if cell in marks.targets:
        classes.append("target")
    if cell == marks.flippable:
        classes.append("flippable")
    return _group(cell, classes, label, children)


def _empty(cell: Cell, marks: BoardMarks) -> Node:
    classes = ["cell", "empty"]
    label = f"empty cell {cell_key(cell)}"
    if cell in marks.targets:
        classes.append("target")
        label += ", a legal target"
    return _group(cell, classes, label, [s("polygon", {"points": HEX, "class": "hex"})])


def _group(cell: Cell, classes: list[str], label: str, children: list[Node]) -> Node:
    x, y = centre(cell)
    return s(
        "g",
        {
            "class": " ".join(classes),
            "data-cell": cell_key(cell),
            "transform": f"translate({x:.2f} {y:.2f})",
            "tabindex": "0",
            "role": "button",
            "aria-label": label,
        },
        s("title", None, label),
        *children,
    )


def empty_cells_to_draw(occupied: Collection[Cell], targets: Collection[Cell]) -> list[Cell]:
    """The ring of empty cells around the group (the grid players can see), plus any target."""
    ring = {n for c in occupied for n in neighbours(c) if n not in occupied}
    ring |= {c for c in targets if c not in occupied}
    return sorted(ring) if occupied else sorted(set(targets) or {(0, 0)})


def board_tree(view: EspPublicView, viewer: int | None, marks: BoardMarks) -> Node:
    """The whole board for `view` (a seat view, or the public view when `viewer` is None)."""
    hidden = view.get("me", {}).get("hidden", {}) if viewer is not None else {}
    tiles = view["tiles"]
    occupied = {(t["cell"][0], t["cell"][1]) for t in tiles}
    empties = empty_cells_to_draw(occupied, marks.targets)
    in_sets = {(c[0], c[1]) for window in view.get("sets", []) for c in window}
    nodes = [_empty(c, marks) for c in empties]
    nodes += [_tile(t, viewer, hidden, marks) for t in tiles]
    for node in nodes:
        if parse_key(node.attrs["data-cell"]) in in_sets:
            node.attrs["class"] += " in-set"
    lines = [_set_line(window) for window in view.get("sets", [])]
    xs, ys = zip(*(centre(c) for c in occupied | set(empties)), strict=True)
    pad = SIZE + MARGIN
    box = (min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)
    return s(
        "svg",
        {
            "class": "board esp-board",
            "viewBox": " ".join(f"{v:.1f}" for v in box),
            # A small group is drawn at a natural size rather than blown up to the panel.
            "width": f"{box[2] * 1.25:.0f}",
            "role": "group",
            "aria-label": "ESP board",
            "data-tiles": str(len(tiles)),
        },
        *nodes,
        *lines,
    )


def _set_line(window: list[list[int]]) -> Node:
    (x1, y1), (x2, y2) = centre(tuple(window[0])), centre(tuple(window[-1]))
    return s(
        "line",
        {
            "x1": f"{x1:.1f}",
            "y1": f"{y1:.1f}",
            "x2": f"{x2:.1f}",
            "y2": f"{y2:.1f}",
            "class": "set-line",
        },
    )


ARROWS = {
    "ArrowRight": (1.0, 0.0),
    "ArrowLeft": (-1.0, 0.0),
    "ArrowUp": (0.0, -1.0),
    "ArrowDown": (0.0, 1.0),
}


def next_focus(cells: list[Cell], current: Cell | None, key: str) -> Cell | None:
    """The drawn cell nearest to `current` in the arrow's direction (for keyboard play)."""
    if current is None or key not in ARROWS:
        return cells[0] if cells else None
    dx, dy = ARROWS[key]
    x0, y0 = centre(current)
    best, best_score = None, math.inf
    for cell in cells:
        x, y = centre(cell)
        along = (x - x0) * dx + (y - y0) * dy
        across = abs((x - x0) * dy - (y - y0) * dx)
        if along <= 1:
            continue
        score = along + 2 * across
        if score < best_score:
            best, best_score = cell, score
    return best
