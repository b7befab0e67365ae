"""ESP's lesson: the last placements and a few moves of a prepared game, against Bo.

The position was built with the engine (tests/ui/test_tutorial.py plays it): sixteen tiles are
down, then Ada places her star (placement, two touches), tries a cell that would close in her
cross (enclosure), places a hidden square (hidden tiles), flips it, finds her cross pinned by
Bo's jump, and jumps her star into the row circle, cross, waves, square, star (a set: 3 of
Ada's tiles and 2 of Bo's, so Ada wins).
"""

from __future__ import annotations

from parlour.games import GAMES
from parlour.games.esp.actions import Move, Place
from parlour.games.esp.hexgrid import Cell
from parlour.games.zener import Symbol
from parlour.match.config import MatchConfig
from parlour.match.table import AnyTable, Table, new_match_id
from parlour.ui.lesson_steps import Lesson, Step

NAMES = ("Ada", "Bo (bot)")


def up(cell: Cell, symbol: str) -> Place:
    return Place(cell, Symbol(symbol))


def down(cell: Cell, symbol: str) -> Place:
    return Place(cell, Symbol(symbol), hidden=True)


# The sixteen placements before the lesson, Ada (Light) and Bo (Dark) in turn.
PREFIX = (
    up((1, 0), "cross"),
    up((0, 0), "circle"),
    down((0, 1), "waves"),
    down((1, -1), "square"),
    down((1, 1), "star"),
    up((2, 0), "waves"),
    down((0, -1), "cross"),
    up((2, 1), "cross"),
    up((3, 0), "square"),
    down((3, 1), "star"),
    up((2, 2), "circle"),
    up((0, 2), "square"),
    down((3, 2), "waves"),
    down((4, 1), "circle"),
    down((3, -1), "circle"),
    down((-1, 1), "cross"),
)


def table() -> AnyTable:
    config = MatchConfig("esp", new_match_id(), NAMES, {}, bots={"1": "easy"})
    prepared: AnyTable = Table.new(GAMES["esp"], config, bytes(32), range(2))
    for ply, choice in enumerate(PREFIX):
        result = prepared.act(ply % 2, choice)
        assert result.ok, result.reason
    return prepared


STEPS = (
    Step(
        "You are Ada (Light); Bo, a bot, is Dark. Together you grow one group of hex tiles, "
        "some symbol-up, some symbol-down. Whoever lines up five different symbols in a row "
        "ends the game, and the owner of most tiles in that row wins. Sixteen tiles are "
        "already down; each of you has two left to place."
    ),
    Step(
        "Placement: on your turn, put one tile from your tray on the board. Choose your star.",
        {"cmd": "tray", "symbol": "star"},
        "star in your tray",
    ),
    Step(
        "Choose Symbol up: everyone sees it, and only symbol-up tiles can move and count in a set.",
        {"cmd": "face", "face": "up"},
        "Symbol up button",
    ),
    Step(
        "The two-touch rule: a new tile must touch at least two tiles already down (only the "
        "second tile of a game touches just one). The highlighted cell touches two: place "
        "your star there.",
        {"cell": "4,2"},
        "highlighted cell",
        moves=True,
        replies=(down((5, 1), "star"),),
    ),
    Step(
        "Bo placed a tile symbol-down: you see only its back. Its symbol is sealed when it is "
        "placed, so Bo cannot change it later. Your last tile is a square: choose it.",
        {"cmd": "tray", "symbol": "square"},
        "square in your tray",
    ),
    Step(
        "Hidden tiles: choose Symbol down. Bo will see only its back, and it cannot move "
        "until you flip it.",
        {"cmd": "face", "face": "down"},
        "Symbol down button",
    ),
    Step(
        "Enclosure: while tiles are being placed, no tile may be closed in on all six sides. "
        "The highlighted cell touches four tiles, but a tile there would close in your "
        "cross. Try it and see what the game says.",
        {"cell": "2,-1"},
        "highlighted cell beside your cross",
    ),
    Step(
        "Refused: that cell would enclose your cross. Place your hidden square on the "
        "highlighted cell instead.",
        {"cell": "1,-2"},
        "highlighted cell",
        moves=True,
        replies=(down((2, 3), "waves"),),
    ),
    Step(
        "Every tile is down. Now, on each turn, you flip one of your symbol-down tiles or "
        "move one of your symbol-up tiles. Choose your hidden square.",
        {"cell": "1,-2"},
        "your hidden square",
    ),
    Step(
        "Flip it: its symbol shows, checked against the seal made when you placed it. A "
        "flipped tile never goes back.",
        {"cmd": "flip"},
        "Flip this tile button",
        moves=True,
        replies=(Move((2, 1), 4),),
    ),
    Step(
        "Bo jumped its cross over its waves, into the last empty cell around your cross. "
        "Pinning: a tile closed in on all six sides, or one whose lifting would split the "
        "group, can neither flip nor move. Choose your cross and see.",
        {"cell": "1,0"},
        "your cross",
    ),
    Step(
        "Jumps: a symbol-up tile moves in a straight line over the tiles next to it, to the "
        "first empty cell beyond them. Choose your star.",
        {"cell": "4,2"},
        "your star",
    ),
    Step(
        "Look along the row of your cross: circle, cross, waves, square, then an empty cell. "
        "Jump your star over Bo's hidden tile into that cell to make a set.",
        {"cell": "4,0"},
        "highlighted cell at the end of the row",
        moves=True,
    ),
)

LESSON = Lesson(
    game="esp",
    title="Learn ESP",
    table=table,
    steps=STEPS,
    done=(
        "A set and its count: the five tiles of the set are 3 of yours (cross, square, star) "
        "and 2 of Bo's (circle, waves), so you win. The owner of most tiles in the set wins, "
        "whoever made it; a tie goes to the player who made it. Well played!"
    ),
)
