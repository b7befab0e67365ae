"""The ESP board as a pure SVG tree, drawn from one seat's view (never from the state itself).

Pointy-top hexes; the viewBox is the bounding box of what is drawn plus a margin, so the board
grows and re-centres as the group grows. Every cell is a focusable group carrying its cell in
`data-cell`; one delegated listener reads it. A symbol-down tile shows a plain back; its owner's
view adds a mark of the symbol underneath; no other view has it to draw.

Cells are named in words from the centre (the cell of the first tile, which never moves): "the
centre", "2 east", "2 east, 1 south-east" (so many steps one way, then so many the next way
clockwise). The rules page explains it; every cell's accessible name starts with it, and a
highlight is never colour alone: each has its shape (a ring, a dashed ring, a badge, a line)
and its words in the cell's name.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from parlour.games.esp.hexgrid import DIRECTION_NAMES, DIRECTIONS, Cell, neighbours
from parlour.games.esp.options import SEAT_COLOURS
from parlour.games.esp.views import EspPublicView, EspTile
from parlour.ui.tree import Node, h, s
from parlour.ui.zener_art import symbol_use
from parlour.words import possessive

SIZE = 30.0  # centre to corner
MARGIN = 12.0
COLOURS = SEAT_COLOURS  # the seats' colours, declared with the set-up (games/esp/options.py)
NATURAL = 1.25  # CSS px per unit when the whole board is fitted to its frame (at most)
# Zoom levels, in CSS px per unit; None fits the whole board in its frame. At 1.0 a cell's box
# is 49 x 57 px: a tap target over 44 px. The default is that level.
ZOOMS: tuple[float | None, ...] = (None, 1.0, 1.3, 1.7)
DEFAULT_ZOOM = 1
ZOOM_NAMES = ("the whole board", "normal", "large", "largest")


@dataclass
class BoardMarks:
    """What the play screen wants emphasised: nothing here is a rule, only highlighting."""

    targets: Collection[Cell] = ()  # cells a click would place or land on
    selected: Cell | None = None
    flippable: Cell | None = None
    focus: Cell | None = None  # the board's one Tab stop (the arrows move from it)
    revealed: Mapping[Cell, str] = field(default_factory=dict)  # opened at the end of the game
    last: Cell | None = None  # the tile the last move placed, flipped or jumped
    last_from: Cell | None = None  # the cell a jump left
    last_words: str = ""  # what the last move did to `last` ("Bo placed this tile")


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
INNER = _hexagon(SIZE * 0.62)
OUTER_RING = _hexagon(SIZE - 5.5)  # selection, the winning set: inside the tile's edge
INNER_RING = _hexagon(SIZE - 10.5)  # the last move: inside those, so both can show


def cell_key(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_key(text: str | None) -> Cell | None:
    try:
        q, r = (int(x) for x in (text or "").split(","))
    except ValueError:
        return None
    return (q, r)


def _steps(n: int, direction: int) -> str:
    return f"{n} {DIRECTION_NAMES[direction]}"


def cell_name(cell: Cell) -> str:
    """The cell in words from the centre: "the centre", "2 east", "2 east, 1 south-east".

    Every other cell is reached by walking some steps (at least one) in one of the six
    directions, then some (maybe none) in the next direction clockwise; that walk is unique.
    """
    q, r = cell
    if cell == (0, 0):
        return "the centre"
    for d in range(6):
        (aq, ar), (bq, br) = DIRECTIONS[d], DIRECTIONS[(d + 1) % 6]
        det = aq * br - ar * bq
        a, b = (q * br - r * bq) // det, (aq * r - ar * q) // det
        if a >= 1 and b >= 0 and (a * aq + b * bq, a * ar + b * br) == cell:
            return _steps(a, d) if b == 0 else f"{_steps(a, d)}, {_steps(b, (d + 1) % 6)}"
    raise AssertionError(f"no walk to {cell}")  # every cell has one


def _symbol(name: str, scale: float, css: str) -> Node:
    half = SIZE * scale
    return symbol_use(name, -half, -half, 2 * half, css)


def _ring(points: str, kind: str) -> list[Node]:
    """A highlight ring: a dark halo under a bright line, so it shows on any seat's colour."""
    return [
        s("polygon", {"points": points, "class": f"ring-halo {kind}-halo"}),
        s("polygon", {"points": points, "class": f"ring {kind}-ring"}),
    ]


def _badge() -> Node:
    """The last move's badge: a small disc at the tile's top corner (a shape, not a colour)."""
    return s("circle", {"cx": "0", "cy": f"{-SIZE + 7:.1f}", "r": "4.5", "class": "last-badge"})


