"""The Telepathic bot: reads the public record into a belief (`mind`), then decides (`play`).

Everything it uses is the seat's knowledge: the view (grid, face-up row, deck size, phase, its
own cards) and the public history. The record is replayed through the model of rational players
once per prefix and remembered (a pure memo of public values), so a decision costs one or two
model evaluations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from parlour.bots.base import SeatKnowledge
from parlour.bots.telepathic import model
from parlour.bots.telepathic.mind import WEIGHTS, Mind, Weights
from parlour.bots.telepathic.model import Grid
from parlour.bots.telepathic.play import (
    Table,
    announcement,
    choose_hand,
    choose_perform,
    perform_model,
    respond,
    type_of,
)
from parlour.games.telepathic.actions import Announce, Continue, HandCard, Perform, Respond


@dataclass(frozen=True)
class Level:
    weights: Weights = WEIGHTS
    patience: float = 0.85  # the chance an Announcement must have while turns remain


LEVELS = {
    "easy": Level(Weights(speak=0.0, beta=4.0), 0.7),
    "medium": Level(Weights()),
    "hard": Level(Weights(deep=True)),
}

# The record as the belief reads it: a card handed (seat, receiver, grid, row, slot), and a set
# chosen (seat, grid, row, handed slot, active seat, set).
HandEvent = tuple[Literal["h"], int, int, Grid, tuple[int | None, ...], int]
PerformEvent = tuple[Literal["p"], int, Grid, tuple[int | None, ...], int | None, int, int]

# Beliefs by (arrangement, seats, mode, weights) and the events read so far.
_MINDS: dict[tuple[object, ...], Mind] = {}
_MAX_MINDS = 2000


def _set_up(knowledge: SeatKnowledge) -> tuple[str, str]:
    """The match's arrangement and mode, from its set-up (the declaration's defaults filled in)."""
    return str(knowledge.option("arrangement")), str(knowledge.option("mode"))


def _table(view: Mapping[str, Any], set_up: tuple[str, str]) -> Table:
    row = [None if c is None else model.CARD_INDEX[c] for c in view["row"]]
    arrangement, mode = set_up
    return Table(
        arrangement,
        mode,
        model.encode(view["grid"]),
        row,
        view["deck"],
        0,
        view["active"],
        view["receiver"] if view["receiver"] is not None else view["active"],
        view["handed_slot"],
        view["reshuffles"],
    )


def mind_for(knowledge: SeatKnowledge, weights: Weights) -> Mind:
    """The public belief after every hand-over and set choice so far."""
    view = knowledge.view
    set_up = arrangement, mode = _set_up(knowledge)
    head = (arrangement, len(view["seats"]), mode, weights)
    events: list[HandEvent | PerformEvent] = []
    for step in knowledge.history:
        kind = step.action.get("type") if isinstance(step.action, dict) else None
        if kind == "hand":
            t = _table(step.before, set_up)
            events.append(("h", step.seat, t.receiver, t.grid, tuple(t.row), step.action["slot"]))
        elif kind == "perform":
            t = _table(step.before, set_up)
            events.append(
                ("p", step.seat, t.grid, tuple(t.row), t.handed, t.active, step.action["set"])
            )
    found = len(events)
    while found > 0 and (head, *events[:found]) not in _MINDS:
        found -= 1
    mind = _MINDS.get((head, *events[:found]))
    mind = Mind(arrangement, len(view["seats"]), weights) if mind is None else mind.copy()
    first = mode == "first"
    for i in range(found, len(events)):
        event = events[i]
        if event[0] == "h":
            _, seat, receiver, grid, row, slot = event
            slots, _, policy = mind.hand_model(seat, receiver, grid, row, first)
            mind.observe(seat, policy, slots.index(slot))
        else:
            _, seat, grid, row, handed, active, index = event
            table = Table(arrangement, mode, grid, list(row), 0, 0, active, seat)
            table.handed = handed
            _, policy = perform_model(mind, table, seat)
            assert handed is not None  # (a set is chosen for the card handed over)
            card = row[handed]
            assert card is not None
            nxt = table.next_cards(handed)
            mind.read_perform(seat, grid, card, nxt, None, policy, index)
        if len(_MINDS) >= _MAX_MINDS:
            _MINDS.clear()
        _MINDS[(head, *events[: i + 1])] = mind.copy()
    return mind


def decide(knowledge: SeatKnowledge, level: Level) -> Any:
    legal = list(knowledge.legal)
    if not legal:
        return None
    view = knowledge.view
    phase = view["phase"]
    if knowledge.to_move and len(legal) == 1 and phase not in ("hand", "window"):
        return legal[0]
    seat = knowledge.seat
    set_up = _set_up(knowledge)
    mine = type_of(set_up[0], seat, view["me"]["conditions"])
    mind = mind_for(knowledge, level.weights)
    table = _table(view, set_up)
    table.turns = _turns(knowledge)
    announces = [a for a in legal if isinstance(a, Announce)]
    if announces:
        chosen = _announce(mind, table, seat, mine, announces, level, view, knowledge.to_move)
        if chosen is not None or not knowledge.to_move:
            return chosen
    if phase == "hand":
        hands = [a for a in legal if isinstance(a, HandCard)]
        slot = choose_hand(mind, table, seat, mine)
        return next((a for a in hands if a.slot == slot), hands[0])
    if phase == "perform":
        return Perform(choose_perform(mind, table, seat, mine))
    if phase == "window":
        return next(a for a in legal if isinstance(a, Continue))
    if phase == "respond":
        name = respond(mind, table, seat, mine, view["announcer"])
        kind = mind.lay.kind_of(view["announcer"])
        wanted = model.CONDITIONS[name + 4 * kind]
        return next((a for a in legal if isinstance(a, Respond) and a.name == wanted), legal[0])
    return legal[0]


def _turns(knowledge: SeatKnowledge) -> int:
    return sum(
        1
        for step in knowledge.history
        if isinstance(step.action, dict) and step.action.get("type") == "perform"
    )


def _announce(
    mind: Mind,
    table: Table,
    seat: int,
    mine: tuple[int, ...],
    announces: list[Announce],
    level: Level,
    view: Mapping[str, Any],
    moving: bool,
) -> Announce | None:
    named = [s for s, _ in announces[0].claims]
    claims, chance = announcement(mind, table, seat, mine, named)
    forced = view["must_announce"] and moving
    remaining = table.remaining()
    need = _threshold(remaining, level.patience, table.turns)
    if not forced and chance < need:
        return None
    wanted = tuple((s, model.CONDITIONS[c + 4 * mind.lay.kind_of(s)]) for s, c in claims)
    return next((a for a in announces if a.claims == wanted), announces[0])


def _threshold(remaining: int, patience: float, turns: int) -> float:
    if remaining <= 0:
        return 0.0
    base = {1: 0.35, 2: 0.55, 3: 0.7}.get(remaining, patience)
    if turns > 12:  # open-ended games (first game, teams): settle for less as time goes on
        base = min(base, max(0.0, patience - 0.05 * (turns - 12)))
    return base


def choose_easy(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return decide(knowledge, LEVELS["easy"])


def choose_medium(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return decide(knowledge, LEVELS["medium"])


def choose_hard(knowledge: SeatKnowledge, seed: bytes) -> Any:
    return decide(knowledge, LEVELS["hard"])
