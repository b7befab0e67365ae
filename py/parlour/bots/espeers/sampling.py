"""What a seat knows, and whole worlds sampled consistently with it (determinisation).

A seat sees its own hand and barrier card, its own deck LIST (in its own store), both discard
piles, the stack, and every count (hand, deck, PSI zones), and the match's set-up (public). It
does not see the opponent's hand or barrier card, nor either deck's order: its own order could
be worked out only from a private seed a player never looks at, so it is sampled too.

The opponent's deck list is the one the set-up declares for them (a starter, or a deck from the
deck builder chosen in pass-and-play). Online a player's own deck is sealed on their device:
then the list is inferred: each starter deck that holds every card the opponent has shown is a
candidate, weighted by how likely it makes the cards shown (hypergeometric weights); if none
does, the unseen cards are drawn from the two starter decks mixed. A barrier's card also
carries what the seat learnt from its own wrong predictions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import TypeVar

from parlour.bots.base import PublicStep
from parlour.bots.espeers.model import COST, DAMAGE, IS_PK, SYMBOL, Dice, World
from parlour.games.base import Setup
from parlour.games.espeers.cards import STARTER_DECKS, deck_list, resolve_deck
from parlour.games.espeers.state import BARRIER_PSI, SEALED, declared_decks
from parlour.games.espeers.views import PublicView, SeatView, as_public_view

T = TypeVar("T")

TRIES = 6  # samples of their hand, at most, before one that lets a PK through is accepted anyway
# Each answer held and affordable makes letting a PK through this likely (a person may keep a
# counter for a bigger threat, so not never).
ANSWERS = (("null-field", 0.35), ("psychic-rebuke", 0.6), ("mental-block", 0.6), ("feedback", 0.7))


@dataclass(frozen=True)
class Belief:
    """One seat's knowledge at one decision, ready to sample worlds from."""

    seat: int
    view: SeatView
    my_unseen: tuple[str, ...]  # my deck's cards not in hand, barrier, stack or discard
    their_pools: tuple[tuple[float, tuple[str, ...]], ...]  # (weight, their unseen cards)
    their_unseen: int  # their hand, barrier card and deck, counted
    not_symbols: frozenset[str]  # symbols their barrier card is known not to have
    passes: int
    ending: bool
    declined: tuple[tuple[int, int], ...] = ()  # (their Pool, damage) of PKs they let through

    def sample(self, rng: Dice) -> World:
        """One complete world consistent with the seat's knowledge. `rng` has `below(n)`."""
        view, me = self.view, self.seat
        them = 1 - me
        w = World()
        players = view["players"]
        for s in (0, 1):
            p = players[s]
            w.pool[s], w.spent[s], w.shield[s] = p["pool"], p["spent"], p["shield"]
            w.discards[s] = len(p["discard"])
            if p["barrier"] is not None:
                w.bturn[s] = p["barrier"]["turn"]
        w.stack = [[i["owner"], i["card"], i["countered"]] for i in view["stack"]]
        w.active, w.opp, w.turn = view["active"], view["opportunity"], view["turn"]
        w.passes, w.ending = self.passes, self.ending
        pending = view["pending"]
        if pending is not None and pending["kind"] in ("predict", "assign", "discard"):
            w.pending = (pending["kind"], pending["seat"], pending["amount"])
        # my side: the hand and barrier I hold, my unseen cards in a random order
        w.hand[me] = list(view["me"]["hand"])
        if players[me]["barrier"] is not None:
            w.bar[me] = view["me"]["barrier_card"] or self.my_unseen[0]
        deck = list(self.my_unseen)
        shuffle(deck, rng)
        w.deck[me] = deck[: players[me]["deck"]]
        # their side: a deck list by its weight, then hand, barrier and order at random
        cards = list(pick(self.their_pools, rng))
        shuffle(cards, rng)
        del cards[self.their_unseen :]  # a deck of their own: a random part of the mix
        if players[them]["barrier"] is not None:
            at = next((i for i, c in enumerate(cards) if SYMBOL[c] not in self.not_symbols), 0)
            w.bar[them] = cards.pop(at) if cards else "mind-spike"
        size = players[them]["hand"]
        for _ in range(TRIES):  # a hand that would have answered what they let through is rarer
            if rng.below(1 << 20) < (1 << 20) * self.plausibility(cards[:size]):
                break
            shuffle(cards, rng)
        w.hand[them] = cards[:size]
        w.deck[them] = cards[size : size + players[them]["deck"]]
        return w

    def plausibility(self, hand: list[str]) -> float:
        """How likely the opponent, holding `hand`, was to let through the PK cards it let
        through this turn (1 when it holds no answer it could pay for)."""
        odds = 1.0
        for pool, _damage in self.declined:
            for card, keep in ANSWERS:
                if card in hand and COST[card] <= pool:
                    odds *= keep
        return odds


def shuffle(items: list[T], rng: Dice) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def pick(pools: Sequence[tuple[float, tuple[str, ...]]], rng: Dice) -> tuple[str, ...]:
    if len(pools) == 1:
        return pools[0][1]
    total = sum(weight for weight, _ in pools)
    x = rng.below(1 << 30) / (1 << 30) * total
    for weight, cards in pools:
        x -= weight
        if x < 0:
            return cards
    return pools[-1][1]


def shown(view: PublicView, seat: int) -> Counter[str]:
    """The cards of `seat` everybody has seen: its discard pile and its cards on the stack."""
    seen = Counter(view["players"][seat]["discard"])
    seen.update(i["card"] for i in view["stack"] if i["owner"] == seat)
    return seen