def _tile(
    tile: EspTile,
    viewer: int | None,
    hidden: Mapping[str, str],
    marks: BoardMarks,
    names: list[str],
    in_sets: Collection[Cell],
) -> Node:
    cell = (tile["cell"][0], tile["cell"][1])
    key = cell_key(cell)
    owner = tile["owner"]
    whose = possessive(names[owner] if owner < len(names) else COLOURS[owner])
    classes = ["cell", "tile", f"seat-{owner}", tile["face"]]
    children: list[Node] = [s("polygon", {"points": HEX, "class": "hex"}), _pips(owner)]
    if tile["face"] == "up":
        children.append(_symbol(tile["symbol"], 0.52, "symbol"))
        what = f"{whose} {tile['symbol']}, symbol-up"
    else:
        children.append(s("polygon", {"points": INNER, "class": "back"}))
        what = f"{whose} tile, symbol-down"
        if owner == viewer and key in hidden:
            children.append(_symbol(hidden[key], 0.46, "mark"))
            what += f" (yours: a {hidden[key]})"
        elif cell in marks.revealed:
            children.append(_symbol(marks.revealed[cell], 0.46, "mark revealed"))
            what += f", it was a {marks.revealed[cell]}"
    notes = []
    if cell == marks.selected:
        classes.append("selected")
        children += _ring(OUTER_RING, "select")
        notes.append("chosen")
    if cell in marks.targets:
        classes.append("target")
        notes.append("a legal target")
    if cell == marks.flippable:
        classes.append("flippable")
    if cell == marks.last:
        classes.append("last")
        children += [*_ring(INNER_RING, "last"), _badge()]
        notes.append(marks.last_words or "the last move")
    if cell in in_sets:
        classes.append("in-set")
        children += _ring(OUTER_RING, "set")
        notes.append("in the winning set")
    label = "; ".join([f"{cell_name(cell)}: {what}", *notes])
    return _group(cell, classes, label, children)


def _pips(owner: int) -> Node:
    """The owner's mark beside its colour: one pip for the first seat, two for the second...
    (the seats panel shows the same), so whose tile it is never rests on colour alone."""
    count = owner + 1
    dots = [
        s("circle", {"cx": f"{(i - (count - 1) / 2) * 5:.1f}", "cy": "22.5", "r": "1.7"})
        for i in range(count)
    ]
    return s("g", {"class": "pips", "aria-hidden": "true"}, *dots)


def _empty(cell: Cell, marks: BoardMarks) -> Node:
    classes = ["cell", "empty"]
    children = [s("polygon", {"points": HEX, "class": "hex"})]
    notes = []
    if cell in marks.targets:
        classes.append("target")
        children.append(s("circle", {"cx": "0", "cy": "0", "r": "5", "class": "target-dot"}))
        notes.append("a legal target")
    if cell == marks.last_from:
        classes.append("last-from")
        children += _ring(INNER_RING, "from")
        notes.append("the last move jumped from here")
    label = "; ".join([f"{cell_name(cell)}: empty", *notes])
    return _group(cell, classes, label, children)


