"""The ESPEERS bot levels: what each does with a seat's knowledge.

- easy: the rule-of-thumb player (`policy.py`) on one sampled world, so it sees only its own
  hand; it lets half of the opponent's cards through unanswered (at random), names a random
  symbol at a barrier and keeps any opening hand.
- medium and hard: determinised flat Monte Carlo (`search.py`) over the sensible legal actions,
  with the rule-of-thumb player finishing every playout; hard has about four times the playouts.
  Both name the likeliest symbol at a barrier and decide a mulligan by playouts too.

Decisions with one legal action (most of them: passing while the opponent acts) are answered at
once, and so are the ones with a clear answer (damage is always taken from Spent first).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from parlour.bots.base import SeatKnowledge
from parlour.bots.espeers import policy
from parlour.bots.espeers.model import (
    ASSIGN,
    ATTACK,
    BARRIER,
    COUNTERS,
    CYCLE,
    CYCLE_EFFECT,
    DISCARD,
    DRAWS,
    PASS,
    PLAY,
    PREDICT,
    PREVENTS,
    SYMBOL,
    SYMBOLS,
    Move,
    World,
)
from parlour.bots.espeers.sampling import Belief, believe, declared_deck, shuffle
from parlour.bots.espeers.search import Fast, best_action
from parlour.games.espeers.actions import (
    Action,
    AssignDamage,
    BarrierAttack,
    Cycle,
    Discard,
    Mulligan,
    Pass,
    PlaceBarrier,
    Play,
    Predict,
)
from parlour.games.espeers.state import DECK_LABEL, HAND
from parlour.games.espeers.views import as_seat_view


@dataclass(frozen=True)
class Level:
    search: bool
    playouts: int  # playouts per decision, spread over the candidates
    mulligan_playouts: int


LEVELS = {
    "easy": Level(search=False, playouts=0, mulligan_playouts=0),
    "medium": Level(search=True, playouts=160, mulligan_playouts=120),
    "hard": Level(search=True, playouts=640, mulligan_playouts=240),
}


def seed_int(seed: bytes) -> int:
    return int.from_bytes(seed[:8].ljust(8, b"\0"), "big")


def to_model(action: Action) -> Move:
    """The fast model's tuple for an engine action."""
    if isinstance(action, Pass):
        return (PASS,)
    if isinstance(action, Play):
        return (PLAY, action.card)
    if isinstance(action, Cycle):
        return (CYCLE, action.card)
    if isinstance(action, PlaceBarrier):
        return (BARRIER, action.card)
    if isinstance(action, BarrierAttack):
        return (ATTACK,)
    if isinstance(action, Predict):
        return (PREDICT, action.symbol)
    if isinstance(action, AssignDamage):
        return (ASSIGN, action.from_pool, action.from_spent)
    if isinstance(action, Discard):
        return (DISCARD, tuple(action.cards))
    raise ValueError(f"no model action for {action!r}")


def decide(knowledge: SeatKnowledge, seed: bytes, level: str) -> Action | None:
    """One decision for the seat, at `level`."""
    legal: list[Action] = list(knowledge.legal)
    if not knowledge.to_move or not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    spec = LEVELS[level]
    first = legal[0]
    if isinstance(first, AssignDamage):
        assigns = [a for a in legal if isinstance(a, AssignDamage)]
        return max(assigns, key=lambda a: a.from_spent)
    view = as_seat_view(knowledge.view)
    their_deck = declared_deck(knowledge.setup, 1 - knowledge.seat)
    belief = believe(knowledge.seat, view, my_deck(knowledge), knowledge.history, their_deck)
    rng = Fast(seed_int(seed))
    if isinstance(first, Predict):
        return predict(belief, legal, rng, level)
    if isinstance(first, Mulligan):
        return mulligan(belief, legal, spec, seed_int(seed))
    by_model = {to_model(a): a for a in legal}
    hint = policy.choose(belief.sample(rng), rng)
    if not spec.search:
        stack = view["stack"]
        theirs = bool(stack) and stack[-1]["owner"] != knowledge.seat
        if theirs and (PASS,) in by_model and rng.below(2) == 0:
            return by_model[(PASS,)]  # easy misses half the chances to answer a card
        return by_model.get(hint, legal[0])
    candidates = prune(belief, list(by_model), hint)
    if len(candidates) == 1:
        return by_model[candidates[0]]
    worlds: dict[int, World] = {}
    base = seed_int(seed)

    def world(i: int) -> World:
        if i not in worlds:
            worlds[i] = belief.sample(Fast(base ^ (i * 0x2545F4914F6CDD1D)))
        return worlds[i]

    choice = best_action(world, candidates, knowledge.seat, spec.playouts, base, prior=hint)
    return by_model[choice]


