"""A fast, fully known ESPEERS world for the bot's search: the engine's rules on plain lists.

The engine (`parlour.games.espeers.rules`) keeps commitments, events and an audit trail; a search
needs none of that, only the game. A `World` holds both hands, both decks in draw order and both
barrier cards, so it is only ever a *sample* of what a seat cannot see (`sampling.py` builds it
from the seat's view). The two steps a device takes by itself (answering a prediction, showing a
barrier that absorbed damage) happen inside `step` here; the other decisions are the engine's.

The end of a turn follows the engine: once the active player passes on an empty stack the Active
phase is over (discard down to six), then the opponent has a last Opportunity (Impulses and
cycling only; that pass counts as the first of two), and the turn ends when both have passed in a
row with nothing on the stack. Tests check the model against the engine.

Actions are small tuples: (PASS,), (PLAY, card), (CYCLE, card), (BARRIER, card), (ATTACK,),
(PREDICT, symbol or None), (ASSIGN, from_pool, from_spent), (DISCARD, cards). The game's numbers
are the engine's own (`state.py`).
"""

from __future__ import annotations

from typing import Any, Protocol

from parlour.games.espeers.cards import CARDS, CYCLING
from parlour.games.espeers.state import ATTACK_DAMAGE, BARRIER_PSI, HAND, START_PSI
from parlour.games.zener import Symbol

SYMBOLS = tuple(symbol.value for symbol in Symbol)

# A move: (kind, *arguments) as listed above. Its arguments differ by kind, and the search
# builds and reads millions of them, so it stays a plain tuple, typed loosely.
Move = tuple[Any, ...]
Pending = tuple[str, int, int]  # ("predict" | "assign" | "discard", seat, amount)


class Dice(Protocol):
    """What the bot draws random numbers from: `search.Fast`, or the match's `Rng`."""

    def below(self, n: int) -> int: ...


PASS, PLAY, CYCLE, BARRIER, ATTACK, PREDICT, ASSIGN, DISCARD = range(8)
PASS_ACTION: Move = (PASS,)
ATTACK_ACTION: Move = (ATTACK,)

# Card facts as flat tables (the search looks them up millions of times).
COST = {c: info.cost for c, info in CARDS.items()}
IS_PK = {c: info.kind == "PK" for c, info in CARDS.items()}
SYMBOL = {c: info.symbol for c, info in CARDS.items()}
EFFECTS = {c: info.effects for c, info in CARDS.items()}
DAMAGE = {c: sum(n for v, n in info.effects if v == "damage") for c, info in CARDS.items()}
CYCLE_EFFECT = {c: CYCLING[info.symbol] for c, info in CARDS.items()}
COUNTERS = {c for c, info in CARDS.items() if any(v == "counter" for v, _ in info.effects)}
PREVENTS = {c: sum(n for v, n in info.effects if v == "prevent") for c, info in CARDS.items()}
DRAINS = {c: sum(n for v, n in info.effects if v == "drain") for c, info in CARDS.items()}
REGAINS = {c: sum(n for v, n in info.effects if v == "regain") for c, info in CARDS.items()}
DRAWS = {c: sum(n for v, n in info.effects if v == "draw") for c, info in CARDS.items()}


