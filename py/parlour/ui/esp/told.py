"""ESP in words and numbers beside the board: the set that ended the game, whose tiles it holds
and why that decides it (the result's details), and the board told in sentences ("Describe the
board"). Used by esp/screen.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from parlour.games.esp.hexgrid import Cell
from parlour.games.esp.state import EspState
from parlour.games.esp.views import EspPublicView
from parlour.ui.esp.board import cell_name
from parlour.ui.tree import Node, h
from parlour.words import Named, agree, and_list, capital, possessive, theirs


def _tiles(n: int) -> str:
    return "1 tile" if n == 1 else f"{n} tiles"


def set_count_tree(state: EspState, mover: int) -> Node:
    """Whose tiles the set holds, why that decides the game, and the set's tiles in line."""
    union = {c for window in state.sets for c in window}
    counts = Counter(state.board[c].owner for c in union)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    shares = [
        f"{n} of " + (f"{possessive(state.name(s))} tiles" if i == 0 else theirs(state.name(s)))
        for i, (s, n) in enumerate(ordered)
    ]
    if len(state.sets) == 1:
        holds = (
            f"The set holds {and_list(shares)}."
            if len(ordered) > 1
            else f"The set's 5 tiles are all {theirs(state.name(ordered[0][0]))}."
        )
    else:
        holds = (
            f"The {len(state.sets)} sets hold {_tiles(len(union))} between them (a tile in two "
            f"sets counts once): {and_list(shares)}."
        )
    best = ordered[0][1]
    leaders = [s for s, n in ordered if n == best]
    mover_name = state.name(mover)
    if len(ordered) == 1:
        why = ""  # nobody else has a tile in it: nothing to weigh
    elif len(leaders) == 1:
        leader = Named(state.name(leaders[0]))
        why = f"The most tiles in the set win: {leader:in} {agree(leader, 'has')} {best}."
    elif mover in leaders:
        tied = and_list([state.name(s) for s in leaders])
        why = (
            f"{tied} tie with {best} each, and a tie goes to the player who completed the set: "
            f"{mover_name}."
        )
    else:
        tied = and_list([state.name(s) for s in leaders])
        why = (
            f"{tied} tie with {best} each; {mover_name} completed the set with fewer, so they "
            "share the win."
        )
    lines = [
        h(
            "li",
            None,
            ", ".join(
                f"{capital(possessive(state.name(state.board[c].owner)))} {_symbol_of(state, c)}"
                for c in window
            ),
        )
        for window in state.sets
    ]
    return h(
        "div",
        {"class": "esp-count", "data-role": "set-count"},
        h("p", None, holds, f" {why}" if why else None),
        h("p", {"class": "hint"}, "In line, as ringed on the board:"),
        h("ul", {"class": "set-tiles"}, *lines),
    )


def _symbol_of(state: EspState, cell: Cell) -> str:
    symbol = state.board[cell].symbol
    return symbol.value if symbol is not None else "tile"  # a set's tiles are all symbol-up


def _distance(cell: Cell) -> int:
    q, r = cell
    return (abs(q) + abs(r) + abs(q + r)) // 2


def board_sentences(view: EspPublicView, viewer: int | None) -> list[str]:
    """The position in sentences (see `EspScreen.describe_board`)."""
    seats = view["seats"]
    me = cast("Mapping[str, Any]", view.get("me", {}))  # a seat view's own part
    hidden = me.get("hidden", {}) if viewer is not None else {}
    placed = sum(10 - seat["unplaced"] for seat in seats)
    if view["stage"] == "placement":
        sentences = [f"Placement stage: {placed} of {10 * len(seats)} tiles placed."]
    else:
        sentences = ["Movement stage: every tile is placed."]
    if not view["tiles"]:
        sentences.append("The board is empty: the first tile goes on the centre.")
    for seat, info in enumerate(seats):
        mine = sorted(
            (t for t in view["tiles"] if t["owner"] == seat),
            key=lambda t: (_distance((t["cell"][0], t["cell"][1])), t["cell"]),
        )
        who = f"{info['name']} ({info['colour']})"
        if not mine:
            sentences.append(f"{who} has no tiles on the board yet.")
            continue
        parts = []
        for tile in mine:
            cell = (tile["cell"][0], tile["cell"][1])
            where = cell_name(cell)
            where = where if where == "the centre" else f"at {where}"
            if tile["face"] == "up":
                parts.append(f"a {tile['symbol']} {where}")
            else:
                key = f"{cell[0]},{cell[1]}"
                own = f" (yours: a {hidden[key]})" if seat == viewer and key in hidden else ""
                parts.append(f"a symbol-down tile{own} {where}")
        parts = [p.replace(" the centre", " on the centre") for p in parts]
        left = f"; {info['unplaced']} still to place" if view["stage"] == "placement" else ""
        sentences.append(f"{who}, {_tiles(len(mine))}{left}: " + "; ".join(parts) + ".")
    for window in view.get("sets", []):
        cells = [cell_name((c[0], c[1])) for c in window]
        sentences.append(f"A set lies from {cells[0]} to {cells[-1]}.")
    sentences.append(
        "Cells are named from the centre (where the first tile went): so many steps one way, "
        "then so many the next way clockwise."
    )
    return sentences
