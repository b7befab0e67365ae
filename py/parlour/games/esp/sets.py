"""ESP's sets: the windows of five symbol-up tiles of five different symbols a move completes,
and who wins by them (pure). The rules (`rules.py`) look for sets after every move on the board.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from parlour.games.base import Outcome, Termination
from parlour.games.esp.hexgrid import Cell, windows_through
from parlour.games.esp.state import SET_LENGTH, EspState, Tile
from parlour.words import Named, and_list, with_verb


def find_sets(
    board: Mapping[Cell, Tile], changed: Cell | None = None
) -> tuple[tuple[Cell, ...], ...]:
    """Every window of five symbol-up tiles with five different symbols (through `changed`, or
    anywhere when None), in a stable order."""
    cells = [changed] if changed is not None else list(board)
    found: set[tuple[Cell, ...]] = set()
    for cell in cells:
        for window in windows_through(cell, SET_LENGTH):
            symbols = set()
            for c in window:
                tile = board.get(c)
                if tile is None or tile.symbol is None or tile.symbol in symbols:
                    break
                symbols.add(tile.symbol)
            else:
                found.add(window)
    return tuple(sorted(found))


def tally(state: EspState, sets: Sequence[Sequence[Cell]], mover: int) -> Outcome:
    """Count the union of the sets by owner; the mover wins ties it is in; a split among the
    others is a shared win."""
    union = {c for window in sets for c in window}
    counts = Counter(state.board[c].owner for c in union)
    best = max(counts.values())
    leaders = frozenset(s for s, n in counts.items() if n == best)
    score = ", ".join(f"{state.name(s)} {n}" for s, n in sorted(counts.items()))
    many = f"{len(sets)} sets" if len(sets) > 1 else "a set"
    if mover in leaders:
        tie = " (ties go to the mover)" if len(leaders) > 1 else ""
        reason = f"{Named(state.name(mover)):completes} {many}: {score}{tie}."
        return Outcome(Termination.WIN, frozenset({mover}), reason)
    names = and_list([state.name(s) for s in sorted(leaders)])
    reason = f"{Named(state.name(mover)):completes} {many}: {score}. "
    if len(leaders) == 1:
        return Outcome(Termination.WIN, leaders, reason + with_verb(names, "wins") + ".")
    return Outcome(Termination.SHARED_WIN, leaders, reason + f"{names} share the win.")