def my_deck(knowledge: SeatKnowledge) -> list[str]:
    store = knowledge.store
    if store is not None and DECK_LABEL in store:
        deck = store.value(DECK_LABEL)
        if isinstance(deck, dict) and isinstance(deck.get("cards"), list):
            return list(deck["cards"])
    return []


# -- pruning: actions that cannot help are not searched ---------------------------------------


def prune(belief: Belief, actions: list[Move], hint: Move | None = None) -> list[Move]:
    """The actions worth searching: drop those that never help (cycling a circle, regaining
    with nothing Spent, a counter with nothing to counter, a prevention in one's own turn), keep
    the two least useful cards for each kind of cycling and for a barrier, and six discards.
    `hint` (the rule-of-thumb choice) is always kept."""
    if actions[0][0] == DISCARD:
        ranked = sorted(actions, key=lambda a: (sum(policy.value(c) for c in a[1]), a[1]))[:6]
        return ranked + ([hint] if hint in actions and hint not in ranked else [])
    view, me = belief.view, belief.seat
    spent = view["players"][me]["spent"]
    active = view["active"] == me
    stack = view["stack"]
    answerable = bool(stack) and stack[-1]["owner"] != me and not stack[-1]["countered"]
    out: list[Move] = []
    barriers: list[Move] = []
    draws: list[Move] = []
    regains: list[Move] = []
    for action in actions:
        kind = action[0]
        if kind == CYCLE:
            effect = CYCLE_EFFECT[action[1]]
            if effect is None or (effect[0] == "regain" and spent == 0):
                continue
            (draws if effect[0] == "draw" else regains).append(action)
            continue
        if kind == BARRIER:
            barriers.append(action)
            continue
        if kind == PLAY:
            card = action[1]
            if card in COUNTERS and not answerable:
                continue  # nothing of theirs to counter
            if PREVENTS[card] and not DRAWS[card] and active:
                continue  # nobody can damage the active player
            if card in policy.REGAINERS and spent == 0:
                continue
        out.append(action)
    for group in (draws, regains, barriers):
        out += least_useful_first(group)[:2]
    if hint is not None and hint in actions and hint not in out:
        out.append(hint)
    return out or actions[:1]


def least_useful_first(group: list[Move]) -> list[Move]:
    """One action per symbol, the least useful card first."""
    best: dict[str, Move] = {}
    for action in sorted(group, key=lambda a: (policy.value(a[1]), a[1])):
        best.setdefault(SYMBOL[action[1]], action)
    return sorted(best.values(), key=lambda a: (policy.value(a[1]), a[1]))


# -- the decisions that are not searched ---------------------------------------------------


def predict(belief: Belief, legal: list[Action], rng: Fast, level: str) -> Action:
    """Name the symbol most likely under their barrier (easy: a random symbol)."""
    if level == "easy":
        return Predict(SYMBOLS[rng.below(len(SYMBOLS))])
    weights: dict[str, float] = {}
    total = sum(w for w, _ in belief.their_pools)
    for weight, cards in belief.their_pools:
        counts = Counter(SYMBOL[c] for c in cards if SYMBOL[c] not in belief.not_symbols)
        size = sum(counts.values()) or 1
        for symbol, n in counts.items():
            weights[symbol] = weights.get(symbol, 0.0) + weight / total * n / size
    if not weights:
        return Predict(SYMBOLS[rng.below(len(SYMBOLS))])
    symbol = max(SYMBOLS, key=lambda s: (weights.get(s, 0.0), -SYMBOLS.index(s)))
    return Predict(symbol)


def mulligan(belief: Belief, legal: list[Action], spec: Level, seed: int) -> Action:
    """Keep, or shuffle the hand away: decided by playouts from the first turn (easy keeps)."""
    keep = Mulligan(True)
    if not spec.search or Mulligan(False) not in legal:
        return keep
    view, me = belief.view, belief.seat
    if view["players"][me]["mulligans"] >= 1:
        return keep  # a further mulligan costs PSI: not worth it in practice

    def world(i: int) -> World:
        w = belief.sample(Fast(seed ^ (i * 0x2545F4914F6CDD1D)))
        w.pending = None
        w.opp = w.active
        return w

    def apply(w: World, choice: Move) -> None:
        if choice[1]:
            return
        cards = w.hand[me] + w.deck[me]
        shuffle(cards, Fast(seed ^ hash_cards(w.deck[me])))
        w.deck[me] = cards[HAND:]
        w.hand[me] = cards[:HAND]

    choice = best_action(world, [(0, True), (0, False)], me, spec.mulligan_playouts, seed, apply)
    return Mulligan(choice[1])


def hash_cards(cards: list[str]) -> int:
    """A stable number for a list of cards (Python's own hash of a str varies per process)."""
    h = 1469598103934665603
    for card in cards:
        for ch in card.encode():
            h = ((h ^ ch) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h
