"""A small planner for the Telepathic browser tests: the shortest safe way to a win.

It reads nothing secret from the engine: the test gives it what the page showed (the grid, the
face-up cards, each seat's own cards as seen in that seat's view).
"""

from __future__ import annotations

from collections import deque

from parlour.games.telepathic.grid import CARDS_BY_ID, Grid, apply_card, holds


def plan_win(
    grid: Grid, row: list[str | None], wins: list[str], loses: list[str], depth: int = 3
) -> list[tuple[int, int]] | None:
    """(slot, set) moves, each slot used once, never meeting a lose condition on the way, after
    which every win condition holds; None when there is none within `depth` moves."""
    start = (grid, frozenset())
    queue = deque([(start, [])])
    seen = {start}
    while queue:
        (g, used), path = queue.popleft()
        if path and all(holds(g, w) for w in wins):
            return path  # with no wins asked for: the first safe move
        if len(path) == depth:
            continue
        for slot, card_id in enumerate(row):
            if card_id is None or slot in used:
                continue
            for index in range(4):
                nxt = apply_card(g, CARDS_BY_ID[card_id], index)
                if any(holds(nxt, lose) for lose in loses):
                    continue
                key = (nxt, used | {slot})
                if key not in seen:
                    seen.add(key)
                    queue.append((key, [*path, (slot, index)]))
    return None


def plan_loss(grid: Grid, row: list[str | None], loses: list[str]) -> tuple[int, int] | None:
    """One move that meets a lose condition."""
    for slot, card_id in enumerate(row):
        if card_id is None:
            continue
        for index in range(4):
            if any(holds(apply_card(grid, CARDS_BY_ID[card_id], index), x) for x in loses):
                return slot, index
    return None
