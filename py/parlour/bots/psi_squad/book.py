"""The opening: the first guess on an untouched cypher, and the second after each answer to it.

These are the decisions with the most candidates (10,000 then up to a few thousand for four
digits, ten times more for five), which the searches of a game sample down to their budget.
Here they were worked out offline by the same scoring over every candidate and every guess:

    PYTHONPATH=py python -m parlour.bots.psi_squad.make_book

prints the table below; a test regenerates it and compares.
"""

from __future__ import annotations

FIRST: dict[int, str] = {3: "012", 4: "0123", 5: "01234"}
# (number correct, number spotted) answered to the first guess -> the second guess
SECOND: dict[int, dict[tuple[int, int], str]] = {
    3: {
        (0, 0): "345", (1, 0): "134", (1, 1): "034", (2, 0): "123", (2, 1): "023",
        (2, 2): "023", (3, 0): "120", (3, 1): "001",
    },
    4: {
        (0, 0): "4567", (1, 0): "1456", (1, 1): "0456", (2, 0): "1435", (2, 1): "0245",
        (2, 2): "0245", (3, 0): "1435", (3, 1): "0014", (3, 2): "0245", (3, 3): "0245",
        (4, 0): "1200", (4, 1): "0012", (4, 2): "0013",
    },
    5: {
        (0, 0): "55667", (1, 0): "15567", (1, 1): "05678", (2, 0): "10567", (2, 1): "01567",
        (2, 2): "02567", (3, 0): "12546", (3, 1): "01353", (3, 2): "01356", (3, 3): "02567",
        (4, 0): "12353", (4, 1): "00114", (4, 2): "01353", (4, 3): "02353", (4, 4): "02567",
        (5, 0): "12340", (5, 1): "00143", (5, 2): "01322", (5, 3): "02111",
    },
}  # fmt: skip


def lookup(n: int, record: tuple[tuple[int, int], ...]) -> int | None:
    """The book's guess for this record on a cypher, if the book covers it (record and guess
    as the solver codes them: cyphers as ints, answers as (n + 1) x correct + spotted)."""
    first = FIRST.get(n)
    if first is None:
        return None
    if not record:
        return int(first)
    if len(record) == 1 and record[0][0] == int(first):
        second = SECOND[n].get(divmod(record[0][1], n + 1))
        return None if second is None else int(second)
    return None
