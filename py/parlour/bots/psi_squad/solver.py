"""The next guess against one cypher, from the guesses and answers made on it so far.

The candidates are the cyphers that give every answer heard so far (whoever guessed). A guess
splits them into classes by the answer it would get; the search prefers the guess whose classes
are smallest on average, scored by entropy (the sum of size x log size over the classes, the
lower the better: the answer tells the most), and among equal scores a guess that could itself
be the cypher. Guesses are drawn from all cyphers, not only the candidates (a guess that cannot
win often splits much better), one per class of equivalent guesses (`symmetry.pool`).

The first guess, and the second guess after each answer to it, come from a table worked out
offline with the same scoring over every candidate (`book.py`, checked by a test); later
decisions are searched within a budget of candidates and guesses per level.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.bots.psi_squad import book
from parlour.bots.psi_squad.model import Split, consistent
from parlour.bots.psi_squad.symmetry import pool
from parlour.fair.rng import Rng

Record = tuple[tuple[int, int], ...]  # (guess, answer code) pairs made on one cypher


@dataclass(frozen=True)
class Budget:
    """How much one decision may look at: candidates scored (a sample beyond), guesses tried
    besides the candidates (a sample beyond), and whether the opening table is used."""

    candidates: int
    guesses: int
    book: bool = True


EXACT = Budget(candidates=10**6, guesses=10**6, book=False)  # every candidate, every guess
BUDGETS = {
    "hard": Budget(candidates=1200, guesses=12_000),
    "medium": Budget(candidates=300, guesses=600),
}


_LOG: list[float] = [0.0]


def _weights(m: int) -> list[float]:
    """size x log(size) for sizes 0..m (0 for 0 and 1), grown as needed."""
    while len(_LOG) <= m:
        s = len(_LOG)
        _LOG.append(s * math.log(s) if s > 1 else 0.0)
    return _LOG


def sample(items: Sequence[int], k: int, label: str, record: Record) -> list[int]:
    """A fixed sample of k items, drawn from the public record only (so a decision never
    depends on anything else, and can be remembered)."""
    if len(items) <= k:
        return list(items)
    rng = Rng(f"psi-squad:{label}:{sorted(record)}".encode())
    return sorted(rng.sample(items, k))


def candidates(n: int, record: Record) -> tuple[int, ...]:
    return consistent(n, record)


def best_guess(n: int, record: Record, budget: Budget) -> int:
    """The guess this budget finds best against the cypher with this record."""
    found = consistent(n, record)
    if len(found) <= 2:
        return found[0]
    if budget.book:
        opening = book.lookup(n, record)
        if opening is not None:
            return opening
    scored = sample(found, budget.candidates, "candidates", record)
    split = Split(n, scored)
    m = len(scored)
    weights = _weights(m)
    best_key: tuple[float, int, int] | None = None
    best = scored[0]
    inside = set(found)
    for guess in guesses_to_try(n, record, found, budget):
        sizes = split.sizes(guess)
        key = (sum(map(weights.__getitem__, sizes)), -(guess in inside), guess)
        if best_key is None or key < best_key:
            best_key, best = key, guess
            if key[0] == 0.0 and key[1] == -1:
                break  # every candidate in a class of its own, and this one may win now
    return best


def guesses_to_try(n: int, record: Record, found: Sequence[int], budget: Budget) -> list[int]:
    """The guesses to try. When the symmetry classes are few, one guess of each covers every
    guess (candidates included: a class holds candidates only, or none). Otherwise the
    candidates come first (a perfect split among them ends the search), then a sample of the
    classes, or of all cyphers, down to the budget."""
    classes = pool(n, tuple(g for g, _ in record))
    if classes is not None and len(classes) <= budget.guesses:
        inside = set(found)
        return sorted(classes, key=lambda g: g not in inside)
    first = sample(found, budget.candidates, "candidates", record)
    others: Sequence[int] = range(10**n) if classes is None else classes
    seen = set(first)
    rest = sample(others, budget.guesses, "guesses", record)
    return first + [g for g in rest if g not in seen]


def random_consistent(n: int, record: Record, rng: Rng) -> int:
    """A cypher that gives every answer so far, drawn uniformly (the "consistent" player)."""
    found = consistent(n, record)
    return found[rng.below(len(found))]


def guess_for(n: int, record: Record, level: str, seed: int | bytes) -> int:
    """The guess of a level against one cypher (the solver the report measures): easy and
    consistent draw a consistent cypher (seeded by `seed` and the record), medium and hard
    search within their budgets."""
    if level in BUDGETS:
        return best_guess(n, record, BUDGETS[level])
    rng = Rng(f"psi-squad:consistent:{seed!r}:{sorted(record)}".encode())
    return random_consistent(n, record, rng)
