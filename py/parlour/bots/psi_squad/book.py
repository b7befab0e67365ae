"""The opening: the first guess on an untouched cypher, and the second after each answer to it.

Worked out offline by `python -m parlour.bots.psi_squad.book` (the same scoring as the search,
over every candidate and every guess); a test regenerates it and compares.
"""

from __future__ import annotations

FIRST: dict[int, int] = {}
SECOND: dict[int, dict[int, int]] = {}


def lookup(n: int, record: tuple[tuple[int, int], ...]) -> int | None:
    """The book's guess for this record on a cypher, if the book covers it."""
    if not record:
        return FIRST.get(n)
    if len(record) == 1 and record[0][0] == FIRST.get(n):
        return SECOND.get(n, {}).get(record[0][1])
    return None
