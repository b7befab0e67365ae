"""A quick rule-of-thumb ESPEERS player on a `World`: the search's rollouts and the easy level.

It reads only what the seat to move may know in a real game (its own hand, the public counts and
the stack), with one exception kept honest: predicting a barrier's symbol, it names the symbol of
a random card among the opponent's unseen cards, which is a draw from the same belief a seat has.

Its habits: take damage from Spent (the Pool is what answers with), answer a PK that would hurt
with a counter or a prevention, counter a counter aimed at a card worth saving; in its own Active
phase attack with the barrier (then put a fresh one down), drain the opponent's Pool before
attacking, pop a barrier with a 1-damage card, then play the biggest PK it can pay for, put a
barrier down with its least useful card, free PSI with Second Wind or a star/square cycle when a
PK is stuck, and draw with what is left.
"""

from __future__ import annotations

from typing import Any

from parlour.bots.espeers.model import (
    ASSIGN,
    ATTACK_ACTION,
    BARRIER,
    COST,
    COUNTERS,
    CYCLE,
    CYCLE_EFFECT,
    DAMAGE,
    DISCARD,
    DRAINS,
    DRAWS,
    EFFECTS,
    IS_PK,
    PASS_ACTION,
    PLAY,
    PREDICT,
    PREVENTS,
    REGAINS,
    SYMBOL,
    Dice,
    Move,
    World,
)
from parlour.games.espeers.cards import CARDS, Card
from parlour.games.espeers.state import BARRIER_PSI, HAND

# How much a card is worth keeping in hand, roughly (discard and barrier choices), computed from
# what the card data declares, so a new card or a changed one is valued by what it does: any
# card is worth WORTH_CARD (it can be a barrier, cycled, discarded), a PK a little more (it is
# the way to win), and each point of an effect adds its WORTH. The numbers are the hand-set
# worths of the eighteen cards of 2026-11-26 fitted by least squares and rounded (8 of the 153
# pairs of cards changed order, none across TWO_CARDS; docs/bots-espeers.md).
WORTH_CARD = 1.0
WORTH_PK = 0.3
WORTH: dict[str, float] = {
    "damage": 0.6,
    "drain": 0.35,
    "regain": 0.3,
    "draw": 0.4,
    "prevent": 0.5,
    "counter": 1.6,
}


def worth(card: Card) -> float:
    """What holding `card` is worth, from its kind and its declared effects."""
    total = WORTH_CARD + (WORTH_PK if card.kind == "PK" else 0.0)
    return round(total + sum(WORTH.get(verb, 0.0) * n for verb, n in card.effects), 2)


VALUE: dict[str, float] = {card_id: worth(card) for card_id, card in CARDS.items()}

# The roles the player gives cards, read from the card data (an id-by-id list would go stale when
# a card changes): answers to a PK (counters, cheapest first; preventions, biggest first), the
# Impulses that draw, that only drain, that only regain, and the waves cards worth less than
# the two cards cycling them draws (below TWO_CARDS).
TWO_CARDS = 2.5
ANSWER_COUNTERS = tuple(sorted((c for c in COUNTERS if not IS_PK[c]), key=lambda c: (COST[c], c)))
PREVENTERS = tuple(
    sorted(
        (c for c in PREVENTS if PREVENTS[c] and not IS_PK[c]),
        key=lambda c: (-PREVENTS[c], COST[c], c),
    )
)
CANTRIP_PREVENTERS = tuple(c for c in PREVENTERS if DRAWS[c])  # a small prevention that draws
DRAWERS = tuple(
    sorted(
        (c for c in DRAWS if DRAWS[c] and not IS_PK[c] and c not in COUNTERS),
        key=lambda c: (-DRAWS[c], COST[c], c),
    )
)
DRAINERS = tuple(c for c in CARDS if not IS_PK[c] and {v for v, _ in EFFECTS[c]} == {"drain"})
REGAINERS = tuple(c for c in CARDS if not IS_PK[c] and {v for v, _ in EFFECTS[c]} == {"regain"})
REGAIN_DRAWERS = tuple(c for c in DRAWERS if REGAINS[c])  # e.g. Focus: free when Spent
CYCLE_FOR_CARDS = tuple(
    sorted(
        (c for c in CARDS if CYCLE_EFFECT[c] == ("draw", 2) and VALUE[c] < TWO_CARDS),
        key=lambda c: (VALUE[c], c),
    )
)


def value(card: str) -> float:
    return VALUE[card]


def least_useful(hand: list[str]) -> str:
    return min(hand, key=lambda c: (value(c), c))


def threat(w: World, seat: int, damage: int) -> int:
    """The damage that would reach `seat`'s PSI after its shield and barrier."""
    left = damage - w.shield[seat]
    if left <= 0:
        return 0
    if w.bar[seat] is not None:
        left -= min(BARRIER_PSI, left)
    return left


def choose(w: World, rng: Dice) -> Move:
    """The rule-of-thumb action for the seat to move. `rng` has `below(n)`."""
    pending = w.pending
    if pending is not None:
        kind, seat, amount = pending
        if kind == "assign":
            from_spent = min(amount, w.spent[seat])
            return (ASSIGN, amount - from_spent, from_spent)
        if kind == "predict":
            unseen = w.hand[1 - seat] + w.deck[1 - seat]
            return (PREDICT, SYMBOL[unseen[rng.below(len(unseen))]] if unseen else None)
        hand = sorted(w.hand[seat], key=lambda c: (value(c), c))
        return (DISCARD, tuple(sorted(hand[:amount])))
    seat = w.opp
    stack = w.stack
    if stack:
        top = stack[-1]
        if top[0] != seat:
            return respond(w, seat, top)
        return PASS_ACTION  # my own card on top: let it resolve
    if seat == w.active and not w.ending:
        return main_phase(w, seat)
    return off_turn(w, seat)


