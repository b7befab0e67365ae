"""ESP's board stays inside its own drawing (issue 39: at 360 px the winning line ran off the
board's frame): over whole games, 2 to 4 players, seen by each seat to move and at the end,
every element drawn (tiles, rings, badges, symbols, the winning set's line and the last jump's
path, each with the widest stroke the stylesheet gives a board element) lies inside the SVG's
viewBox, so nothing the board draws is ever outside the box the page fits into its frame."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlour.fair.rng import Rng
from parlour.match import bot_seats
from parlour.ui.play import PlaySession
from parlour.ui.tree import Node
from tests.ui.test_bot_seats import session as seated

CSS = Path(__file__).resolve().parents[2] / "assets" / "parlour.css"


def widest_stroke() -> float:
    """The widest stroke-width any `.esp-board` rule of the stylesheet draws with."""
    rules = re.findall(r"\.esp-board[^{}]*\{([^}]*)\}", CSS.read_text())
    widths = [float(w) for rule in rules for w in re.findall(r"stroke-width:\s*([\d.]+)", rule)]
    assert widths
    return max(widths)


def _numbers(text: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", text)]


def extents(node: Node, dx: float = 0.0, dy: float = 0.0, pad: float = 0.0):
    """Every drawn element's box (left, top, right, bottom) in the SVG's units, its stroke's
    half-width `pad` around it, with its groups' translations applied."""
    move = re.fullmatch(r"translate\(([-\d.]+)[ ,]+([-\d.]+)\)", node.attrs.get("transform", ""))
    if move:
        dx, dy = dx + float(move[1]), dy + float(move[2])
    a = node.attrs
    if node.tag in ("polygon", "polyline"):
        xs, ys = _numbers(a["points"])[0::2], _numbers(a["points"])[1::2]
        yield node, (min(xs) + dx - pad, min(ys) + dy - pad, max(xs) + dx + pad, max(ys) + dy + pad)
    elif node.tag == "line":
        xs = [float(a["x1"]) + dx, float(a["x2"]) + dx]
        ys = [float(a["y1"]) + dy, float(a["y2"]) + dy]
        yield node, (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
    elif node.tag == "circle":
        x, y, r = float(a["cx"]) + dx, float(a["cy"]) + dy, float(a["r"]) + pad
        yield node, (x - r, y - r, x + r, y + r)
    elif node.tag in ("use", "rect"):
        x, y = float(a.get("x", 0)) + dx, float(a.get("y", 0)) + dy
        yield node, (x, y, x + float(a["width"]), y + float(a["height"]))
    for child in node.children:
        if isinstance(child, Node):
            yield from extents(child, dx, dy, pad)


def outside(svg: Node, pad: float) -> list[str]:
    left, top, width, height = _numbers(svg.attrs["viewBox"])
    right, bottom = left + width, top + height
    return [
        f"{n.tag}.{n.attrs.get('class', '')} {box} not in {svg.attrs['viewBox']}"
        for n, box in extents(svg, pad=pad)
        if box[0] < left or box[1] < top or box[2] > right or box[3] > bottom
    ]


def boards(s: PlaySession) -> list[Node]:
    return [
        n
        for n in s.render().walk()
        if isinstance(n, Node) and n.tag == "svg" and "esp-board" in n.attrs.get("class", "")
    ]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_element_of_the_board_lies_inside_its_viewbox_in_whole_games(seats):
    pad = widest_stroke() / 2
    names = ("Ada", "Bo", "Cy", "Di")[:seats]
    sets = 0
    for game in range(3):
        s = seated("esp", names, {})
        rng = Rng(b"esp extent %d %d" % (seats, game))
        for _ in range(400):
            if s.viewer is None and s.table.match.result() is None:
                s.handle({"cmd": "take-device"})
            drawn = boards(s)
            assert drawn or s.table.match.result() is not None
            for svg in drawn:
                assert outside(svg, pad) == []
            if s.table.match.result() is not None:
                sets += any(
                    n.attrs.get("class") == "set-line"
                    for svg in drawn
                    for n in svg.walk()
                    if isinstance(n, Node)
                )
                break
            s.act(bot_seats.decide(s.table, s.viewer, "easy", rng.read(32)).choice)
    assert sets >= 1, "no game ended with a winning set drawn"


def anchor_box(canvas: Node, svg: Node) -> tuple[float, float, float, float]:
    """The box a zoomed frame first scrolls to (`canvas_tree`'s anchor), in the SVG's units."""
    left, top, width, height = _numbers(svg.attrs["viewBox"])
    anchor = canvas.find_all(data_role="scroll-anchor")[0].attrs
    x = left + float(anchor["data-left"]) / 100 * width
    y = top + float(anchor["data-top"]) / 100 * height
    return (
        x,
        y,
        x + float(anchor["data-width"]) / 100 * width,
        y + float(anchor["data-height"]) / 100 * height,
    )


def test_at_the_end_the_frame_first_shows_the_whole_winning_line():
    """Issue 39: on a phone the board is larger than its frame, which first scrolls to its
    anchor; at the end the anchor held the last move's cell only, so the winning line ran off
    the frame's edge. It holds every winning line whole, stroke included."""
    pad = widest_stroke() / 2
    ended = 0
    for game in range(6):
        s = seated("esp", ("Ada", "Bo"), {})
        rng = Rng(b"esp anchor %d" % game)
        while s.table.match.result() is None:
            if s.viewer is None:
                s.handle({"cmd": "take-device"})
            s.act(bot_seats.decide(s.table, s.viewer, "easy", rng.read(32)).choice)
        canvas = s.render().find_all(**{"class": "esp-canvas"})[0]
        svg = boards(s)[0]
        lines = [(n, box) for n, box in extents(svg, pad=pad) if n.attrs.get("class") == "set-line"]
        if not lines:
            continue  # a draw
        ended += 1
        a = anchor_box(canvas, svg)
        for _line, (left, top, right, bottom) in lines:
            assert a[0] <= left and a[1] <= top and right <= a[2] and bottom <= a[3], (a, _line)
    assert ended >= 3
