"""Second Sight's lesson: one round against Bo, who has sealed the circle already."""

from __future__ import annotations

from parlour.games import GAMES
from parlour.games.zener import Symbol
from parlour.match.config import MatchConfig
from parlour.match.table import AnyTable, Table, new_match_id
from parlour.ui.lesson_steps import Lesson, Step
from tests.toy_game.actions import Choose, Guess

NAMES = ("Ada", "Bo (bot)")


def table() -> AnyTable:
    config = MatchConfig("second-sight", new_match_id(), NAMES, {"rounds": 3}, bots={"1": "easy"})
    prepared: AnyTable = Table.new(GAMES["second-sight"], config, bytes(32), range(2))
    result = prepared.act(1, Choose(Symbol.CIRCLE))
    assert result.ok, result.reason
    return prepared


STEPS = (
    Step(
        "You are Ada; Bo is a bot. Each round you both seal a symbol, then guess the other's. "
        "Bo has sealed one already."
    ),
    Step("Seal the star: press it.", {"cmd": "seal", "symbol": "star"}, "star button", moves=True),
    Step(
        "Now guess Bo's symbol: press the circle.",
        {"cmd": "guess", "symbol": "circle"},
        "circle button",
        moves=True,
        replies=(Guess(Symbol.CROSS),),
    ),
    Step("Both seals were opened: you guessed right, so you score a point."),
)

LESSON = Lesson(
    game="second-sight",
    title="Learn Second Sight",
    table=table,
    steps=STEPS,
    done="Two rounds are left; the most right guesses wins.",
)
