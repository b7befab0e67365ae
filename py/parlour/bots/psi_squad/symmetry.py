"""Guesses that are the same up to symmetry, counted once.

Two guesses split the candidates alike when a relabelling of digits and a reordering of
positions that leaves every past guess unchanged carries one onto the other. Digits nobody has
guessed yet are interchangeable; positions are interchangeable while the guesses so far cannot
tell them apart (before any guess, "0123" stands for all 5,040 guesses of four different digits).
`pool` lists one guess per class, so the search scores 5 first guesses instead of 10,000.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from operator import itemgetter

from parlour.bots.psi_squad.model import digits_of

FORMS_LIMIT = 25_000  # beyond, sorting guesses out costs more than it saves
WORK_LIMIT = 1_500_000  # forms x symmetries (most forms are dismissed by the first one)
Move = tuple[tuple[int, ...], dict[int, int]]  # a reordering of positions and its digit map


def _moves(n: int, guesses: Sequence[tuple[int, ...]]) -> list[Move]:
    """Every reordering of positions (but the identity) that some relabelling of the guessed
    digits undoes on every past guess, with that relabelling."""
    moves: list[Move] = []
    identity = tuple(range(n))
    for order in permutations(range(n)):
        if order == identity:
            continue
        relabel: dict[int, int] = {}
        fits = True
        for g in guesses:
            for i in range(n):
                a, b = g[order[i]], g[i]
                if relabel.setdefault(a, b) != b:
                    fits = False
                    break
            if not fits:
                break
        if fits and len(set(relabel.values())) == len(relabel):
            moves.append((order, relabel))
    return moves


def _fresh_forms(n: int, used: frozenset[int]) -> list[str]:
    """Every cypher in which unguessed digits appear in increasing order of first use, each
    the smallest one not used yet (one per relabelling of the unguessed digits)."""
    unused = [str(d) for d in range(10) if d not in used]
    known = [str(d) for d in sorted(used)]
    out: list[str] = []

    def grow(prefix: str, fresh: int) -> None:
        if len(prefix) == n:
            out.append(prefix)
            return
        for d in sorted(known + unused[:fresh]):
            grow(prefix + d, fresh)
        if fresh < len(unused):
            grow(prefix + unused[fresh], fresh + 1)

    grow("", 0)
    return out


def _count_forms(n: int, used: int) -> int:
    """How many `_fresh_forms` there are, without making them."""
    fresh = 10 - used

    def count(left: int, introduced: int) -> int:
        if left == 0:
            return 1
        total = (used + introduced) * count(left - 1, introduced)
        if introduced < fresh:
            total += count(left - 1, introduced + 1)
        return total

    return count(n, 0)


def _normal(text: str, unused: str) -> str:
    """The unguessed digits of `text` relabelled to the smallest, in order of first use."""
    relabel: dict[str, str] = {}
    out = []
    for d in text:
        if d in unused:
            if d not in relabel:
                relabel[d] = unused[len(relabel)]
            out.append(relabel[d])
        else:
            out.append(d)
    return "".join(out)


@lru_cache(maxsize=256)
def pool(n: int, guesses: tuple[int, ...]) -> tuple[int, ...] | None:
    """One guess per class of equivalent guesses, given the past guesses on a cypher (the
    order of the past guesses does not matter); None when every guess is its own class."""
    past = [digits_of(n, g) for g in sorted(set(guesses))]
    used = frozenset(d for g in past for d in g)
    moves = [
        (itemgetter(*order), str.maketrans({str(a): str(b) for a, b in relabel.items()}))
        for order, relabel in _moves(n, past)
    ]
    if len(used) >= 9 and not moves:
        return None
    unused = "".join(str(d) for d in range(10) if d not in used)
    forms_count = _count_forms(n, len(used))
    if forms_count > FORMS_LIMIT or forms_count * len(moves) > WORK_LIMIT:
        return None  # too dear to sort out here: the caller samples guesses instead
    forms = _fresh_forms(n, used)
    kept = []
    for form in forms:
        for order, relabel in moves:
            image = "".join(order(form)).translate(relabel)
            if unused:
                image = _normal(image, unused)
            if image < form:
                break
        else:
            kept.append(int(form))
    if len(kept) == 10**n:
        return None
    return tuple(sorted(kept))
