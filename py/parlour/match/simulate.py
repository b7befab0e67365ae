"""Whole matches played by policies on one device: balance figures and no-hang checks.

`python -m parlour.match.simulate` prints the ESPEERS starter decks' balance (seeded, so the
figures in docs/espeers-cards.md can be reproduced exactly).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from parlour.bots import espeers_scripted
from parlour.fair.rng import Rng
from parlour.games import GAMES, turns
from parlour.games.base import A, Game, S
from parlour.match.config import MatchConfig
from parlour.match.table import AnyTable, Table

MAX_STEPS = 5000


@dataclass
class Report:
    games: int
    wins_by_deck: Counter[str]
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


# A policy: a seat's choice among its legal actions, from the state (a scripted player reads only
# what its seat may know of it).
Policy = Callable[[S, int, list[A], Rng], A]


def play(
    game: Game[S, A],
    config: MatchConfig,
    seed: bytes,
    policy: Policy[S, A],
    rng: Rng,
    max_steps: int = MAX_STEPS,
) -> tuple[Table[S, A], bool]:
    """Play a whole match on one device: automatic steps, then `policy` for every decision
    (who acts next: `games.turns`).
    Returns the table and whether it hung (no result within `max_steps`)."""
    table = Table.new(game, config, seed, range(len(config.seats)))
    for _ in range(max_steps):
        if table.match.result() is not None:
            return table, False
        found = turns.first_automatic(game, table.state, table.stores)
        if found is None:
            seat = turns.moving(game, table.state)[0]
            found = seat, policy(table.state, seat, table.legal(seat), rng)
        seat, action = found
        result = table.act(seat, action)
        if not result.ok:
            raise AssertionError(f"the policy chose an illegal action: {result.reason}")
    return table, True


def play_one(index: int, decks: list[str]) -> tuple[AnyTable, bool]:
    """One seeded ESPEERS game between two scripted players."""
    config = MatchConfig("espeers", f"m-sim-{index:06d}", ("A", "B"), {"decks": decks})
    seed = Rng(index.to_bytes(4, "big")).read(32)
    rng = Rng(b"espeers-sim" + index.to_bytes(4, "big"))
    return play(GAMES["espeers"], config, seed, espeers_scripted.choose, rng)


def espeers_balance(games: int = 400) -> Report:
    """Starter deck against starter deck, swapping seats every game; seeded, so repeatable."""
    wins: Counter[str] = Counter()
    first_wins = hung = turns = 0
    for index in range(games):
        decks = ["onslaught", "mindwall"] if index % 2 == 0 else ["mindwall", "onslaught"]
        table, stuck = play_one(index, decks)
        if stuck:
            hung += 1
            continue
        result = table.match.result()
        assert result is not None  # it did not hang
        winner = min(result.winners)
        wins[decks[winner]] += 1
        first_wins += winner == table.state.first
        turns += table.state.turn
    return Report(games, wins, first_wins, hung, turns / max(1, games - hung))


if __name__ == "__main__":
    for line in espeers_balance().lines():
        print(line)
