"""Psi Squad's state: what every device agrees on after each action (pure), and the scoring
of a guess. Kept apart from the rules (`rules.py`), as every game's is, so that the views, the
words and the bots read a state without the machinery that changes it. No cypher is in a state:
each is a commitment until opened.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from parlour.games.base import Outcome, Setup
from parlour.games.grown import Grown
from parlour.games.psi_squad.actions import Guess
from parlour.games.psi_squad.options import max_status
from parlour.games.psi_squad.views import PsiRecord

CYPHER_LABEL = "cypher"


def score(cypher: str, guess: str) -> tuple[int, int]:
    """(number correct, number spotted). Correct counts digits as multisets, spotted included."""
    correct = sum((Counter(cypher) & Counter(guess)).values())
    spotted = sum(1 for a, b in zip(cypher, guess, strict=True) if a == b)
    return correct, spotted


def value_of(correct: int, spotted: int) -> int:
    return correct + 2 * spotted


@dataclass(frozen=True)
class Record:
    """One guess and its answer, as announced at the table."""

    step: int  # the move of the answer
    guesser: int
    target: int
    digits: str
    correct: int
    spotted: int
    value: int
    change: int


@dataclass(frozen=True)
class PsiState:
    setup: Setup
    length: int
    cyphers: tuple[tuple[str, int] | None, ...]  # per seat: (commitment, move), once set
    status: tuple[int, ...]
    values: tuple[int, ...]
    guessed: tuple[bool, ...]
    first: int
    to_move: int
    pending: Guess | None = None
    history: Grown[Record] = field(default_factory=Grown)  # grows without a copy a move
    ply: int = 0
    bonus: tuple[int, int] | None = None  # (seat, points) for the last unguessed cypher
    outcome: Outcome | None = None

    @property
    def seats(self) -> int:
        return self.setup.seats

    @property
    def max(self) -> int:
        return max_status(self.length)

    @property
    def setting_up(self) -> bool:
        return None in self.cyphers

    def name(self, seat: int) -> str:
        return self.setup.seat_names[seat]

    def targets(self, seat: int) -> list[int]:
        return [s for s in range(self.seats) if s != seat and not self.guessed[s]]


def record_json(r: Record) -> PsiRecord:
    return {
        "step": r.step,
        "guesser": r.guesser,
        "target": r.target,
        "digits": r.digits,
        "correct": r.correct,
        "spotted": r.spotted,
        "value": r.value,
        "change": r.change,
    }
