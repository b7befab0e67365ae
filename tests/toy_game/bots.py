"""Second Sight's bots, from their seat's view only: "easy" seals and guesses at random;
"medium" guesses the symbol the other showed most often; "hard" also seals the symbol it showed
least often itself (ties drawn from the seed)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from parlour.bots.base import Bot, SeatKnowledge
from parlour.fair.rng import Rng
from parlour.games.zener import SYMBOLS, Symbol
from tests.toy_game.actions import Choose, Guess


def _shown(knowledge: SeatKnowledge, seat: int) -> Counter[Symbol]:
    """How often `seat` showed each symbol in the rounds so far (the public history)."""
    return Counter(Symbol(r["symbols"][seat]) for r in knowledge.view["history"])


def _pick(rng: Rng, counts: Counter[Symbol], most: bool) -> Symbol:
    ranked = [counts.get(s, 0) for s in SYMBOLS]
    best = max(ranked) if most else min(ranked)
    tied = [s for s, n in zip(SYMBOLS, ranked, strict=True) if n == best]
    return tied[rng.below(len(tied))]


def _play(knowledge: SeatKnowledge, seed: bytes, level: int) -> Any:
    if not knowledge.to_move or not knowledge.legal:
        return None
    rng = Rng(b"second-sight-bot:" + seed)
    first = knowledge.legal[0]
    me = knowledge.seat
    if isinstance(first, Choose):
        sealed = _pick(rng, _shown(knowledge, me), most=False) if level > 1 else rng.choice(SYMBOLS)
        return Choose(sealed)
    if isinstance(first, Guess):
        guess = (
            _pick(rng, _shown(knowledge, 1 - me), most=True) if level > 0 else rng.choice(SYMBOLS)
        )
        return Guess(guess)
    return first  # the opening of its seal: nothing to decide


def easy(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return _play(knowledge, seed, 0)


def medium(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return _play(knowledge, seed, 1)


def hard(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return _play(knowledge, seed, 2)


LEVELS: dict[str, Bot] = {"easy": easy, "medium": medium, "hard": hard}
