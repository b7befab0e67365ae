"""ESPEERS's pacing: the share of a person's decisions that are Pass, against a medium bot.

    PYTHONPATH=py:. python -m bench --only pacing [--games 1.0]

Whole games under CPython through the real play session (`parlour.ui.play.PlaySession`, the
one the page runs): seat 0 is the person, played by the medium bot's choices; seat 1 a medium
bot. A decision is counted each time the session would ask the person (their seat is to move,
the step is not automatic, and the stops did not pass for them). Three ways of playing, the
same seeds for each: before the stops (every Opportunity asked), the default stops, and the
option "Pass in the opponent's turn unless something is on the stack".
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.espeers import stops
from parlour.games.espeers.actions import Pass
from parlour.games.espeers.state import EspeersState
from parlour.match import bot_seats
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.espeers_screen import EspeersScreen
from parlour.ui.play import PlaySession

PERSON = 0
PASS = {"type": "pass"}  # a pass in the log
GAMES_PER_WAY = 6
MAX_STEPS = 2000  # a bound: no game here comes near it


class NoStops(EspeersScreen):
    """The screen as it was before the stops: every Opportunity is asked."""

    def auto_pass(self, state: EspeersState, seat: int, legal: list, notes: dict) -> Pass | None:
        return None


WAYS = {
    "before (every Opportunity asked)": (NoStops, False),
    "default stops": (EspeersScreen, False),
    f'option "{stops.THEIR_TURN_LABEL}"': (EspeersScreen, True),
}


@dataclass
class Count:
    decisions: int = 0
    passes: int = 0
    auto_passes: int = 0
    games: int = 0

    @property
    def share(self) -> float:
        return self.passes / max(1, self.decisions)


def one_game(screen: EspeersScreen, their_turn: bool, game_no: int, level: str) -> Count:
    """One whole game of the person (seat 0, choosing as `level` would) against a `level` bot."""
    config = MatchConfig(
        "espeers", f"m-pacing-{game_no:03}", ("You", "Bo (bot)"), {}, bots={"1": level}
    )
    table = Table.new(GAMES["espeers"], config, Rng(f"pacing {game_no}".encode()).read(32), (0, 1))
    session = PlaySession(table, screen)
    if their_turn:
        session.notes_of(PERSON)[stops.THEIR_TURN] = True
    rng = Rng(f"pacing choices {game_no}".encode())
    count = Count(games=1)
    for _ in range(MAX_STEPS):
        if table.match.result() is not None:
            break
        if session.bot_due():
            session.bot_move(rng.read(32))
            continue
        if session.to_act() != PERSON:
            break  # nobody to ask: a stalled bot (the session says why)
        choice = bot_seats.decide(table, PERSON, level, rng.read(32)).choice
        count.decisions += 1
        count.passes += isinstance(choice, Pass)
        if not session.act(choice):
            break
    passes = sum(1 for e in table.match.entries if e.seat == PERSON and e.action == PASS)
    count.auto_passes = passes - count.passes
    return count


def measure(games: int = GAMES_PER_WAY, level: str = "medium") -> dict[str, Count]:
    """Each way of playing over the same `games` seeds."""
    out = {}
    for name, (screen_type, their_turn) in WAYS.items():
        total = Count()
        for n in range(games):
            c = one_game(screen_type(), their_turn, n, level)
            total.decisions += c.decisions
            total.passes += c.passes
            total.auto_passes += c.auto_passes
            total.games += c.games
        out[name] = total
    return out


def run(scale: float = 1.0) -> list[str]:
    games = max(1, round(GAMES_PER_WAY * scale))
    lines = [f"ESPEERS pacing: a person's decisions against a medium bot, {games} games each"]
    for name, c in measure(games).items():
        lines.append(
            f"  {name}: {c.decisions / c.games:5.1f} decisions a game, {c.share:5.1%} of them "
            f"Pass ({c.passes}/{c.decisions}); passes taken for the person: {c.auto_passes}"
        )
    return lines