def their_pools(
    seen: Counter[str], unseen: int, declared: Mapping[str, int] | None = None
) -> tuple[tuple[float, tuple[str, ...]], ...]:
    """The opponent's possible unseen cards, by deck list, with each list's weight: the deck
    the set-up declares for them when it names one (a starter, or a deck built in the
    deck builder, in pass-and-play), else every starter deck that fits what they showed."""
    pools: list[tuple[float, tuple[str, ...]]] = []
    decks = [declared] if declared is not None else [d["cards"] for d in STARTER_DECKS.values()]
    for counts in decks:
        if all(counts.get(c, 0) >= n for c, n in seen.items()):
            weight = 1.0
            for c, n in seen.items():
                weight *= comb(counts[c], n)
            rest = Counter(counts) - seen
            left = tuple(deck_list(dict(rest)))
            if len(left) == unseen:
                pools.append((weight, left))
    if pools:
        return tuple(pools)
    if declared is not None:  # what they showed is not in it (a damaged set-up): as if sealed
        return their_pools(seen, unseen)
    # A deck of their own: the unseen cards are a random part of both starter decks mixed.
    mixed: Counter[str] = Counter()
    for deck in STARTER_DECKS.values():
        mixed.update(deck["cards"])
    cards = deck_list(dict(mixed - seen))
    while len(cards) < unseen:
        cards += deck_list(dict(mixed))
    return ((1.0, tuple(cards)),)


def declared_deck(setup: Setup, seat: int) -> dict[str, int] | None:
    """The deck list the set-up declares for `seat` (public: it is the match's config), as
    card counts; None for a deck sealed on its player's device (online) or one not readable."""
    decks = declared_decks(setup.variant)
    choice = decks[seat] if seat < len(decks) else SEALED
    if choice == SEALED:
        return None
    try:
        return dict(Counter(resolve_deck(choice)))
    except ValueError:
        return None


def believe(
    seat: int,
    view: SeatView,
    my_deck: Sequence[str],
    history: Sequence[PublicStep],
    their_deck: Mapping[str, int] | None = None,
) -> Belief:
    """Everything `seat` knows at this decision, from its view, deck list and the history,
    and the opponent's deck list when the set-up declares it (`declared_deck`)."""
    them = 1 - seat
    players = view["players"]
    mine = Counter(my_deck)
    mine -= Counter(view["me"]["hand"])
    mine -= shown(view, seat)
    if view["me"]["barrier_card"] is not None and players[seat]["barrier"] is not None:
        mine -= Counter([view["me"]["barrier_card"]])
    seen = shown(view, them)
    p = players[them]
    unseen = p["hand"] + p["deck"] + (1 if p["barrier"] is not None else 0)
    return Belief(
        seat=seat,
        view=view,
        my_unseen=tuple(sorted(mine.elements())),
        their_pools=their_pools(seen, unseen, their_deck),
        their_unseen=unseen,
        not_symbols=frozenset(wrong_predictions(history, them) if p["barrier"] else ()),
        passes=passes_of(view, history),
        declined=declined(view, history, seat),
        ending=view["phase"] == "end",
    )


def passes_of(view: PublicView, history: Sequence[PublicStep]) -> int:
    """1 when the last action was a pass that handed Opportunity over (the next pass resolves
    the top card or ends the Active phase), else 0."""
    if not history or view["pending"] is not None:
        return 0
    last = history[-1]
    kind = last.action.get("type") if isinstance(last.action, dict) else None
    if kind == "discard" and view["phase"] == "end":
        return 1  # End begins with the active player's pass counted
    if kind != "pass":
        return 0
    before = as_public_view(last.before)
    same = len(before["stack"]) == len(view["stack"]) and before["turn"] == view["turn"]
    return 1 if same and last.seat != view["opportunity"] else 0


def declined(
    view: PublicView, history: Sequence[PublicStep], me: int
) -> tuple[tuple[int, int], ...]:
    """The PK cards of mine the opponent let through since it last drew (so every card in its
    hand now was in it then): its Pool then and the damage that would have reached it."""
    them = 1 - me
    deck = view["players"][them]["deck"]
    out = []
    for index in range(len(history) - 1, max(-1, len(history) - 60), -1):
        step = history[index]
        before = as_public_view(step.before)
        p = before["players"][them]
        if p["deck"] != deck or before["phase"] != "active":
            break
        action = step.action if isinstance(step.action, dict) else {}
        stack = before["stack"]
        if step.seat != them or action.get("type") != "pass" or not stack:
            continue
        top = stack[-1]
        if top["owner"] != me or top["countered"] or not IS_PK.get(top["card"], False):
            continue
        damage = DAMAGE[top["card"]] - p["shield"]
        if p["barrier"] is not None:
            damage -= BARRIER_PSI
        if damage >= 2 and p["pool"] >= 1:
            out.append((p["pool"], damage))
    return tuple(out)


def wrong_predictions(history: Sequence[PublicStep], owner: int) -> set[str]:
    """Symbols named against `owner`'s current barrier and answered wrong."""
    out: set[str] = set()
    for index in range(len(history) - 1, -1, -1):
        step = history[index]
        action = step.action if isinstance(step.action, dict) else {}
        kind = action.get("type")
        if step.seat == owner and kind == "barrier":
            break
        if step.seat == owner and kind == "answer" and not action.get("right"):
            guess = _guess_before(history, index)
            if guess:
                out.add(guess)
    return out


def _guess_before(history: Sequence[PublicStep], index: int) -> str | None:
    if index == 0:
        return None
    action = history[index - 1].action
    if isinstance(action, dict) and action.get("type") == "predict":
        return action.get("symbol")
    return None
