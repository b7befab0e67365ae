"""What every seat can work out from the public record: a belief over everybody's condition
cards, updated by a model of rational players.

The hidden cards are two pairs: the colour pair (the two colour cards dealt, in the order of the
arrangement's colour slots) and the shape pair, twelve ordered pairs each, so 144 worlds
(`worlds.py` lays them out). A seat knows the cards of its own slots (its *type*); everything
else it believes. The belief is public: each seat's choices are modelled as depending on its own
cards and on what the record shows, and the record is the same for everybody, so every seat
computes the same belief about every seat, and a seat can tell how its partner reads its own
moves. Nothing here is agreed in advance: the model only assumes that a player wants to win and
chooses sensibly.

The model of a choice (handing a card, choosing a set): a player of type t values each option by
the grid it leads to, averaged over the worlds it thinks possible (`values`); a literal reader
would take the option as a softmax-rational choice of that value; a thoughtful player also
prefers the option that lets that reader see its own cards (the Rational Speech Acts idea); the
record is read by inverting that thoughtful player.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from parlour.bots.telepathic import model
from parlour.bots.telepathic.model import Grid, holding, reach
from parlour.bots.telepathic.worlds import COLOUR, PAIRS, SLOTS, Layout, layout

BITS = tuple(bin(m).count("1") for m in range(256))
# What comes after a set is performed, for a deeper look: the row once the card is used, the
# next hander and receiver, and whether it is a first game (see `Mind.perform_model`).
Then = tuple[tuple[int | None, ...], int, int, bool]
# A model of a choice, per type of the chooser, per option (see `Mind.choice`).
PerType = list[list[float]]


@dataclass(frozen=True)
class Weights:
    """How a player values a grid, and how sharply it chooses (tuned by self-play)."""

    hold: float = 0.6  # each win condition on the grid
    both: float = 1.2  # every win condition at once
    near: float = 0.6  # every win condition one move away, safely
    part: float = 0.25  # each win condition one move away, safely
    loss: float = 0.0  # a lose condition on the grid (the floor)
    beta: float = 6.0  # a player's softmax sharpness
    speak: float = 0.15  # how much a player cares that its choice shows its cards
    hand_beta: float = 6.0
    deep: bool = False  # value a set one hand-over further on (the next card and its set)
    selfish: float = 0.3  # how likely a reader thinks a player minds only its own cards
    selfish_hand: float = 0.3  # the same, when a hander foresees the receiver's set
    noise: float = 0.0  # how often a reader allows a choice made for no reason at all
    clutter: float = 0.25  # each condition on the grid that is nobody's card (it blurs a reading)


WEIGHTS = Weights()


# Remembered grid values (a few thousand: a game visits fewer; the page's memory stays small).
VALUES_KEPT = 4000
_VALUES: dict[tuple[str, Grid, tuple[int, ...], Weights], tuple[tuple[float, ...], ...]] = {}
_OWN_VALUES: dict[tuple[str, int, Grid, tuple[int, ...], Weights], tuple[float, ...]] = {}


def _keep_values() -> None:
    """Forget every remembered value once there are more than VALUES_KEPT."""
    if len(_VALUES) + len(_OWN_VALUES) > VALUES_KEPT:
        _VALUES.clear()
        _OWN_VALUES.clear()


def values(
    lay: Layout, grid: Grid, cards: tuple[int, ...], w: Weights = WEIGHTS
) -> tuple[tuple[float, ...], ...]:
    """Per team, per world: what the grid is worth to a player who knew every card."""
    key = (lay.arrangement, grid, cards, w)
    found = _VALUES.get(key)
    if found is not None:
        return found
    held = holding(grid)
    near = reach(grid, cards) if cards else ()
    teams = len(lay.goals[0])
    out: list[list[float]] = [[] for _ in range(teams)]
    memo: dict[tuple[int, int], float] = {}
    for world in lay.goals:
        for t, goal in enumerate(world):
            v = memo.get(goal)
            if v is None:
                v = memo[goal] = _value(held, near, goal[0], goal[1], w)
            out[t].append(v)
    found = tuple(tuple(o) for o in out)
    _keep_values()
    _VALUES[key] = found
    return found


def own_values(
    lay: Layout, seat: int, grid: Grid, cards: tuple[int, ...], w: Weights
) -> tuple[float, ...]:
    """Per world: what the grid is worth to a seat that thinks only of its own cards."""
    key = (lay.arrangement, seat, grid, cards, w)
    found = _OWN_VALUES.get(key)
    if found is None:
        held = holding(grid)
        near = reach(grid, cards) if cards else ()
        plain = replace(w, clutter=0.0)
        memo: dict[tuple[int, int], float] = {}
        out = []
        for goal in lay.own_goals[seat]:
            v = memo.get(goal)
            if v is None:
                v = memo[goal] = _value(held, near, goal[0], goal[1], plain)
            out.append(v)
        found = tuple(out)
        _keep_values()
        _OWN_VALUES[key] = found
    return found


def _value(held: int, near: Sequence[int], win: int, lose: int, w: Weights) -> float:
    if held & lose:
        return w.loss
    v = 1.0 + w.hold * BITS[held & win] - w.clutter * BITS[held & ~win]
    if held & win == win:
        return v + w.both
    safe = 0
    for m in near:
        if not m & lose:
            if m & win == win:
                return v + w.near
            safe |= m
    return v + w.part * BITS[safe & win & ~held]


def softmax(row: Sequence[float], beta: float) -> list[float]:
    top = max(row)
    e = [math.exp(beta * (x - top)) for x in row]
    s = sum(e)
    return [x / s for x in e]


def normalised(b: Sequence[float]) -> list[float]:
    s = sum(b)
    if s <= 0:
        return [1.0 / len(b)] * len(b)
    return [x / s for x in b]


def next_turn(arrangement: str, active: int, performer: int) -> tuple[int, int]:
    """Who hands the next card, and to whom, once `performer` has performed this one."""
    if arrangement == "pair":
        return performer, 1 - performer
    if arrangement == "director":
        return 0, 3 - performer
    nxt = (active + 1) % 4
    return nxt, (nxt - 1) % 4 if arrangement == "four" else (nxt + 2) % 4


def after_row(row: Sequence[int | None], handed: int, first: bool) -> tuple[int | None, ...]:
    """The face-up row once the handed card is used (its replacement is not known yet)."""
    return tuple(row) if first else tuple(None if i == handed else c for i, c in enumerate(row))


class Mind:
    """The public belief of a match, step by step (`hand`, `perform`), and the model of every
    seat's choices that it is read with."""

    def __init__(self, arrangement: str, seats: int, weights: Weights = WEIGHTS) -> None:
        self.lay = layout(arrangement, seats)
        self.w = weights
        self.belief: list[list[float]] = [[1.0 / 12] * 12, [1.0 / 12] * 12]

    def copy(self) -> Mind:
        other = Mind.__new__(Mind)
        other.lay, other.w = self.lay, self.w
        other.belief = [list(self.belief[0]), list(self.belief[1])]
        return other

    # -- a seat's point of view ------------------------------------------------------------

    def expect(self, seat: int, per_world: Sequence[float]) -> list[float]:
        """For each type of `seat`: the mean of `per_world` over the worlds it thinks possible."""
        k = self.lay.kind[seat]
        k = COLOUR if k is None else k
        mine, other = self.belief[k], self.belief[1 - k]
        so = sum(other) or 1.0
        if k == COLOUR:
            u = [
                sum([o * x for o, x in zip(other, per_world[12 * p : 12 * p + 12], strict=True)])
                for p in range(12)
            ]
        else:
            u = [
                sum([o * x for o, x in zip(other, per_world[p::12], strict=True)])
                for p in range(12)
            ]
        out = []
        for group in self.lay.members[seat] if self.lay.kind[seat] is not None else [range(12)]:
            s = sum(mine[p] for p in group)
            out.append(sum(mine[p] * u[p] for p in group) / (s * so) if s > 0 else 0.0)
        return out

    def type_prior(self, seat: int) -> list[float]:
        k = self.lay.kind[seat]
        if k is None:
            return [1.0]
        b = self.belief[k]
        return normalised([sum(b[p] for p in group) for group in self.lay.members[seat]])

    # -- the model of a choice -------------------------------------------------------------

    def choice(self, seat: int, q: list[list[float]], beta: float) -> tuple[PerType, PerType]:
        """q[option][type] -> (utility[type][option], policy[type][option]) of a thoughtful
        player: value plus how well a literal reader would then see its type."""
        types = len(q[0])
        prior = self.type_prior(seat)
        lit = [softmax([q[a][t] for a in range(len(q))], beta) for t in range(types)]
        util, policy = [], []
        posts = []
        for a in range(len(q)):
            col = [prior[t] * lit[t][a] for t in range(types)]
            s = sum(col) or 1.0
            posts.append([c / s for c in col])
        for t in range(types):
            row = [q[a][t] + self.w.speak * math.log(max(posts[a][t], 1e-6)) for a in range(len(q))]
            util.append(row)
            policy.append(softmax(row, beta))
        return util, policy

    def perform_model(
        self,
        seat: int,
        grid: Grid,
        card: int,
        nxt: tuple[int, ...],
        then: Then | None = None,
    ) -> tuple[PerType, PerType, list[tuple[float, ...]]]:
        """The performer's utility and policy over the card's four sets, per performer type,
        and the per-world values of the four grids. With `then` (the row after this card, the
        next hander and receiver, first game or not) and `Weights.deep`, a set is valued one
        hand-over further on."""
        team = self.lay.team[seat]
        per = [values(self.lay, model.after(grid, card, k), nxt, self.w)[team] for k in range(4)]
        if self.w.deep and then is not None and any(c is not None for c in then[0]):
            q = self._deeper(seat, grid, card, then)
        else:
            q = [self.expect(seat, v) for v in per]
        util, policy = self.choice(seat, q, self.w.beta)
        return util, policy, per

    def _deeper(self, seat: int, grid: Grid, card: int, then: Then) -> list[list[float]]:
        row, hander, receiver, first = then
        team = self.lay.team[seat]
        goals = self.lay.goals
        loss = self.w.loss
        q = []
        for k in range(4):
            after = model.after(grid, card, k)
            held = holding(after)
            lost = [bool(held & goals[w][team][1]) for w in range(144)]
            slots, mixed = self.responses(receiver, after, row, first, team)
            if hander == seat:
                best: list[float] | None = None
                for m in mixed:
                    e = self.expect(seat, [loss if lost[w] else m[w] for w in range(144)])
                    best = e if best is None else [max(a, b) for a, b in zip(best, e, strict=True)]
                q.append(best or [])
                continue
            _, _, policy = self.hand_model(hander, receiver, after, row, first)
            htype = self.lay.world_type[hander]
            combined = [
                loss
                if lost[w]
                else sum(policy[htype[w]][i] * mixed[i][w] for i in range(len(slots)))
                for w in range(144)
            ]
            q.append(self.expect(seat, combined))
        return q

    def hand_model(
        self, seat: int, receiver: int, grid: Grid, row: Sequence[int | None], first: bool
    ) -> tuple[list[int], PerType, PerType]:
        """The hander's utility and policy over the face-up cards (slots), per hander type."""
        slots, mixed = self.responses(receiver, grid, row, first, self.lay.team[seat])
        q = [self.expect(seat, m) for m in mixed]
        util, policy = self.choice(seat, q, self.w.hand_beta)
        return slots, util, policy

    def responses(
        self, receiver: int, grid: Grid, row: Sequence[int | None], first: bool, team: int
    ) -> tuple[list[int], list[list[float]]]:
        """For each face-up card (slot): per world, what the grid is worth to `team` once the
        receiver has performed it as the model expects."""
        slots = [i for i, c in enumerate(row) if c is not None]
        rtype = self.lay.world_type[receiver]
        out = []
        for slot in slots:
            card = row[slot]
            assert card is not None  # (a slot holds a card)
            nxt = tuple(c for i, c in enumerate(row) if c is not None and (first or i != slot))
            _, policy, per = self.perform_model(receiver, grid, card, nxt)
            if self.w.selfish_hand > 0:
                policy = self.mixed_policy(receiver, grid, card, nxt, policy, self.w.selfish_hand)
            if team != self.lay.team[receiver]:
                per = [
                    values(self.lay, model.after(grid, card, k), nxt, self.w)[team]
                    for k in range(4)
                ]
            v0, v1, v2, v3 = per
            mixed = []
            for world in range(144):
                p0, p1, p2, p3 = policy[rtype[world]]
                mixed.append(p0 * v0[world] + p1 * v1[world] + p2 * v2[world] + p3 * v3[world])
            out.append(mixed)
        return slots, out

    # -- reading the record ----------------------------------------------------------------

    def mixed_policy(
        self,
        seat: int,
        grid: Grid,
        card: int,
        nxt: tuple[int, ...],
        policy: PerType,
        m: float,
    ) -> PerType:
        """A thoughtful player's set policy mixed with a self-minded one's, in share `m`."""
        if m <= 0 or self.lay.kind[seat] is None:
            return policy
        own = [
            self.expect(seat, own_values(self.lay, seat, model.after(grid, card, k), nxt, self.w))
            for k in range(4)
        ]
        mixed = []
        for t in range(len(own[0])):
            alone = softmax([own[k][t] for k in range(4)], self.w.beta)
            mixed.append([(1 - m) * policy[t][k] + m * alone[k] for k in range(4)])
        return mixed

    def read_perform(
        self,
        seat: int,
        grid: Grid,
        card: int,
        nxt: tuple[int, ...],
        then: Then | None,
        policy: PerType,
        index: int,
    ) -> None:
        """Update on a set chosen: a thoughtful player's policy, mixed with that of a player who
        minds only its own cards (`Weights.selfish`), then rule out what the new grid shows."""
        policy = self.mixed_policy(seat, grid, card, nxt, policy, self.w.selfish)
        self.observe(seat, policy, index)
        self.rule_out(model.after(grid, card, index))

    def observe(self, seat: int, policy: list[list[float]], option: int) -> None:
        k = self.lay.kind[seat]
        if k is None:
            return
        index = self.lay.type_index[seat]
        b = self.belief[k]
        noise = self.w.noise
        for p in range(12):
            row = policy[index[p]]
            b[p] *= (1 - noise) * row[option] + noise / len(row)
        self.belief[k] = normalised(b)

    def rule_out(self, grid: Grid) -> None:
        """The game went on: no lose condition holds on this grid."""
        held = holding(grid)
        for k, pair_slots in enumerate(SLOTS[self.lay.arrangement]):
            loses = [pos for pos, (_, w) in enumerate(pair_slots) if w == "lose"]
            if not loses:
                continue
            b = self.belief[k]
            for p in range(12):
                if any(held >> (PAIRS[p][pos] + 4 * k) & 1 for pos in loses):
                    b[p] = 0.0
            self.belief[k] = normalised(b)

    # -- marginals -------------------------------------------------------------------------

    def win_marginal(self, seat: int, given: tuple[int, ...] | None, observer: int) -> list[float]:
        """P(seat's win card = each of its kind's four), as `observer` (of type `given`)
        believes it."""
        k = self.lay.kind_of(seat)
        pos = next(p for p in self.lay.positions[seat] if p in self.lay.wins[k])
        b = list(self.belief[k])
        if given is not None and self.lay.kind[observer] == k:
            b = [x if self.lay.type_of(observer, p) == given else 0.0 for p, x in enumerate(b)]
        out = [0.0] * 4
        for p, x in enumerate(b):
            out[PAIRS[p][pos]] += x
        return normalised(out)
