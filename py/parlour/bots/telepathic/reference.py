"""Two reference partners for measuring the bot (not offered to players).

"naive": avoids its own lose condition when it chooses a set, hands any card, and guesses when
the Announcement is compulsory (a condition of the partner's kind on the grid, at random; any
if none is), and guesses the same way when answering. "plain": plays toward its own win and
away from its own loss, never tries to signal and never reads its partner's choices; it announces
when its own win holds and a condition of its partner's kind is on the grid, naming one of those.
Both draw their ties and guesses from the seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from parlour.bots.base import SeatKnowledge
from parlour.bots.telepathic import model
from parlour.bots.telepathic.model import holding
from parlour.fair.rng import Rng
from parlour.games.telepathic.actions import Announce, Continue, HandCard, Perform, Respond

OPEN_ENDED_TURNS = 12  # first game and teams: announce after this many turns at the latest
T = TypeVar("T")


def _mine(view: Mapping[str, Any]) -> tuple[int | None, int | None]:
    cards = view["me"]["conditions"]
    win, lose = cards.get("win"), cards.get("lose")
    index = model.CONDITION_INDEX
    return (None if win is None else index[win]), (None if lose is None else index[lose])


def _turns(knowledge: SeatKnowledge) -> int:
    return sum(1 for s in knowledge.history if s.action.get("type") == "perform")


def _forced(knowledge: SeatKnowledge) -> bool:
    view = knowledge.view
    return knowledge.to_move and (view["must_announce"] or _turns(knowledge) >= OPEN_ENDED_TURNS)


def _pick(rng: Rng, options: Sequence[T]) -> T:
    return options[rng.below(len(options))]


def _best(rng: Rng, options: Sequence[T], score: Callable[[T], int]) -> T:
    scored = [score(o) for o in options]
    top = max(scored)
    return _pick(rng, [o for o, s in zip(options, scored, strict=True) if s == top])


def _after(view: Mapping[str, Any], index: int) -> model.Grid:
    grid = model.encode(view["grid"])
    return model.after(grid, model.CARD_INDEX[view["handed"]], index)


def choose_naive(knowledge: SeatKnowledge, seed: bytes) -> Any:
    legal, view, rng = list(knowledge.legal), knowledge.view, Rng(seed)
    if not legal:
        return None
    held = holding(model.encode(view["grid"]))
    announces = [a for a in legal if isinstance(a, Announce)]
    if announces and _forced(knowledge):
        on = [
            a
            for a in announces
            if all(held >> model.CONDITION_INDEX[name] & 1 for _, name in a.claims)
        ]
        return _pick(rng, on or announces)
    if not knowledge.to_move:
        return None
    if view["phase"] == "respond":
        return _pick(rng, _holding_names(legal, held) or legal)
    _, lose = _mine(view)
    if view["phase"] == "perform":
        safe = [
            a
            for a in legal
            if isinstance(a, Perform)
            and (lose is None or not holding(_after(view, a.set_index)) >> lose & 1)
        ]
        return _pick(rng, safe or [a for a in legal if isinstance(a, Perform)])
    choices = [a for a in legal if not isinstance(a, Announce)]
    return _pick(rng, choices or legal)


def choose_plain(knowledge: SeatKnowledge, seed: bytes) -> Any:
    legal, view, rng = list(knowledge.legal), knowledge.view, Rng(seed)
    if not legal:
        return None
    win, lose = _mine(view)
    grid = model.encode(view["grid"])
    held = holding(grid)
    announces = [a for a in legal if isinstance(a, Announce)]
    if announces:
        chosen = _plain_announcement(announces, held, win, knowledge.seat, rng, _forced(knowledge))
        if chosen is not None or not knowledge.to_move:
            return chosen
    phase = view["phase"]
    if phase == "perform":
        nxt = tuple(
            model.CARD_INDEX[c]
            for i, c in enumerate(view["row"])
            if c is not None and (knowledge.option("mode") == "first" or i != view["handed_slot"])
        )

        def score(a: Perform) -> int:
            after = _after(view, a.set_index)
            m = holding(after)
            if lose is not None and m >> lose & 1:
                return -10
            if win is None:
                return 0
            if m >> win & 1:
                return 2
            return 1 if any(r >> win & 1 for r in model.reach(after, nxt)) else 0

        return _best(rng, [a for a in legal if isinstance(a, Perform)], score)
    if phase == "hand":

        def card_score(a: HandCard) -> int:
            card = model.CARD_INDEX[view["row"][a.slot]]
            total = 0
            for k in range(4):
                m = holding(model.after(grid, card, k))
                if lose is not None and m >> lose & 1:
                    total -= 2
                elif win is not None and m >> win & 1:
                    total += 1
            return total

        return _best(rng, [a for a in legal if isinstance(a, HandCard)], card_score)
    if phase == "respond":
        return _pick(rng, _holding_names(legal, held) or legal)
    if phase == "window":
        return next(a for a in legal if isinstance(a, Continue))
    return _pick(rng, legal)


def _holding_names(responds: Sequence[object], held: int) -> list[Respond]:
    return [
        a for a in responds if isinstance(a, Respond) and held >> model.CONDITION_INDEX[a.name] & 1
    ]


def _plain_announcement(
    announces: list[Announce], held: int, win: int | None, seat: int, rng: Rng, forced: bool
) -> Announce | None:
    """Announce when the own win holds (if any) and every named condition can be one on the
    grid; name conditions that hold, at random."""
    on = [
        a
        for a in announces
        if all(held >> model.CONDITION_INDEX[name] & 1 for s, name in a.claims if s != seat)
        and all(model.CONDITION_INDEX[name] == win for s, name in a.claims if s == seat)
    ]
    mine_ok = win is None or held >> win & 1
    if on and mine_ok:
        return _pick(rng, on)
    if forced:
        return _pick(rng, on or announces)
    return None
