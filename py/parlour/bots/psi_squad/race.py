"""The race for the last crack, searched exactly when few candidates are left.

When the next crack ends the game, whoever makes it usually wins; what counts then is the
chance of being first, not points. Every answer is public, so a guess that splits the
candidates finely helps the opponent who guesses that cypher next as much as it helps me: in a
two-guesser race over three candidates, a consistent guess that splits the other two leaves the
opponent a sure crack (I am first one time in three), while one that leaves both together
gives me two chances in three.

The search: my guess (any candidate), its answer, then each opponent in turn: with the chance
it targets this cypher it guesses a candidate at random (the consistent player's way), then
the round may end the game otherwise (my own cypher cracked, another crack), then my next
guess, to a fixed depth. The value is the chance that I crack the cypher first.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.bots.psi_squad.model import score, win_code

RACE_MAX = 24  # candidates, at most, for the exact search
DEPTH = 2  # my guesses looked at, this one included

# What `Race` remembers a chance by: ("m", candidates, depth) on my move, ("t", candidates, k,
# depth) on the opponents'.
MemoKey = tuple[str, tuple[int, ...], int] | tuple[str, tuple[int, ...], int, int]


class Race:
    """One cypher's race: its candidates, the opponents' chances to guess it before my next
    turn (in turn order), and the chance per round that the game ends some other way."""

    def __init__(self, n: int, candidates: Sequence[int], odds: Sequence[float], hazard: float):
        self.n = n
        self.win = win_code(n)
        self.odds = tuple(odds)
        self.hazard = hazard
        self.answers = {(g, c): score(n, g, c) for g in candidates for c in candidates}
        self.memo: dict[MemoKey, float] = {}

    def _split(self, cands: tuple[int, ...], guess: int) -> list[tuple[int, ...]]:
        """The classes of `cands` by their answer to `guess` (the cracked one left out)."""
        groups: dict[int, list[int]] = {}
        for c in cands:
            answer = self.answers[(guess, c)]
            if answer != self.win:
                groups.setdefault(answer, []).append(c)
        return [tuple(g) for g in groups.values()]

    def guess_value(self, cands: tuple[int, ...], guess: int, depth: int = DEPTH) -> float:
        """My chance to crack first if I guess `guess` (a candidate) now."""
        total = len(cands)
        value = 1.0 / total
        for part in self._split(cands, guess):
            value += len(part) / total * self._theirs(part, 0, depth)
        return value

    def pass_value(self, cands: tuple[int, ...], depth: int = DEPTH) -> float:
        """My chance if I guess elsewhere now (the opponents move on this cypher anyway)."""
        return self._theirs(cands, 0, depth)

    def _mine(self, cands: tuple[int, ...], depth: int) -> float:
        if len(cands) == 1:
            return 1.0
        if depth <= 0:
            return _leaf(len(cands))
        key = ("m", cands, depth)
        found = self.memo.get(key)
        if found is None:
            found = max(self.guess_value(cands, g, depth) for g in cands)
            self.memo[key] = found
        return found

    def _theirs(self, cands: tuple[int, ...], k: int, depth: int) -> float:
        """Opponents k, k+1, ... move, then the round may end otherwise, then my turn."""
        if k == len(self.odds):
            return (1 - self.hazard) * self._mine(cands, depth - 1)
        key = ("t", cands, k, depth)
        found = self.memo.get(key)
        if found is not None:
            return found
        q = self.odds[k]
        skip = self._theirs(cands, k + 1, depth)
        total = len(cands)
        on_it = 0.0
        for theirs in cands:  # their consistent guess, each as likely; the cypher too
            for part in self._split(cands, theirs):
                on_it += len(part) / total * self._theirs(part, k + 1, depth)
        found = q * on_it / total + (1 - q) * skip
        self.memo[key] = found
        return found


def _leaf(size: int) -> float:
    """A rough chance to be first from `size` candidates on my turn, beyond the depth: my
    consistent guess now, else a fair race."""
    return 1 / size + (1 - 1 / size) * 0.4