def respond(w: World, seat: int, top: list[Any]) -> Move:
    """The opponent's card is on top of the stack and `seat` may answer it."""
    _, card, countered = top
    if countered:
        return spare(w, seat)
    hand, pool = w.hand[seat], w.pool[seat]
    if IS_PK[card]:
        hurt = threat(w, seat, DAMAGE[card])
        lethal = hurt >= w.psi(seat)
        if hurt >= 2 or lethal or DAMAGE[card] >= 3:
            for answer in ANSWER_COUNTERS:
                if answer in hand and COST[answer] <= pool:
                    return (PLAY, answer)
        if hurt >= 2 or lethal:
            for answer in PREVENTERS:
                if answer in hand and COST[answer] <= pool:
                    return (PLAY, answer)
        if hurt >= 1:
            for answer in CANTRIP_PREVENTERS:
                if answer in hand and COST[answer] <= pool:
                    return (PLAY, answer)
        return spare(w, seat)
    if card in COUNTERS and len(w.stack) >= 2:
        below = w.stack[-2]
        if below[0] == seat and not below[2] and (IS_PK[below[1]] or value(below[1]) >= 2.5):
            for answer in ANSWER_COUNTERS:
                if answer in hand and COST[answer] <= pool:
                    return (PLAY, answer)
    return spare(w, seat)


def spare(w: World, seat: int) -> Move:
    """Nothing to answer: turn a weak waves card into two new ones, or Focus when it is free."""
    hand = w.hand[seat]
    if len(w.deck[seat]) > 6:
        for card in CYCLE_FOR_CARDS:
            if card in hand:
                return (CYCLE, card)
        for card in REGAIN_DRAWERS:
            if card in hand and COST[card] <= min(w.pool[seat], REGAINS[card], w.spent[seat]):
                return (PLAY, card)
    return PASS_ACTION


def main_phase(w: World, seat: int) -> Move:
    """`seat`'s own Active phase with an empty stack."""
    other = 1 - seat
    hand, pool, spent = w.hand[seat], w.pool[seat], w.spent[seat]
    can_attack = w.bar[seat] is not None and w.bturn[seat] < w.turn
    if can_attack and (
        (pool >= BARRIER_PSI and hand) or w.psi(other) <= 1 or w.bar[other] is not None
    ):
        return ATTACK_ACTION
    pks = [c for c in hand if IS_PK[c]]
    payable = [c for c in pks if COST[c] <= pool]
    if len(w.deck[seat]) > 6:
        for card in CYCLE_FOR_CARDS:  # a PK among them: only while they can counter it
            if card in hand and card not in DRAINERS and (not IS_PK[card] or w.pool[other] >= 1):
                return (CYCLE, card)
    for card in DRAINERS:
        if (
            card in hand
            and w.pool[other] >= 1
            and payable
            and pool >= COST[card] + min(COST[c] for c in payable)
        ):
            return (PLAY, card)
    if payable:
        if w.bar[other] is not None and w.shield[other] == 0:
            pops = [c for c in payable if DAMAGE[c] == 1]
            if pops and len(payable) > 1:
                return (PLAY, min(pops, key=lambda c: (COST[c], c)))
        best = max(payable, key=lambda c: (DAMAGE[c] + 0.5 * DRAINS[c], -COST[c], c))
        return (PLAY, best)
    if pks and spent >= 1:
        for card in REGAINERS + REGAIN_DRAWERS:
            if card in hand and COST[card] <= pool and COST[card] < REGAINS[card] + DRAWS[card]:
                return (PLAY, card)
        regains = [c for c in hand if SYMBOL[c] in ("star", "square") and not IS_PK[c]]
        if not regains and len(pks) > 1:
            regains = [c for c in pks if SYMBOL[c] in ("star", "square")]
        stuck = min(COST[c] for c in pks)
        if regains and pool + min(spent, 2) >= stuck:
            return (CYCLE, min(regains, key=lambda c: (value(c), c)))
    attackers = sum(1 for c in hand if IS_PK[c])
    if (
        w.bar[seat] is None
        and pool >= BARRIER_PSI
        and len(hand) >= 2
        and 2 * attackers >= len(hand)
    ):
        return (BARRIER, least_useful(hand))  # (a hand of answers has no card to spare)
    return draw_or_pass(w, seat)


def off_turn(w: World, seat: int) -> Move:
    """The opponent's turn with an empty stack: unspent Pool comes back at Refresh anyway."""
    other = 1 - seat
    hand, pool = w.hand[seat], w.pool[seat]
    for card in DRAINERS:
        if card in hand and pool >= COST[card] and w.pool[other] >= 1:
            return (PLAY, card)
    action = spare(w, seat)
    return draw_or_pass(w, seat) if action == PASS_ACTION else action


def draw_or_pass(w: World, seat: int) -> Move:
    hand, pool = w.hand[seat], w.pool[seat]
    if len(hand) < HAND + 1 and len(w.deck[seat]) > 8:
        for card in DRAWERS:
            if card in hand and COST[card] <= pool:
                return (PLAY, card)
        waves = [c for c in hand if CYCLE_EFFECT[c] == ("draw", 2) and value(c) < 2.0]
        if waves:
            return (CYCLE, waves[0])
    return PASS_ACTION
