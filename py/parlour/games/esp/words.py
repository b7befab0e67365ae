"""ESP's moves in words, for the game log ("Dark jumps the star north-east over 2 tiles")."""

from __future__ import annotations

from parlour.games.esp.actions import AnswerDraw, Flip, Move, Pass, Place, ProposeDraw
from parlour.games.esp.hexgrid import DIRECTION_NAMES, step
from parlour.games.esp.state import EspState


def _tiles(n: int) -> str:
    return "1 tile" if n == 1 else f"{n} tiles"


def describe(before: EspState, seat: int, action: object) -> str:
    """One sentence for `seat` taking `action` in the position `before` (public facts only)."""
    name = before.name(seat)
    if isinstance(action, Place):
        if action.symbol is not None:
            return f"{name} places a {action.symbol.value}, symbol-up."
        return f"{name} places a tile symbol-down."
    if isinstance(action, Flip):
        symbol = action.opening.value if action.opening else "?"
        return f"{name} flips a tile: it is a {symbol}."
    if isinstance(action, Move):
        tile = before.board[action.cell]
        run = 0
        while step(action.cell, action.direction, run + 1) in before.board:
            run += 1
        where = DIRECTION_NAMES[action.direction]
        symbol = tile.symbol.value if tile.symbol else "tile"
        return f"{name} jumps the {symbol} {where} over {_tiles(run)}."
    if isinstance(action, Pass):
        return f"{name} has no legal move and passes."
    if isinstance(action, ProposeDraw):
        return f"{name} offers a draw."
    if isinstance(action, AnswerDraw):
        return f"{name} {'accepts' if action.accept else 'declines'} the draw."
    return f"{name} acts."
