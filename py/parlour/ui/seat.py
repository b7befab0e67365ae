"""What a game's screen and the shared play screen know of each other.

A game's screen (esp/screen.py and the others) draws its board and controls and turns a click
into a move through its table of commands (`run_command`); it sees the play session only
through `Seat`: the seat shown, its selection, the match as a read-only `Record`,
that seat's view and legal moves, the secrets opened at the end, and the commands it may give
(`act`, `run_stops`). Never the table (every local seat's store, a move past the session). The
session (play_session.py) and the replay's spectator (replays/screen.py) both answer it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from parlour.fair.store import PrivateStore
from parlour.ui.tree import Node


class Record(Protocol):
    """The game as its log tells it, read only: the rules, the position, the moves and the
    end. What a screen reads of the match (never the seats' stores, never a way to move)."""

    @property
    def game(self) -> Any: ...

    @property
    def state(self) -> Any: ...

    @property
    def config(self) -> Any: ...

    @property
    def entries(self) -> Sequence[Any]: ...

    def state_at(self, step: int) -> Any: ...

    def result(self) -> Any: ...


class Seat(Protocol):
    """The play session as a game's screen sees it, and all it sees: the seat on screen, its
    selection, the record, that seat's own view and moves, and its commands (`act`, and
    `run_stops` once a stops option changed). Secrets reach a screen only through `view` (the
    shown seat's own) and `opened` (every seat's, once the game may show them)."""

    viewer: int | None
    selection: Any
    focus_to: str | None

    @property
    def match(self) -> Record: ...

    def view(self) -> Mapping[str, Any]:
        """What the seat on screen sees (its own secrets with the public view)."""
        ...

    def legal(self) -> list:
        """The moves the seat on screen may take now ([] when no seat is shown)."""
        ...

    def act(self, choice: Any) -> bool:
        """The seat shown takes `choice`; a refusal becomes the message."""
        ...

    def opened(self, seat: int) -> PrivateStore | None:
        """A seat's secrets, once the screen may draw them all (at the end; in a replay, with
        "show everything" on); None before."""
        ...

    def notes_of(self, seat: int) -> dict: ...

    def you(self) -> int | None:
        """The seat of the one person at this device, whom the words address as "you"."""
        ...

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

    def handle(self, session: Seat, event: dict) -> str | None:
        """A click or key on the screen (`run_command`): None, or why it does nothing."""
        ...

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
    commands: Mapping[str, Callable[[Screen, Seat, dict], str | None]],
    screen: Screen,
    session: Seat,
    event: dict,
) -> str | None:
    """A click on a game's screen, as the command of its name in the screen's table (a board
    cell's click, which carries no command, is "cell"): one table, so a new command is one
    entry. A command moves (`Seat.act`) or answers with the sentence that says why not. A name
    the table lacks is refused with a sentence and changes nothing; a key press the screen does
    not read is not a click, so it passes in silence (keys reach every screen)."""
    cmd = event.get("cmd")
    name = cmd if isinstance(cmd, str) else "cell" if event.get("cell") is not None else ""
    command = commands.get(name)
    if command is not None:
        return command(screen, session, event)
    return None if name == "key" else NOT_A_COMMAND
