"""Telepathic's audit at the end (pure): the condition cards every seat opens are checked
against the decks, its roles, the deals across devices and every "play on" it said.

The rules (`rules.py`) hand it the states of the game and the openings (`check_secrets`); a
lie found raises `CommitmentMismatch`, naming the seat (and the move, where there is one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from parlour.errors import CommitmentMismatch, MalformedInput
from parlour.fair import sealed_deal, sra
from parlour.fair.encoding import Json
from parlour.games.telepathic.grid import holds
from parlour.games.telepathic.state import CONDITIONS_LABEL, TeleState, conditions_problem


def check_conditions(states: Sequence[TeleState], opened: Mapping[tuple[int, str], Json]) -> None:
    """Each seat's condition cards, opened at the end or revealed in play, are cards its roles
    may hold, dealt as the deals say, and its "play on" was never said over a met lose
    condition; `CommitmentMismatch` names the first that is not."""
    final = states[-1]
    cards = {s: v for (s, label), v in opened.items() if label == CONDITIONS_LABEL}
    cards.update({s: v for s, v in final.revealed.items()})
    for seat, value in sorted(cards.items()):
        problem = conditions_problem(final, seat, value)
        if problem:
            raise CommitmentMismatch(problem, seat, final.sealed_at(seat))
    _check_shared(final, cards, opened)  # first: a false lock explains a repeat
    _check_dealing(final, cards)
    for before, after in pairwise(states):
        for seat in after.checked - before.checked:
            lose = cards.get(seat, {}).get("lose")
            if lose and holds(after.grid, lose):
                raise CommitmentMismatch(
                    f"{final.name(seat)} let play go on at move {after.ply} although their "
                    f"lose condition ({lose}) was met: the game was lost.",
                    seat,
                    after.ply,
                )


def _check_shared(
    final: TeleState,
    cards: Mapping[int, Mapping[str, str]],
    opened: Mapping[tuple[int, str], Json],
) -> None:
    """Online: replay every deal across devices with the opened locks; each seat's card of
    that kind must be the one it drew."""
    for label, raw in final.setup.shared.items():
        record = sealed_deal.read(raw)
        claimed = {
            seat: card
            for seat in record.seats
            for (kind, which) in final.roles(seat)
            if kind == label and (card := cards.get(seat, {}).get(which)) is not None
        }
        if isinstance(record, sealed_deal.SealedRecord):
            _check_sealed(final, record, claimed, opened, label)
            continue
        exponents = {}
        for seat in record.seats:
            lock = opened.get((seat, f"sra:{label}"))
            if lock is None:
                continue
            try:
                exponents[seat] = sra.number(lock)
            except MalformedInput:
                raise CommitmentMismatch(
                    f"{final.name(seat)}'s deal lock is not a number.", seat
                ) from None
        sra.check_deal(
            record, exponents, claimed, final.setup.seat_names, final.setup.match_id, label
        )


def _check_sealed(
    final: TeleState,
    record: sealed_deal.SealedRecord,
    claimed: Mapping[int, str],
    opened: Mapping[tuple[int, str], Json],
    label: str,
) -> None:
    """A deck dealt at one device: its locks the ones sealed at the start, its cards the ones
    its sealed secrets and the other devices' rows deal (`fair.sealed_deal`)."""
    setup = final.setup
    lock = f"sra:{label}"
    sealed_deal.check(
        record,
        {seat: opened[(seat, lock)] for seat in record.seats if (seat, lock) in opened},
        {seat: setup.precommitted(seat, lock) for seat in record.seats},
        claimed,
        setup.seat_names,
        (setup.match_id, label, sealed_deal.mixed_rows(record, setup.shared)),
    )


def _check_dealing(final: TeleState, cards: Mapping[int, Mapping[str, str]]) -> None:
    """Cards come from one deck per kind: no two seats can hold the same card."""
    seen: dict[str, int] = {}
    for seat, value in sorted(cards.items()):
        for card in value.values():
            if card in seen and seen[card] != seat:
                raise CommitmentMismatch(
                    f"{final.name(seat)} and {final.name(seen[card])} both hold {card}: "
                    "a card was dealt twice.",
                    seat,
                    final.sealed_at(seat),
                )
            seen[card] = seat
