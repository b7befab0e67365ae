"""ESPEERS's pacing: how much of a person's pressing is Pass, against a medium bot.

    PYTHONPATH=py:. python -m bench --only pacing [--games 1.0]

Whole games under CPython through the real play session (`parlour.ui.play.PlaySession`, the
one the page runs, with the page's own stops): seat 0 is the person, who chooses as the medium
bot would and presses the screen's own buttons for it (`session.handle`, as a click sends them:
a card then Play, Cycle or Lay; each card to discard then Discard; Pass; a symbol; ...); seat 1
a medium bot. A decision is counted each time the session asks the person (their seat is to
move, the step is not automatic, and the stops did not pass for them); a press is each button
pressed, the option's own included. Three ways of playing, the same seeds for each: every
Opportunity asked (no stops at all), the stops as the page takes them by default, and with the
option "Pass unless something of theirs is on the stack" pressed at the start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.espeers import stops
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
from parlour.games.espeers.state import EspeersState, ends_active_phase
from parlour.match import bot_seats
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.espeers.screen import EspeersScreen
from parlour.ui.play import PlaySession

PERSON = 0
PASS = {"type": "pass"}  # a pass in the log
GAMES_PER_WAY = 6
MAX_STEPS = 2000  # a bound: no game here comes near it


class NoStops(EspeersScreen):
    """The screen with no stops: every Opportunity is asked."""

    def auto_pass(self, state: EspeersState, seat: int, legal: list, notes: dict) -> Pass | None:
        return None


WAYS = {
    "every Opportunity asked": (NoStops, False),
    "default stops (a pass where Pass is all you can do)": (EspeersScreen, False),
    f'option "{stops.STANDING_LABEL}"': (EspeersScreen, True),
}


@dataclass
class Count:
    decisions: int = 0
    passes: int = 0
    presses: int = 0
    auto_passes: int = 0
    ending: int = 0  # of the passes: ending the person's own Active phase
    answering: int = 0  # ... and with a card of the bot's on top of the stack
    games: int = 0

    @property
    def share(self) -> float:
        """Pass's share of the decisions (and of the presses: one press each)."""
        return self.passes / max(1, self.decisions)

    @property
    def press_share(self) -> float:
        return self.passes / max(1, self.presses)

    def add(self, other: Count) -> None:
        for name in (
            "decisions",
            "passes",
            "presses",
            "auto_passes",
            "ending",
            "answering",
            "games",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def presses(session: PlaySession, choice: Action) -> list[dict[str, Any]]:
    """The clicks that make `choice` on the screen, as the page sends them (`data-cmd`, data-*)."""
    hand = list(session.view()["me"]["hand"])

    def slot(card: str) -> str:
        i = hand.index(card)
        hand[i] = ""  # a second copy of the card is the next slot
        return str(i)

    if isinstance(choice, Mulligan):
        return [{"cmd": "keep" if choice.keep else "mulligan"}]
    if isinstance(choice, Predict):
        if choice.symbol is None:
            return [{"cmd": "predict-none"}]
        return [{"cmd": "predict", "symbol": choice.symbol}]
    if isinstance(choice, AssignDamage):
        return [{"cmd": "assign", "amount": str(choice.from_pool)}]
    if isinstance(choice, Discard):
        return [
            *({"cmd": "discard-pick", "slot": slot(c)} for c in choice.cards),
            {"cmd": "discard"},
        ]
    if isinstance(choice, (Play, Cycle, PlaceBarrier)):
        cmd = {Play: "play", Cycle: "cycle", PlaceBarrier: "barrier"}[type(choice)]
        return [{"cmd": "card", "slot": slot(choice.card)}, {"cmd": cmd}]
    if isinstance(choice, BarrierAttack):
        return [{"cmd": "attack"}]
    return [{"cmd": "pass"}]


def one_game(screen: EspeersScreen, standing: bool, game_no: int, level: str) -> Count:
    """One whole game of the person (seat 0, choosing as `level` would) against a `level` bot."""
    config = MatchConfig(
        "espeers", f"m-pacing-{game_no:03}", ("You", "Bo (bot)"), {}, bots={"1": level}
    )
    table = Table.new(GAMES["espeers"], config, Rng(f"pacing {game_no}".encode()).read(32), (0, 1))
    session = PlaySession(table, screen)
    count = Count(games=1)
    if standing:
        session.handle({"cmd": stops.STANDING})  # the option, pressed once
        count.presses += 1
    rng = Rng(f"pacing choices {game_no}".encode())
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
        if isinstance(choice, Pass):
            state = table.state
            count.passes += 1
            count.ending += ends_active_phase(state, PERSON)
            count.answering += bool(state.stack) and state.stack[-1].owner != PERSON
        step = table.match.step
        for event in presses(session, choice):
            session.handle(event)
            count.presses += 1
        if table.match.step == step:
            break  # the screen refused it: the message says why
    passes = sum(1 for e in table.match.entries if e.seat == PERSON and e.action == PASS)
    count.auto_passes = passes - count.passes
    return count


def measure(games: int = GAMES_PER_WAY, level: str = "medium") -> dict[str, Count]:
    """Each way of playing over the same `games` seeds."""
    out = {}
    for name, (screen_type, standing) in WAYS.items():
        total = Count()
        for n in range(games):
            total.add(one_game(screen_type(), standing, n, level))
        out[name] = total
    return out


def run(scale: float = 1.0) -> list[str]:
    games = max(1, round(GAMES_PER_WAY * scale))
    lines = [f"ESPEERS pacing: a person's decisions against a medium bot, {games} games each"]
    for name, c in measure(games).items():
        lines.append(
            f"  {name}: {c.decisions / c.games:5.1f} decisions a game, {c.share:5.1%} of them "
            f"Pass ({c.passes}/{c.decisions}); {c.presses / c.games:5.1f} presses a game, "
            f"{c.press_share:5.1%} of them Pass; passes taken for the person: {c.auto_passes}"
        )
        lines.append(
            f"    the Pass decisions: {c.ending} ending the person's own Active phase, "
            f"{c.answering} with a card of the bot's on top of the stack, "
            f"{c.passes - c.ending - c.answering} other"
        )
    return lines
