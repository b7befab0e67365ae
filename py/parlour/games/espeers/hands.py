"""ESPEERS's hidden hands: each seat's draw order, its hand replayed from its deck and the
public events, and the audit at the end that replays both hands again (pure).

A hand is never stored: the state records every event that touches a hand (`events`), and a
seat's own device rebuilds its hand from its own deck, which only it holds until the end
(`replay_hand`, for `Espeers.hand_of`). At the end both decks are opened, and the same walk
through the events checks that every card played, cycled, discarded or put under a barrier was
really in that hand, and that every barrier prediction was answered truly (`check_hands`, for
`Espeers.check_secrets`). One walk serves both, so the hand a player sees is the hand the audit
checks. This module is apart from the rules because it is the part that keeps hidden
information honest, and it needs nothing of the rules but the state and the card data.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence

from parlour.errors import CommitmentMismatch
from parlour.fair.commit import is_hex
from parlour.fair.encoding import Json
from parlour.fair.rng import Rng
from parlour.fair.store import PrivateStore
from parlour.games.espeers.cards import CARDS, deck_problem, resolve_deck
from parlour.games.espeers.state import (
    DECK_LABEL,
    DECK_SEED_BYTES,
    SEALED,
    EspeersState,
    Event,
    declared_decks,
)

PAST = {"play": "played", "cycle": "cycled", "discard": "discarded"}


def deck_order(deck: Mapping[str, Json], public_seed: bytes, mulligans: int) -> list[str]:
    """The owner's draw order: fixed by its committed seed and the public seed."""
    seed = hashlib.sha256(
        bytes.fromhex(deck["seed"]) + public_seed + mulligans.to_bytes(2, "big")
    ).digest()
    cards: list[str] = deck["cards"]
    return Rng(seed).shuffled(cards)


def is_barrier_label(label: str) -> bool:
    return label.startswith("barrier:")


def replay_hand(
    deck: Mapping[str, Json],
    seed: bytes,
    events: Sequence[Event],
    seat: int,
    store: PrivateStore | None = None,
) -> list[str]:
    """`seat`'s hand now, from its deck and the public events (and, from its store, the cards
    under its own barriers)."""
    barrier_cards = (
        {}
        if store is None
        else {label: store.value(label) for label in store.openings if is_barrier_label(label)}
    )
    hand, _ = _walk(deck, seed, events, seat, barrier_cards)
    return hand


def audit_hand(
    deck: Mapping[str, Json],
    seed: bytes,
    events: Sequence[Event],
    seat: int,
    barrier_cards: Mapping[str, Json],
) -> tuple[int, str] | None:
    """The first card that left the hand without being in it, or a false answer. A barrier card
    shown during the game (right prediction, damage absorbed, attack) is known from its event,
    though its seal is no longer closed at the end."""
    shown: dict[str, Json] = {}
    label: str | None = None
    for _, who, kind, detail in events:
        if who == seat and kind == "barrier" and isinstance(detail, str):
            label = detail
        elif who == seat and kind == "barrier-shown" and label is not None:
            shown[label] = detail
    _, problem = _walk(deck, seed, events, seat, {**shown, **barrier_cards})
    return problem


def check_hands(final: EspeersState, opened: Mapping[tuple[int, str], Json]) -> None:
    """Deal both opened decks again and check every card that left a hand was in it; raise
    `CommitmentMismatch` for the first breach. A deck not opened is skipped (unverified)."""
    for seat in (0, 1):
        deck = opened.get((seat, DECK_LABEL))
        if deck is None:
            continue
        sealed = final.sealed[seat]
        step = sealed[1] if sealed else None
        if (
            not isinstance(deck, dict)
            or deck_problem(deck.get("cards"))
            or not is_hex(deck.get("seed"), DECK_SEED_BYTES)
        ):
            raise CommitmentMismatch(f"{final.name(seat)}'s deck is not a legal deck.", seat, step)
        declared = declared_decks(final.setup.variant)[seat]
        if declared != SEALED and Counter(deck["cards"]) != Counter(resolve_deck(declared)):
            raise CommitmentMismatch(
                f"{final.name(seat)}'s deck is not the deck declared for the match.", seat, step
            )
        barrier_cards = {
            label: value
            for (s, label), value in opened.items()
            if s == seat and is_barrier_label(label)
        }
        problem = audit_hand(deck, final.seed, final.events, seat, barrier_cards)
        if problem:
            at, sentence = problem
            raise CommitmentMismatch(f"{final.name(seat)} {sentence}", seat, at)


def _walk(
    deck: Mapping[str, Json],
    seed: bytes,
    events: Sequence[Event],
    seat: int,
    barrier_cards: Mapping[str, Json],
) -> tuple[list[str], tuple[int, str] | None]:
    """Follow one seat's hand through the events; report the first card that was not in it."""
    mulligans, drawn = 0, 0
    order = deck_order(deck, seed, 0)
    hand: Counter[str] = Counter()
    for step, who, kind, detail in events:
        if who != seat:
            continue
        if kind == "mulligan" and isinstance(detail, int):
            mulligans, drawn, hand = detail, 0, Counter()
            order = deck_order(deck, seed, mulligans)
        elif kind == "draw" and isinstance(detail, int):
            hand.update(order[drawn : drawn + detail])
            drawn += detail
        elif kind in PAST and isinstance(detail, str):
            if hand[detail] <= 0:
                name = CARDS[detail].name
                return _listed(hand), (
                    step,
                    f"{PAST[kind]} {name}, which was not in their hand (move {step}).",
                )
            hand[detail] -= 1
        elif kind == "barrier" and isinstance(detail, str):
            if detail not in barrier_cards:
                continue  # still face down and not opened: nothing to check
            card = barrier_cards[detail]
            if not isinstance(card, str) or card not in CARDS:
                return _listed(hand), (
                    step,
                    f"put something that is not a card under a barrier (move {step}).",
                )
            if hand[card] <= 0:
                return _listed(hand), (
                    step,
                    f"put {CARDS[card].name} under a barrier without holding it (move {step}).",
                )
            hand[card] -= 1
        elif kind == "answer" and isinstance(detail, tuple):
            guess, said_right = detail
            label = _last_barrier(events, seat, step)
            shown = barrier_cards.get(label) if label is not None else None
            if isinstance(shown, str) and (CARDS[shown].symbol == guess) != said_right:
                return _listed(hand), (
                    step,
                    f"answered a prediction of {guess} falsely (move {step}).",
                )
    return _listed(hand), None


def _last_barrier(events: Sequence[Event], seat: int, step: int) -> str | None:
    label = None
    for s, who, kind, detail in events:
        if s > step:
            break
        if who == seat and kind == "barrier" and isinstance(detail, str):
            label = detail
    return label


def _listed(hand: Counter[str]) -> list[str]:
    return sorted(hand.elements())
