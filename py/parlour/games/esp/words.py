"""ESP's moves in words, for the game log ("Dark jumps the star north-east over 2 tiles")."""

from __future__ import annotations

from parlour.games.esp.actions import AnswerDraw, Flip, Move, Pass, Place, ProposeDraw
from parlour.games.esp.hexgrid import DIRECTION_NAMES, step
from parlour.games.esp.state import EspState
from parlour.words import agree, with_verb


def _tiles(n: int) -> str:
    return "1 tile" if n == 1 else f"{n} tiles"


def describe(before: EspState, seat: int, action: object) -> str:
    """One sentence for `seat` taking `action` in the position `before` (public facts only)."""
    name = before.name(seat)
    if isinstance(action, Place):
        if action.symbol is not None:
            return f"{with_verb(name, 'places')} a {action.symbol.value}, symbol-up."
        return f"{with_verb(name, 'places')} a tile symbol-down."
    if isinstance(action, Flip):
        symbol = action.opening.value if action.opening else "?"
        return f"{with_verb(name, 'flips')} a tile: it is a {symbol}."
    if isinstance(action, Move):
        tile = before.board[action.cell]
        run = 0
        while step(action.cell, action.direction, run + 1) in before.board:
            run += 1
        where = DIRECTION_NAMES[action.direction]
        symbol = tile.symbol.value if tile.symbol else "tile"
        return f"{with_verb(name, 'jumps')} the {symbol} {where} over {_tiles(run)}."
    if isinstance(action, Pass):
        return f"{with_verb(name, 'has')} no legal move and {agree(name, 'passes')}."
    if isinstance(action, ProposeDraw):
        return f"{with_verb(name, 'offers')} a draw."
    if isinstance(action, AnswerDraw):
        return f"{with_verb(name, 'accepts' if action.accept else 'declines')} the draw."
    return f"{with_verb(name, 'acts')}."
