"""A fast model of Psi Squad's answers, for search: whole sets of cyphers scored at once.

A cypher of n digits is an int below 10**n (the guess "0123" is 123). An answer (number
correct, number spotted) is coded as one small int, (n + 1) * correct + spotted, so that a set of
answers fits in a byte string.

Scoring one guess against many candidate cyphers is the inner loop of every search, and pure
Python spends about 0.4 microseconds on one pair even when written tightly. `Split` works on all
candidates at once instead: each candidate is one byte lane of a big integer, the lanes of
"candidate has digit d at position i" and "min(k, how many d the candidate has)" are prepared
once per candidate set, and the answers to a guess are then a handful of big-integer additions
(C speed), one byte per candidate. Ten thousand guesses against five hundred candidates take a
quarter of a second under CPython. `score` is the plain version the tests compare it with, and
the tests compare both with the engine's own `rules.score`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache


def score(n: int, guess: int, cypher: int) -> int:
    """The answer code of one guess against one cypher, the slow and obvious way."""
    g, c = digits_of(n, guess), digits_of(n, cypher)
    correct = sum(min(g.count(d), c.count(d)) for d in set(g))
    spotted = sum(1 for a, b in zip(g, c, strict=True) if a == b)
    return (n + 1) * correct + spotted


def digits_of(n: int, code: int) -> tuple[int, ...]:
    return tuple(int(ch) for ch in text_of(n, code))


def text_of(n: int, code: int) -> str:
    return str(code).zfill(n)


def answer_code(n: int, correct: int, spotted: int) -> int:
    return (n + 1) * correct + spotted


def answer_pair(n: int, code: int) -> tuple[int, int]:
    """(correct, spotted) from an answer code."""
    return divmod(code, n + 1)


def win_code(n: int) -> int:
    return answer_code(n, n, n)


def value_of_code(n: int, code: int) -> int:
    """A cypher's Value after this answer: correct + 2 x spotted."""
    correct, spotted = answer_pair(n, code)
    return correct + 2 * spotted


@cache
def answer_codes(n: int) -> tuple[int, ...]:
    """Every possible answer (n correct with n - 1 spotted cannot happen)."""
    return tuple(
        answer_code(n, c, s)
        for c in range(n + 1)
        for s in range(c + 1)
        if not (c == n and s == n - 1)
    )


class Space:
    """Every cypher of n digits, as byte columns: digit at each position, count of each digit."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.size = 10**n
        self.answers = answer_codes(n)
        self.win = win_code(n)
        # Byte translation tables: lane 1 where the digit is d, and (n + 1) * min(k, count).
        self.equal = [bytes(1 if x == d else 0 for x in range(256)) for d in range(10)]
        self.at_most = [bytes((n + 1) * min(k, x) for x in range(256)) for k in range(n + 1)]
        text = "".join(f"{c:0{n}d}" for c in range(self.size)).encode()
        raw = text.translate(bytes.maketrans(b"0123456789", bytes(range(10))))
        self.columns = [raw[i::n] for i in range(n)]
        self.counts = [
            sum(
                int.from_bytes(column.translate(self.equal[d]), "little") for column in self.columns
            ).to_bytes(self.size, "little")
            for d in range(10)
        ]
        self.guess_parts: dict[int, tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = {}

    def parts(self, guess: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
        """A guess's digits and its (digit, count) pairs, cached (guesses recur a lot)."""
        found = self.guess_parts.get(guess)
        if found is None:
            digits = digits_of(self.n, guess)
            counts = tuple(sorted((d, digits.count(d)) for d in set(digits)))
            found = self.guess_parts[guess] = (digits, counts)
        return found


@cache
def space(n: int) -> Space:
    """The cyphers of n digits (built on first use: 0.1 s for five digits)."""
    return Space(n)


class Split:
    """A set of candidate cyphers, ready to be split by any guess in a few big-int additions."""

    def __init__(self, n: int, candidates: Sequence[int]) -> None:
        sp = space(n)
        self.n = n
        self.space = sp
        self.candidates = list(candidates)
        self.m = len(self.candidates)
        pick = self.candidates
        full = self.m == sp.size
        self.lanes: list[list[int]] = []
        for column in sp.columns:
            mine = column if full else bytes(map(column.__getitem__, pick))
            self.lanes.append(
                [int.from_bytes(mine.translate(sp.equal[d]), "little") for d in range(10)]
            )
        self.shared: list[list[int]] = []
        for count in sp.counts:
            mine = count if full else bytes(map(count.__getitem__, pick))
            if mine.count(0) == self.m:
                self.shared.append([0] * (n + 1))
            else:
                self.shared.append(
                    [int.from_bytes(mine.translate(sp.at_most[k]), "little") for k in range(n + 1)]
                )

    def answers(self, guess: int) -> bytes:
        """The answer code of `guess` against every candidate, one byte each, in order."""
        digits, counts = self.space.parts(guess)
        lanes, shared = self.lanes, self.shared
        total = 0
        for i, d in enumerate(digits):
            total += lanes[i][d]
        for d, k in counts:
            total += shared[d][k]
        return total.to_bytes(self.m, "little")

    def sizes(self, guess: int) -> list[int]:
        """How many candidates give each possible answer (in `answer_codes` order)."""
        found = self.answers(guess)
        return [found.count(a) for a in self.space.answers]

    def classes(self, guess: int) -> dict[int, list[int]]:
        """The candidates grouped by the answer they give to `guess`."""
        groups: dict[int, list[int]] = {}
        for cypher, answer in zip(self.candidates, self.answers(guess), strict=True):
            groups.setdefault(answer, []).append(cypher)
        return groups

    def keep(self, guess: int, answer: int) -> list[int]:
        """The candidates that give `answer` to `guess`."""
        found = self.answers(guess)
        return [c for c, a in zip(self.candidates, found, strict=True) if a == answer]


@cache
def everything(n: int) -> Split:
    return Split(n, range(10**n))


def split_of(n: int, candidates: Sequence[int]) -> Split:
    """A `Split` of these candidates (the one of every cypher is built once and kept)."""
    return everything(n) if len(candidates) == 10**n else Split(n, candidates)


def foregone(split: Split, guess: int) -> int | None:
    """The answer `guess` is sure to get when every candidate of `split` gives the same one and
    it is not the crack, else None. Such a guess teaches nobody anything and cracks nothing: a
    guesser who knows these candidates can work its answer out without asking (a repeated
    guess is one; so is "5555" once 5 is known to be absent)."""
    found = split.answers(guess)
    first = found[0]
    if first == split.space.win or found.count(first) != len(found):
        return None
    return first


_CONSISTENT: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[int, ...]] = {}
_CONSISTENT_LIMIT = 4096


def consistent(n: int, record: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """The cyphers that give every (guess, answer) of `record`, sorted; remembered by record.

    The order of the record does not matter, so it is sorted into the key."""
    key = (n, tuple(sorted(set(record))))
    found = _CONSISTENT.get(key)
    if found is not None:
        return found
    pairs = key[1]
    if not pairs:
        found = tuple(range(10**n))
    else:
        parent = consistent(n, pairs[:-1])
        guess, answer = pairs[-1]
        found = tuple(split_of(n, parent).keep(guess, answer))
    if len(_CONSISTENT) >= _CONSISTENT_LIMIT:
        _CONSISTENT.clear()
    _CONSISTENT[key] = found
    return found
