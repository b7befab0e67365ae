"""What a game's screen and the shared play screen know of each other.

A game's screen (esp_screen.py and the others) draws its board and controls and turns a click
into a move; it sees the play session only through `Seat`: the table, whose view is shown, the
person's selection and message, and the few commands it may give (`act`, `run_stops`). The
session (play_session.py) and the replay's spectator (replay_screen.py) both answer it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from parlour.fair.store import PrivateStore
from parlour.ui.tree import Node


class Seat(Protocol):
    """The play session as a game's screen sees it: what it reads, and its commands."""

    table: Any
    viewer: int | None
    selection: Any
    message: str
    focus_to: str | None

    @property
    def game(self) -> Any: ...

    def act(self, choice: Any) -> bool:
        """The seat shown takes `choice`; a refusal becomes the message."""
        ...

    def store_of(self, seat: int) -> PrivateStore | None: ...

    def shows_everything(self) -> bool: ...

    def notes_of(self, seat: int) -> dict: ...

    def alone_with_bots(self) -> bool: ...

    def run_stops(self) -> None: ...


class GameScreen(Protocol):
    """What a game adds to the shared play screen."""

    def new_selection(self) -> Any: ...

    def status(self, view: dict, viewer: int, you: int | None = None) -> str:
        """What the game waits for, in one sentence; addressed to `you`, the one person at
        the device (alone against bots, or online), where it is theirs to do."""
        ...

    def board(self, session: Seat, view: dict) -> Node: ...

    def controls(self, session: Seat, view: dict) -> Node | None: ...

    def seat_line(self, view: dict, seat: int) -> str: ...

    def handle(self, session: Seat, event: dict) -> None: ...

    def describe(self, before: Any, seat: int, action: Any) -> str: ...

    def final_details(self, session: Seat) -> Node | None: ...

    def describe_board(self, view: dict, viewer: int | None) -> list[str]:
        """The position in sentences, for "Describe the board" (what a glance at it tells)."""
        ...


@dataclass(frozen=True)
class LastMove:
    """The newest move the log tells (the one the hand-off screen and the message name): the
    board marks it. `before` is the state it was played in."""

    seq: int
    seat: int
    action: Any
    before: Any


# What a click no command of the screen's table answers is told (and nothing changes).
NOT_A_COMMAND = "That is not something you can do in this game."

Screen = TypeVar("Screen")


def run_command(
    commands: Mapping[str, Callable[[Screen, Seat, dict], None]],
    screen: Screen,
    session: Seat,
    event: dict,
) -> None:
    """A click on a game's screen, as the command of its name in the screen's table (a board
    cell's click, which carries no command, is "cell"): one table, so a new command is one
    entry. A name the table lacks is refused with a sentence and changes nothing; a key press
    the screen does not read is not a click, so it passes in silence (keys reach every screen)."""
    cmd = event.get("cmd")
    name = cmd if isinstance(cmd, str) else "cell" if event.get("cell") is not None else ""
    command = commands.get(name)
    if command is not None:
        command(screen, session, event)
    elif name != "key":
        session.message = NOT_A_COMMAND
