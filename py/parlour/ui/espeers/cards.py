"""ESPEERS cards as pure SVG trees: the face (name, cost, kind, symbol, text, cycling) and the back.

One drawing serves the hand, the stack, the discard piles, the barrier and the deck builder; CSS
sizes and colours it (PK and Impulse each have their own band colour, and say their kind in
words too, so colour is never the only cue). Text is wrapped here, in Python, because SVG text
does not wrap by itself. The words on a card are the game's: its printed text (`Card.printed`)
and its cycling (`words.cycle_text`).
"""

from __future__ import annotations

import textwrap

from parlour.games.espeers.cards import CARDS, Card
from parlour.games.espeers.words import cycle_text
from parlour.ui.tree import Node, s
from parlour.ui.zener_art import symbol_use

WIDTH, HEIGHT = 120, 168
TEXT_CHARS = 19  # characters per line of rules text at the card's text size
NAME_X, NAME_ROOM = 73, 82  # the name is centred right of the cost circle, in 82 units (32–114)
NAME_SIZE = 12  # the name's font size (parlour.css: .card-art .name)
# The advance of each character in the card's bold type, in ems, rounded up (DejaVu Sans Bold,
# the widest of the fonts the page asks for): enough to tell whether a name needs squeezing.
CHAR_EMS = {
    ch: em
    for em, chars in (
        (0.35, " ijl'.,"),
        (0.49, "frtIJ-"),
        (0.6, "csz"),
        (0.69, "aekovxyEFLT"),
        (0.73, "bdghnpquPSYZ"),
        (0.78, "ABCKRVX"),
        (0.85, "DGHNOQU"),
        (1.1, "mwMW"),
    )
    for ch in chars
}


def card_label(card: str) -> str:
    """The card read aloud: what a screen reader says and a tooltip shows."""
    info = CARDS[card]
    return (
        f"{info.name}, {info.kind}, costs {info.cost} PSI, {info.symbol}: {info.printed()} "
        f"({cycle_text(card)})"
    )


def name_width(name: str) -> float:
    """About how wide `name` is drawn in the band, in card units (never much less than it is)."""
    return NAME_SIZE * sum(CHAR_EMS.get(ch, 0.85) for ch in name)


def _name(info: Card) -> Node:
    """The name in the band, squeezed to fit when it would reach the cost circle or the edge."""
    attrs: dict[str, object] = {
        "x": str(NAME_X),
        "y": "17.5",
        "class": "name",
        "text-anchor": "middle",
    }
    if name_width(info.name) > NAME_ROOM:
        attrs.update({"textLength": str(NAME_ROOM), "lengthAdjust": "spacingAndGlyphs"})
    return s("text", attrs, info.name)


def card_face(card: str, css: str = "") -> Node:
    """A card's face as an SVG drawing (aria-hidden: the button around it carries the label)."""
    info = CARDS[card]
    lines = textwrap.wrap(info.printed(), TEXT_CHARS)[:5]
    step = 11.5 if len(lines) <= 4 else 10.2
    top = 103 if len(lines) <= 3 else 100
    text = [
        s("text", {"x": "60", "y": f"{top + i * step:.1f}", "text-anchor": "middle"}, line)
        for i, line in enumerate(lines)
    ]
    kind = info.kind.lower()
    return s(
        "svg",
        {
            "viewBox": f"0 0 {WIDTH} {HEIGHT}",
            "class": f"card-art face {kind} {css}".strip(),
            "aria-hidden": "true",
            "data-card": card,
        },
        s("title", None, card_label(card)),
        s(
            "rect",
            {"class": "frame", "x": "1.5", "y": "1.5", "width": "117", "height": "165", "rx": "9"},
        ),
        s("path", {"class": "band", "d": "M1.5 10.5a9 9 0 0 1 9-9h99a9 9 0 0 1 9 9V27H1.5z"}),
        s("circle", {"class": "cost", "cx": "17", "cy": "14.5", "r": "10.5"}),
        s(
            "text",
            {"class": "cost-n", "x": "17", "y": "19", "text-anchor": "middle"},
            str(info.cost),
        ),
        _name(info),
        s(
            "text",
            {"class": "kind", "x": "60", "y": "38", "text-anchor": "middle"},
            info.kind.upper(),
        ),
        symbol_use(info.symbol, 40, 42, 40, "symbol"),
        s("line", {"class": "rule", "x1": "14", "x2": "106", "y1": "89", "y2": "89"}),
        s("g", {"class": "text"}, *text),
        s(
            "text",
            {"class": "cycle", "x": "60", "y": "159", "text-anchor": "middle"},
            cycle_text(card),
        ),
    )


def card_back(css: str = "") -> Node:
    """The back every hidden card shows: the hands of others, the deck, a barrier."""
    rings = [
        s("circle", {"cx": "60", "cy": "84", "r": str(r), "class": "ring"}) for r in (14, 28, 42)
    ]
    return s(
        "svg",
        {
            "viewBox": f"0 0 {WIDTH} {HEIGHT}",
            "class": f"card-art back {css}".strip(),
            "aria-hidden": "true",
        },
        s(
            "rect",
            {"class": "frame", "x": "1.5", "y": "1.5", "width": "117", "height": "165", "rx": "9"},
        ),
        s(
            "rect",
            {"class": "inset", "x": "9", "y": "9", "width": "102", "height": "150", "rx": "6"},
        ),
        *rings,
        symbol_use("star", 48, 72, 24, "symbol"),
        s("text", {"class": "brand", "x": "60", "y": "146", "text-anchor": "middle"}, "ESPEERS"),
    )
