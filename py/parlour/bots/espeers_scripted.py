"""A simple scripted ESPEERS player and the seeded simulation used to balance the starter decks.

The player sees only its own seat's view (its hand from its own store) and the public state. It
answers the opponent's PK with a counter or prevention when it can, attacks with the biggest PK
it can pay for, puts a barrier down when it has spare PSI, and otherwise passes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.espeers.cards import CARDS
from parlour.games.espeers.rules import (
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
from parlour.match.config import MatchConfig
from parlour.match.table import Table

ESPEERS = GAMES["espeers"]
MAX_STEPS = 5000
BOOSTS = ("focus", "second-wind", "quick-recall", "clairvoyance")


def _value(card: str) -> int:
    return sum(n for verb, n in CARDS[card].effects if verb == "damage")


def choose(table: Table, seat: int, rng: Rng):
    """One decision for `seat`, from what that seat may know."""
    state = table.state
    legal = table.legal(seat)
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    if isinstance(first, Mulligan):
        return Mulligan(True)
    if isinstance(first, Predict):
        return Predict(rng.choice(["circle", "cross", "waves", "square", "star"]))
    if isinstance(first, AssignDamage):
        return max(legal, key=lambda a: a.from_spent)  # keep the Pool to act with
    if isinstance(first, Discard):
        return first
    plays = [a for a in legal if isinstance(a, Play)]
    top = state.stack[-1] if state.stack else None
    if top is not None and top.owner != seat:
        if CARDS[top.card].kind == "PK" and _value(top.card) >= 2:
            for verb in ("counter", "prevent"):
                answers = [a for a in plays if any(v == verb for v, _ in CARDS[a.card].effects)]
                if answers:
                    return answers[0]
        return Pass()
    if seat != state.active or state.stack:
        return Pass()
    attacks = [a for a in legal if isinstance(a, BarrierAttack)]
    if attacks:
        return attacks[0]
    pk = sorted((a for a in plays if CARDS[a.card].kind == "PK"), key=lambda a: -_value(a.card))
    if pk:
        return pk[0]
    me = state.players[seat]
    barriers = [a for a in legal if isinstance(a, PlaceBarrier)]
    if barriers and me.pool >= 4:
        return barriers[0]
    boosts = [
        a for a in plays if a.card in ("focus", "second-wind", "quick-recall", "clairvoyance")
    ]
    if boosts and me.spent >= 2:
        return boosts[0]
    cycles = [a for a in legal if isinstance(a, Cycle) and CARDS[a.card].kind == "Impulse"]
    if cycles and me.hand > 4:
        return cycles[0]
    return Pass()


@dataclass
class Report:
    games: int
    wins_by_deck: Counter
    first_player_wins: int
    hung: int
    mean_turns: float

    def lines(self) -> list[str]:
        played = self.games - self.hung
        rates = {deck: n / played for deck, n in self.wins_by_deck.items()}
        return [
            f"{self.games} games, {self.hung} hung, {self.mean_turns:.1f} turns on average",
            *(f"  {deck}: wins {rate:.0%}" for deck, rate in sorted(rates.items())),
            f"  first player: wins {self.first_player_wins / played:.0%}",
        ]


def play_one(index: int, decks: list[str]) -> tuple[Table, bool]:
    config = MatchConfig("espeers", f"m-sim-{index:06d}", ("A", "B"), {"decks": decks})
    table = Table.new(ESPEERS, config, Rng(index.to_bytes(4, "big")).read(32), (0, 1))
    rng = Rng(b"espeers-sim" + index.to_bytes(4, "big"))
    for _ in range(MAX_STEPS):
        if table.match.result() is not None:
            return table, False
        seat = min(ESPEERS.to_move(table.state))
        store = table.stores[seat]
        action = ESPEERS.auto_action(table.state, seat, store) or choose(table, seat, rng)
        result = table.act(seat, action)
        if not result.ok:
            raise AssertionError(f"the scripted player chose an illegal action: {result.reason}")
    return table, True


def simulate(games: int = 400) -> Report:
    """Starter deck against starter deck, swapping seats every game; seeded, so repeatable."""
    wins: Counter = Counter()
    first_wins = hung = turns = 0
    for index in range(games):
        decks = ["onslaught", "mindwall"] if index % 2 == 0 else ["mindwall", "onslaught"]
        table, stuck = play_one(index, decks)
        if stuck:
            hung += 1
            continue
        winner = min(table.match.result().winners)
        wins[decks[winner]] += 1
        first_wins += winner == table.state.first
        turns += table.state.turn
    return Report(games, wins, first_wins, hung, turns / max(1, games - hung))


if __name__ == "__main__":
    for line in simulate().lines():
        print(line)
