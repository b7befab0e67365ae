"""ESP's controls beside the board: a draw offered, the tray to place from, the move's choice
(flip the chosen tile, or jump it), and the pass when there is no move; each button's "?"."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.games.esp.hexgrid import Cell
from parlour.games.esp.views import EspOffer, EspPublicView, EspSeatView
from parlour.games.zener import SYMBOLS, Symbol
from parlour.ui.help import help_tip, with_help
from parlour.ui.tree import Node, h
from parlour.ui.zener_art import symbol_icon


@dataclass
class EspSelection:
    """The turn's choices so far: the tray's tile and its face (placing), the board's tile."""

    tray: Symbol | None = None
    face: str = "up"
    cell: Cell | None = None


def pass_controls() -> Node:
    """No legal move: the pass, which is then the only move."""
    return h(
        "section",
        {"class": "controls"},
        h("p", None, "You have no legal move, so you must pass."),
        with_help(
            h(
                "button",
                {"class": "button primary", "data-cmd": "pass", "type": "button"},
                "Pass",
            ),
            "esp-pass",
            "Pass",
            "Ends your turn without a move, which is allowed only when you have none.",
        ),
    )


def draw_offer_controls(view: EspPublicView, offer: EspOffer) -> Node:
    """A draw offered: accept it, or play on."""
    proposer = view["seats"][offer["proposer"]]["name"]
    return h(
        "section",
        {"class": "controls"},
        h("p", None, f"{proposer} offers a draw. Do you accept?"),
        h(
            "div",
            {"class": "choice"},
            with_help(
                h(
                    "button",
                    {
                        "class": "button primary",
                        "data-cmd": "answer-draw",
                        "data-accept": "yes",
                        "type": "button",
                    },
                    "Accept the draw",
                ),
                "esp-accept-draw",
                "Accept the draw",
                "Ends the game as a draw once every other player has accepted too.",
            ),
            with_help(
                h(
                    "button",
                    {
                        "class": "button",
                        "data-cmd": "answer-draw",
                        "data-accept": "no",
                        "type": "button",
                    },
                    "Play on",
                ),
                "esp-play-on",
                "Play on",
                "Declines the draw: the game goes on from here.",
            ),
        ),
    )


def tray_controls(sel: EspSelection, view: EspSeatView) -> Node:
    """The placement's controls: the tiles of the tray, symbol up or down, and what to do next."""
    tray = view["me"]["tray"]
    buttons = []
    for symbol in SYMBOLS:
        count = tray.count(symbol.value)
        if not count:
            continue
        pressed = "true" if sel.tray == symbol else "false"
        buttons.append(
            h(
                "button",
                {
                    "class": "tray-tile",
                    "data-cmd": "tray",
                    "data-symbol": symbol.value,
                    "aria-pressed": pressed,
                    "type": "button",
                    "aria-label": f"{symbol.value}, {count} left",
                },
                symbol_icon(symbol.value),
                h("span", {"class": "count"}, f"×{count}"),
            )
        )
    faces = [
        with_help(
            h(
                "button",
                {
                    "class": "button small",
                    "data-cmd": "face",
                    "data-face": face,
                    "aria-pressed": "true" if sel.face == face else "false",
                    "type": "button",
                },
                label,
            ),
            f"esp-face-{face}",
            label,
            text,
        )
        for face, label, text in (
            (
                "up",
                "Symbol up",
                "Places the tile showing its symbol: everyone sees it, and it can jump later.",
            ),
            (
                "down",
                "Symbol down",
                "Places the tile hiding its symbol from the others; it cannot jump until "
                "you flip it.",
            ),
        )
    ]
    hint = (
        "Now choose a highlighted cell."
        if sel.tray
        else "Choose a tile from your tray, then symbol up or down."
    )
    return h(
        "section",
        {"class": "controls", "aria-label": "Your tray"},
        h(
            "h3",
            None,
            "Your tray",
            help_tip(
                "esp-tray",
                "Your tray",
                "Your tiles still to place: choose one, then symbol up or down, then a "
                "highlighted cell on the board.",
            ),
        ),
        h("div", {"class": "tray", "role": "group", "aria-label": "Tiles to place"}, *buttons),
        h("div", {"class": "choice", "role": "group", "aria-label": "Face"}, *faces),
        h("p", {"class": "hint"}, hint),
    )


def move_controls(flipping: bool, jumping: bool) -> Node:
    """The moves' controls: flip the chosen tile (`flipping`: it is yours and symbol-down), or
    where to jump (`jumping`: it can jump), or which tile to choose."""
    if flipping:
        body = [
            h("p", None, "This tile is symbol-down. Flip it to show its symbol?"),
            with_help(
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "flip", "type": "button"},
                    "Flip this tile",
                ),
                "esp-flip",
                "Flip this tile",
                "Turns the chosen tile symbol-up for good, so everyone sees its symbol; "
                "that is your move.",
            ),
        ]
    elif jumping:
        body = [h("p", None, "Choose where to jump: the highlighted cells.")]
    else:
        body = [
            h(
                "p",
                None,
                "Choose one of your tiles: flip a symbol-down tile, or jump a "
                "symbol-up tile over its neighbours.",
            )
        ]
    return h("section", {"class": "controls"}, *body)
