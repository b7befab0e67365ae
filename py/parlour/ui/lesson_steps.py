"""A lesson's shape (pure): its steps and how its table is prepared, as each game's lesson
(ui/<package>/lesson.py) declares it. Apart from ui/tutorial.py, which plays a lesson and loads
each game's through the catalog, so a game's lesson imports nothing that imports it back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.match.table import AnyTable

# A bot's scripted reply: its choice, or a function of the table that makes it (a choice that
# needs the bot's own store, such as a flip's opening).
Reply = Any | Callable[["AnyTable"], Any]

NEXT = {"cmd": "lesson-next"}  # a step with nothing to press in the game: "Next"


@dataclass(frozen=True)
class Step:
    """One step of a lesson: `say` is shown and announced; `press` is the event that completes
    it (None: a "Next" button); `what` names the thing to press, for the sentence a wrong press
    gets; `moves`: the press must play a move (a refused one leaves the step as it is);
    `replies`: the bot's moves after this step, before the next one's words; `also`: other
    events that do the same (a digit typed on a keyboard for the digit's key on screen)."""

    say: str
    press: Mapping[str, str] | None = None
    what: str = "highlighted control"
    moves: bool = False
    replies: tuple[Reply, ...] = ()
    also: tuple[Mapping[str, str], ...] = ()

    @property
    def event(self) -> dict[str, str]:
        return dict(self.press) if self.press is not None else dict(NEXT)


@dataclass(frozen=True)
class Lesson:
    """A game's tutorial: its title, how to set its table up, its steps and its last words."""

    game: str
    title: str
    table: Callable[[], AnyTable]  # a fresh prepared table (seat `human` is the learner)
    steps: tuple[Step, ...]
    done: str  # said after the last step, while the game goes on freely
    human: int = 0
    rules: str = field(default="")  # the rules page's address

    @property
    def bot(self) -> int:
        return 1 - self.human