class World:
    """One complete ESPEERS position (both sides' secrets included), mutable for speed."""

    __slots__ = (
        "active",
        "bar",
        "bturn",
        "deck",
        "discards",
        "ending",
        "hand",
        "opp",
        "passes",
        "pending",
        "pool",
        "queue",
        "resolving",
        "shield",
        "spent",
        "stack",
        "turn",
        "winner",
    )

    def __init__(self) -> None:
        self.pool = [START_PSI, START_PSI]
        self.spent = [0, 0]
        self.bar: list[str | None] = [None, None]  # the card under each barrier (2 PSI on it)
        self.bturn = [0, 0]  # the turn each barrier went down
        self.hand: list[list[str]] = [[], []]
        self.deck: list[list[str]] = [[], []]  # draw order: the next card is the LAST item
        self.discards = [0, 0]
        self.shield = [0, 0]
        self.stack: list[list[Any]] = []  # [owner, card, countered]
        self.queue: list[tuple[int, str, int]] = []
        self.resolving: int | None = None  # the owner of the card resolving, if any
        self.pending: Pending | None = None
        self.passes = 0
        self.opp = 0  # who holds Opportunity
        self.active = 0
        self.turn = 1
        self.winner: int | None = None
        self.ending = False  # the Active phase is over: the opponent's last Opportunity

    def copy(self) -> World:
        w = World.__new__(World)
        w.pool = self.pool[:]
        w.spent = self.spent[:]
        w.bar = self.bar[:]
        w.bturn = self.bturn[:]
        w.hand = [self.hand[0][:], self.hand[1][:]]
        w.deck = [self.deck[0][:], self.deck[1][:]]
        w.discards = self.discards[:]
        w.shield = self.shield[:]
        w.stack = [item[:] for item in self.stack]
        w.queue = self.queue[:]
        w.resolving = self.resolving
        w.pending = self.pending
        w.passes = self.passes
        w.opp = self.opp
        w.active = self.active
        w.turn = self.turn
        w.winner = self.winner
        w.ending = self.ending
        return w

    # -- reading -----------------------------------------------------------------------------

    def psi(self, seat: int) -> int:
        return self.pool[seat] + self.spent[seat] + (BARRIER_PSI if self.bar[seat] else 0)

    def to_move(self) -> int:
        return self.pending[1] if self.pending is not None else self.opp

    def legal(self) -> list[Move]:
        """The engine's legal actions for the seat to move (one Discard per distinct choice)."""
        if self.winner is not None:
            return []
        pending = self.pending
        if pending is not None:
            kind, seat, amount = pending
            if kind == "predict":
                return [(PREDICT, None)] + [(PREDICT, s) for s in SYMBOLS]
            if kind == "assign":
                pool, spent = self.pool[seat], self.spent[seat]
                return [
                    (ASSIGN, p, amount - p)
                    for p in range(amount + 1)
                    if p <= pool and amount - p <= spent
                ]
            return [(DISCARD, c) for c in discard_choices(self.hand[seat], amount)]
        seat = self.opp
        hand = self.hand[seat]
        out: list[Move] = [PASS_ACTION]
        pool = self.pool[seat]
        pk_ok = seat == self.active and not self.ending
        for card in sorted(set(hand)):
            if COST[card] <= pool and (pk_ok or not IS_PK[card]):
                out.append((PLAY, card))
            out.append((CYCLE, card))
        main = seat == self.active and not self.stack and not self.ending
        if main and self.bar[seat] is None and pool >= BARRIER_PSI and hand:
            out += [(BARRIER, card) for card in sorted(set(hand))]
        if main and self.bar[seat] is not None and self.bturn[seat] < self.turn:
            out.append(ATTACK_ACTION)
        return out

    # -- acting ------------------------------------------------------------------------------

    def step(self, action: Move) -> None:
        """Apply `action` for the seat to move (trusted: the search only plays legal ones)."""
        kind = action[0]
        pending = self.pending
        if pending is not None:
            self.pending = None
            seat = pending[1]
            if kind == PREDICT:
                symbol, card = action[1], self.bar[1 - seat]
                if symbol is not None and card is not None and SYMBOL[card] == symbol:
                    self._drop_barrier(1 - seat)
                return
            if kind == ASSIGN:
                self.pool[seat] -= action[1]
                self.spent[seat] -= action[2]
                self._check_loss(seat)
                self._run_queue()
                return
            hand = self.hand[seat]
            for card in action[1]:
                hand.remove(card)
            self.discards[seat] += len(action[1])
            self._after_discard()
            return
        seat = self.opp
        if kind == PASS:
            self._pass(seat)
        elif kind == PLAY:
            card = action[1]
            self.hand[seat].remove(card)
            cost = COST[card]
            self.pool[seat] -= cost
            self.spent[seat] += cost
            self.stack.append([seat, card, False])
            self.opp = 1 - seat
            self.passes = 0
        elif kind == CYCLE:
            card = action[1]
            self.hand[seat].remove(card)
            self.discards[seat] += 1
            self.passes = 0
            ability = CYCLE_EFFECT[card]
            if ability is not None:
                self._effect(seat, ability[0], ability[1])
        elif kind == BARRIER:
            card = action[1]
            self.hand[seat].remove(card)
            self.bar[seat] = card
            self.bturn[seat] = self.turn
            self.pool[seat] -= BARRIER_PSI
            self.passes = 0
            self.pending = ("predict", 1 - seat, 0)
        elif kind == ATTACK:
            self.passes = 0
            self._drop_barrier(seat)
            self._damage(1 - seat, ATTACK_DAMAGE)
        else:
            raise ValueError(f"not a move now: {action!r}")

    def _drop_barrier(self, seat: int) -> None:
        """The barrier is discarded face up; its points go to Spent."""
        self.bar[seat] = None
        self.spent[seat] += BARRIER_PSI
        self.discards[seat] += 1

    def _pass(self, seat: int) -> None:
        if not self.ending and not self.stack and seat == self.active:
            self.passes = 0  # the Active phase is over: Discard, then End
            self._end_active()
            return
        self.passes += 1
        if self.passes < 2:
            self.opp = 1 - seat
            return
        self.passes = 0
        if self.stack:
            self._resolve_top()
        else:
            self._next_turn()

    def _resolve_top(self) -> None:
        owner, card, countered = self.stack.pop()
        self.discards[owner] += 1
        self.resolving = owner
        if not countered:
            self.queue = [(owner, verb, n) for verb, n in EFFECTS[card]]
        self._run_queue()

    def _run_queue(self) -> None:
        queue = self.queue
        while queue and self.pending is None and self.winner is None:
            owner, verb, n = queue.pop(0)
            self._effect(owner, verb, n)
        if self.pending is None and self.winner is None and self.resolving is not None:
            self.opp = self.resolving
            self.resolving = None
            self.passes = 0

    def _effect(self, owner: int, verb: str, n: int) -> None:
        other = 1 - owner
        if verb == "damage":
            self._damage(other, n)
        elif verb == "drain":
            k = min(n, self.pool[other])
            self.pool[other] -= k
            self.spent[other] += k
        elif verb == "regain":
            k = min(n, self.spent[owner])
            self.pool[owner] += k
            self.spent[owner] -= k
        elif verb == "draw":
            self._draw(owner, n)
        elif verb == "prevent":
            self.shield[owner] += n
        elif verb == "counter":
            if self.stack:
                self.stack[-1][2] = True
        else:
            raise ValueError(verb)

    def _damage(self, target: int, n: int) -> None:
        prevented = min(self.shield[target], n)
        n -= prevented
        self.shield[target] -= prevented
        if n <= 0:
            return
        if self.bar[target] is not None:
            n -= min(BARRIER_PSI, n)
            self._drop_barrier(target)
            self._take(target, n)
            self._check_loss(target)
            return
        self._take(target, n)

    def _take(self, target: int, n: int) -> None:
        if n <= 0:
            return
        pool, spent = self.pool[target], self.spent[target]
        if n >= pool + spent:
            self.pool[target] = self.spent[target] = 0
            self._check_loss(target)
        elif pool == 0 or spent == 0:
            from_pool = min(n, pool)
            self.pool[target] = pool - from_pool
            self.spent[target] = spent - (n - from_pool)
        else:
            self.pending = ("assign", target, n)

    def _check_loss(self, seat: int) -> None:
        if self.winner is None and self.psi(seat) <= 0:
            self.winner = 1 - seat

    def _draw(self, seat: int, n: int) -> None:
        deck = self.deck[seat]
        if n > len(deck):
            self.hand[seat] += deck
            deck.clear()
            if self.winner is None:
                self.winner = 1 - seat
            return
        hand = self.hand[seat]
        for _ in range(n):
            hand.append(deck.pop())

    def _end_active(self) -> None:
        seat = self.active
        extra = len(self.hand[seat]) - HAND
        if extra > 0:
            self.pending = ("discard", seat, extra)
            return
        self._after_discard()

    def _after_discard(self) -> None:
        """End: the active player's pass counts as the first of two in a row."""
        self.ending = True
        self.passes = 1
        self.opp = 1 - self.active

    def _next_turn(self) -> None:
        nxt = 1 - self.active
        self.shield[0] = self.shield[1] = 0
        self.pool[nxt] += self.spent[nxt]
        self.spent[nxt] = 0
        self.active = self.opp = nxt
        self.turn += 1
        self.passes = 0
        self.ending = False
        self._draw(nxt, 1)


def discard_choices(hand: list[str], amount: int) -> list[tuple[str, ...]]:
    """Every distinct way to discard `amount` cards (sorted tuples, the engine's order)."""
    from itertools import combinations

    return list(dict.fromkeys(combinations(sorted(hand), amount)))
