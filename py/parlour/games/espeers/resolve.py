"""ESPEERS's resolution: what the top card of the stack does once both players have passed, its
effects one by one (PSI drained or regained, damage through prevention and a barrier, cards
drawn, a card countered) and the loss they can bring (pure).

These are functions of the state alone, with the two small steps every change is made of
(`set_player`, `add_event`). The rules (`rules.py`) start a resolution, and take single effects
from here too (a cycling ability, a barrier's attack, the turn's draw); the decisions a
resolution can stop for (`decisions.py`: a barrier shown, damage assigned) resume it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from parlour.errors import MalformedInput
from parlour.games.base import Outcome, Termination
from parlour.games.espeers.cards import CARDS, DECK_SIZE
from parlour.games.espeers.state import EspeersState, EventDetail, Pending
from parlour.words import Named


def set_player(state: EspeersState, seat: int, **changes: Any) -> EspeersState:
    """The state with `seat`'s player changed as `changes` says."""
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=(players[0], players[1]))


def add_event(
    state: EspeersState, seat: int, kind: str, detail: EventDetail = None
) -> EspeersState:
    """The state with an event that touches `seat`'s hand recorded (`hands.py` replays them)."""
    return replace(state, events=(*state.events, (state.ply, seat, kind, detail)))


def resolve_top(state: EspeersState) -> EspeersState:
    """The top card leaves the stack for its owner's discard pile; its effects, unless it was
    countered, go in the queue and resolve."""
    item = state.stack[-1]
    state = replace(state, stack=state.stack[:-1], resolving=item)
    owner = state.players[item.owner]
    state = set_player(state, item.owner, discard=(*owner.discard, item.card))
    if not item.countered:
        effects = tuple((item.owner, verb, n) for verb, n in CARDS[item.card].effects)
        state = replace(state, queue=effects)
    return run_queue(state)


def run_queue(state: EspeersState) -> EspeersState:
    """Resolve the queued effects until none is left, a decision is awaited or the game is over;
    then Opportunity goes back to the resolved card's owner."""
    while state.queue and state.pending is None and state.outcome is None:
        (owner, verb, n), rest = state.queue[0], state.queue[1:]
        state = effect(replace(state, queue=rest), owner, verb, n)
    if state.pending is None and state.outcome is None and state.resolving is not None:
        owner = state.resolving.owner
        state = replace(state, resolving=None, opportunity=owner, passes=0)
    return state


def effect(state: EspeersState, owner: int, verb: str, n: int) -> EspeersState:
    """One effect of `owner`'s card or cycling ability: its verb and its number."""
    other = 1 - owner
    me, them = state.players[owner], state.players[other]
    if verb == "damage":
        return damage(state, other, n)
    if verb == "drain":
        k = min(n, them.pool)
        return set_player(state, other, pool=them.pool - k, spent=them.spent + k)
    if verb == "regain":
        k = min(n, me.spent)
        return set_player(state, owner, pool=me.pool + k, spent=me.spent - k)
    if verb == "draw":
        return draw(state, owner, n)
    if verb == "prevent":
        return set_player(state, owner, shield=me.shield + n)
    if verb == "counter":
        if state.stack:  # the suspended card just below the resolving one
            top = replace(state.stack[-1], countered=True)
            return replace(state, stack=(*state.stack[:-1], top))
        return state
    raise MalformedInput(f"Unknown effect {verb!r}.")


def damage(state: EspeersState, target: int, n: int) -> EspeersState:
    """n damage to `target`: prevention first, then a barrier, then the PSI itself."""
    p = state.players[target]
    prevented = min(p.shield, n)
    n -= prevented
    state = set_player(state, target, shield=p.shield - prevented)
    if n <= 0:
        return state
    p = state.players[target]
    if p.barrier is not None:
        # The barrier prevents up to its points of this damage; the points it used and the
        # points left on it all go to Spent (the text: "rather than being removed from play").
        n -= min(p.barrier.points, n)
        state = set_player(
            state,
            target,
            barrier=replace(p.barrier, points=0),
            spent=p.spent + p.barrier.points,
        )
        state = replace(state, pending=Pending("reveal-barrier", target, n))
        return state  # the rest of the damage follows once the barrier is shown
    return take(state, target, n)


def take(state: EspeersState, target: int, n: int) -> EspeersState:
    """Remove n PSI from the game; the damaged player chooses the zones when it matters."""
    p = state.players[target]
    if n <= 0:
        return state
    if n >= p.pool + p.spent:
        state = set_player(state, target, pool=0, spent=0)
        return check_loss(state, target)
    if p.pool == 0 or p.spent == 0 or n == 0:
        from_pool = min(n, p.pool)
        return set_player(state, target, pool=p.pool - from_pool, spent=p.spent - (n - from_pool))
    return replace(state, pending=Pending("assign", target, n))


def check_loss(state: EspeersState, seat: int) -> EspeersState:
    """`seat` loses when it has no PSI left."""
    if state.players[seat].psi > 0:
        return state
    reason = f"{Named(state.name(seat)):has} no PSI left."
    return replace(state, outcome=Outcome(Termination.WIN, frozenset({1 - seat}), reason))


def draw(state: EspeersState, seat: int, n: int) -> EspeersState:
    """`seat` draws n cards; drawing from an empty deck loses."""
    p = state.players[seat]
    if p.drawn + n > DECK_SIZE:
        reason = f"{Named(state.name(seat)):must} draw from an empty deck."
        state = set_player(state, seat, drawn=DECK_SIZE, hand=p.hand + p.deck)
        return replace(state, outcome=Outcome(Termination.WIN, frozenset({1 - seat}), reason))
    state = set_player(state, seat, drawn=p.drawn + n, hand=p.hand + n)
    return add_event(state, seat, "draw", n)