def _group(cell: Cell, classes: list[str], label: str, children: list[Node]) -> Node:
    x, y = centre(cell)
    return s(
        "g",
        {
            "class": " ".join(classes),
            "data-cell": cell_key(cell),
            "transform": f"translate({x:.2f} {y:.2f})",
            "tabindex": "-1",
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


def board_tree(
    view: EspPublicView,
    viewer: int | None,
    marks: BoardMarks,
    zoom: float | None = None,
    auto: bool = False,
) -> Node:
    """The whole board for `view` (a seat view, or the public view when `viewer` is None), at
    `zoom` CSS px per unit (None: fitted to its frame); `auto`: fitted all the same on a wide
    screen (the CSS decides, the worker knows no screen)."""
    me = cast("Mapping[str, Any]", view.get("me", {}))  # a seat view's own part
    hidden = me.get("hidden", {}) if viewer is not None else {}
    names = [seat["name"] for seat in view["seats"]]
    tiles = view["tiles"]
    occupied = {(t["cell"][0], t["cell"][1]) for t in tiles}
    if marks.last_from in occupied:
        marks.last_from = None  # only ever drawn on an empty cell
    empties = empty_cells_to_draw(occupied, {*marks.targets, *filter(None, [marks.last_from])})
    in_sets = {(c[0], c[1]) for window in view.get("sets", []) for c in window}
    nodes = [_empty(c, marks) for c in empties]
    nodes += [_tile(t, viewer, hidden, marks, names, in_sets) for t in tiles]
    stop = _one_tab_stop(nodes, marks.focus)
    sets = view.get("sets", [])
    lines = [_set_line(window) for window in sets]
    if marks.last_from is not None and marks.last is not None:
        lines.append(_path(marks.last_from, marks.last))
    xs, ys = zip(*(centre(c) for c in occupied | set(empties)), strict=True)
    pad = SIZE + MARGIN
    box = (min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)
    size = (
        # Fitted: drawn at a natural size at most, never blown up to the panel.
        {"width": f"{box[2] * NATURAL:.0f}"}
        if zoom is None
        # Zoomed: this many px per unit exactly; the frame around it scrolls.
        else {"width": f"{box[2] * zoom:.0f}", "height": f"{box[3] * zoom:.0f}"}
    )
    return s(
        "svg",
        {
            "class": "board esp-board "
            + ("fit" if zoom is None else "zoomed auto" if auto else "zoomed"),
            "viewBox": " ".join(f"{v:.1f}" for v in box),
            **size,
            "role": "group",
            "aria-label": "ESP board",
            "data-tiles": str(len(tiles)),
            "data-stop": stop,
            # the cells the frame first shows whole: the winning sets at the end (their lines
            # run along them), read by `canvas_tree`
            "data-show": " ".join(sorted({cell_key((c[0], c[1])) for w in sets for c in w}))
            or None,
        },
        *nodes,
        *lines,
    )


def _one_tab_stop(nodes: list[Node], focus: Cell | None) -> str:
    """Tab reaches the board once, at `focus` (or the first cell drawn); the arrows go on."""
    keys = [n.attrs["data-cell"] for n in nodes]
    stop = (
        cell_key(focus)
        if focus is not None and cell_key(focus) in keys
        else min(keys, key=lambda k: _distance_from_centre(parse_key(k)))
    )
    for node in nodes:
        if node.attrs["data-cell"] == stop:
            node.attrs["tabindex"] = "0"
            node.attrs["class"] += " stop"
    return stop


def canvas_tree(svg: Node) -> Node:
    """The board and, over it, an invisible box on what matters: a zoomed board's frame first
    scrolls to that box (CSS scroll-initial-target, which an SVG element cannot take), so a
    phone shows the cell that matters (the chosen tile, a target, the last move) or, at the
    end, the whole winning set with its line (issue 39: at 360 px the frame opened on the last
    move, and the winning line ran off the frame's edge)."""
    box = [float(v) for v in svg.attrs["viewBox"].split()]
    keys = svg.attrs.get("data-show", "").split() or [svg.attrs.get("data-stop", "")]
    cells = [c for c in (parse_key(k) for k in keys) if c is not None]
    anchor = None
    if cells:
        xs, ys = zip(*(centre(c) for c in cells), strict=True)
        left, top = (
            (min(xs) - SIZE - box[0]) / box[2] * 100,
            (min(ys) - SIZE - box[1]) / box[3] * 100,
        )
        width = (max(xs) - min(xs) + 2 * SIZE) / box[2] * 100
        height = (max(ys) - min(ys) + 2 * SIZE) / box[3] * 100
        anchor = h(
            "div",
            {
                "class": "scroll-anchor",
                "aria-hidden": "true",
                "data-role": "scroll-anchor",
                # not a style attribute (the page's CSP allows none): the CSS reads these
                "data-left": f"{left:.2f}",
                "data-top": f"{top:.2f}",
                "data-width": f"{width:.2f}",
                "data-height": f"{height:.2f}",
            },
        )
    return h("div", {"class": "esp-canvas"}, svg, anchor)


def _distance_from_centre(cell: Cell | None) -> tuple[int, Cell]:
    if cell is None:
        return (1 << 30, (0, 0))
    q, r = cell
    return ((abs(q) + abs(r) + abs(q + r)) // 2, cell)


def _line(a: Cell, b: Cell, css: str, side: float) -> Node:
    """A line from `a`'s centre to `b`'s, moved `side` units off the centres (to one side of
    the symbols, so it never hides one): negative above, positive below."""
    (x1, y1), (x2, y2) = centre(a), centre(b)
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length  # a normal of the line
    if ny < 0 or (ny == 0 and nx < 0):
        nx, ny = -nx, -ny  # pointing down the page
    dx, dy = nx * side, ny * side
    return s(
        "line",
        {
            "x1": f"{x1 + dx:.1f}",
            "y1": f"{y1 + dy:.1f}",
            "x2": f"{x2 + dx:.1f}",
            "y2": f"{y2 + dy:.1f}",
            "class": css,
        },
    )


SIDE = 20.0  # how far a line runs from the centres: clear of the symbols, inside the hexes


def _set_line(window: list[list[int]]) -> Node:
    """A line along the set, below its symbols."""
    first, last = (window[0][0], window[0][1]), (window[-1][0], window[-1][1])
    return s(
        "g",
        {"class": "set-path", "aria-hidden": "true"},
        _line(first, last, "set-line-halo", SIDE),
        _line(first, last, "set-line", SIDE),
    )


def _path(start: Cell, end: Cell) -> Node:
    """The last jump's path, from the cell it left to where it landed (dashed, above the
    symbols of the tiles jumped over)."""
    return s(
        "g",
        {"class": "last-path", "aria-hidden": "true"},
        _line(start, end, "path-halo", -SIDE),
        _line(start, end, "path-line", -SIDE),
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


def arrow_focus(cell: str, cells: object, key: str) -> str | None:
    """Where an arrow key moves the focus across the ESP board: the selector of the cell."""
    if not isinstance(cells, list):
        return None
    known = [c for c in (parse_key(str(x)) for x in cells[:400]) if c]
    here = parse_key(cell)
    target = next_focus(known, here, key) if here else None
    return f'[data-cell="{target[0]},{target[1]}"]' if target is not None else None
