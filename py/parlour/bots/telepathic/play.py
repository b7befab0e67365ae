"""The bot's decisions, from the public belief (`mind.Mind`) and the seat's own cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from parlour.bots.telepathic import model
from parlour.bots.telepathic.mind import Mind, PerType, Then, after_row, next_turn
from parlour.bots.telepathic.model import Grid, holding
from parlour.bots.telepathic.worlds import COLOUR, PAIRS, SLOTS

OPEN = 99  # turns left in a game with no end of the deck


@dataclass
class Table:
    """The public position, in the fast model's terms."""

    arrangement: str
    mode: str
    grid: Grid
    row: list[int | None]
    deck: int
    turns: int
    active: int
    receiver: int
    handed: int | None = None  # the handed slot, while it is being performed
    reshuffles: int = 0

    @property
    def first(self) -> bool:
        return self.mode == "first"

    def remaining(self) -> int:
        """Turns left before the Announcement is compulsory (a large number if never)."""
        if self.first or self.arrangement == "teams":
            return OPEN
        left = sum(c is not None for c in self.row) + self.deck
        if self.arrangement == "four" and self.reshuffles == 0:
            left += len(model.CARD_IDS) - 1  # the used cards come back once
        return left

    def next_cards(self, slot: int) -> tuple[int, ...]:
        return tuple(
            c for i, c in enumerate(self.row) if c is not None and (self.first or i != slot)
        )


def type_of(arrangement: str, seat: int, conditions: Mapping[str, str]) -> tuple[int, ...]:
    """A seat's type: its cards, in the order of its slots, as 0-3 within their kind."""
    out = []
    for pair_slots in SLOTS[arrangement]:
        for s, which in pair_slots:
            if s == seat:
                out.append(model.CONDITION_INDEX[conditions[which]] % 4)
    return tuple(out)


def choose_hand(mind: Mind, table: Table, seat: int, mine: tuple[int, ...]) -> int:
    slots, util, _ = mind.hand_model(seat, table.receiver, table.grid, table.row, table.first)
    t = _type_index(mind, seat, mine)
    row = util[t]
    return slots[max(range(len(slots)), key=lambda i: (row[i], -i))]


def choose_perform(mind: Mind, table: Table, seat: int, mine: tuple[int, ...]) -> int:
    util, _ = perform_model(mind, table, seat)
    row = util[_type_index(mind, seat, mine)]
    return max(range(4), key=lambda i: (row[i], -i))


def perform_model(mind: Mind, table: Table, seat: int) -> tuple[PerType, PerType]:
    """The model of the performer's choice in this position (utility, policy per type)."""
    assert table.handed is not None  # (a card is being performed)
    card = table.row[table.handed]
    assert card is not None
    then: Then = (
        after_row(table.row, table.handed, table.first),
        *next_turn(table.arrangement, table.active, seat),
        table.first,
    )
    util, policy, _ = mind.perform_model(
        seat, table.grid, card, table.next_cards(table.handed), then
    )
    return util, policy


def _type_index(mind: Mind, seat: int, mine: tuple[int, ...]) -> int:
    if mind.lay.kind[seat] is None:
        return 0
    return mind.lay.types(seat).index(mine)


def announcement(
    mind: Mind, table: Table, seat: int, mine: tuple[int, ...], named: Sequence[int]
) -> tuple[tuple[tuple[int, int], ...], float]:
    """The best claims (seat, condition 0-3 of its kind) for the seats in `named`, and the
    chance that the Announcement wins, as this seat sees it."""
    held = holding(table.grid)
    claims = []
    chance = 1.0
    for other in named:
        k = mind.lay.kind_of(other)
        if other == seat:
            win = own_win(mind, seat, mine)
            claims.append((other, win))
            chance *= 1.0 if held >> (win + 4 * k) & 1 else 0.0
            continue
        marg = mind.win_marginal(other, mine if mind.lay.kind[seat] is not None else None, seat)
        on = [m if held >> (c + 4 * k) & 1 else 0.0 for c, m in enumerate(m_ for m_ in marg)]
        best = max(range(4), key=lambda c: (on[c], marg[c]))
        claims.append((other, best))
        chance *= on[best]
    # the seats that answer must name this seat's win right, and it must hold
    if mind.lay.arrangement in ("pair", "teams") and mind.lay.kind[seat] is not None:
        k = mind.lay.kind_of(seat)
        win = own_win(mind, seat, mine)
        if not held >> (win + 4 * k) & 1:
            chance = 0.0
        else:
            responder = named[0]
            chance *= answer_chance(mind, table, seat, win, responder)
    return tuple(claims), chance


def own_win(mind: Mind, seat: int, mine: tuple[int, ...]) -> int:
    k = mind.lay.kind_of(seat)
    return next(
        c for c, pos in zip(mine, mind.lay.positions[seat], strict=True) if pos in mind.lay.wins[k]
    )


def answer_chance(mind: Mind, table: Table, seat: int, win: int, responder: int) -> float:
    """How likely the responder names `win` as this seat's win condition: it names the likeliest
    win of this seat that holds on the grid (it may not know its own cards' bearing here: in a
    pair the kinds are dealt apart, so its cards change nothing)."""
    held = holding(table.grid)
    k = mind.lay.kind_of(seat)
    marg = mind.win_marginal(seat, None, responder)
    on = [m if held >> (c + 4 * k) & 1 else 0.0 for c, m in enumerate(marg)]
    s = sum(on)
    if s <= 0:
        return 0.0
    q = on[win] / s
    best = max(range(4), key=lambda c: on[c])
    return (1.0 + q) / 2 if best == win else q


def respond(mind: Mind, table: Table, seat: int, mine: tuple[int, ...], announcer: int) -> int:
    held = holding(table.grid)
    k = mind.lay.kind_of(announcer)
    marg = mind.win_marginal(announcer, mine, seat)
    on = [m if held >> (c + 4 * k) & 1 else 0.0 for c, m in enumerate(marg)]
    if sum(on) > 0:
        return max(range(4), key=lambda c: on[c])
    return max(range(4), key=lambda c: marg[c])


def threshold(remaining: int) -> float:
    if remaining <= 0:
        return 0.0
    return {1: 0.35, 2: 0.55, 3: 0.7}.get(remaining, 0.85)


def _unused(*_: object) -> None:
    return None


__all__ = ["COLOUR", "PAIRS", "Table", "announcement", "choose_hand", "choose_perform", "respond"]
