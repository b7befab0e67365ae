"""Undo on one device (pure): which move an undo takes back, and the log cut back to before it.

The last move goes; against bots, the last move a person made here goes with everything after it
(the bots' replies, the answers given for them), so it is that person's turn again; a pass the
stops took for a seat is never taken back alone; and nothing goes back past a revealed secret.
The session (play_session.py) asks this module, and decides whose leave it needs and what the
screen says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.match.log import LogEntry
from parlour.match.table import Table

NOTHING_TO_UNDO = "Nothing to undo: undo never goes back past a revealed secret."


@dataclass(frozen=True)
class Undo:
    """Undo at a device's table as it stands: the seats people play here (`humans`), whether
    bots play here too, and `passed_for`, the pass the stops take for a seat in a state (or
    None), by which a pass nobody decided is told from a move."""

    table: Table[Any, Any]
    humans: Sequence[int]
    with_bots: bool
    passed_for: Callable[[Any, int], Any]

    def persons_move(self, entry: LogEntry) -> bool:
        """Whether a log entry is a move a person of this device decided (not an automatic
        answer, not a pass the stops took for them): what undo takes back."""
        if entry.seat not in self.humans:
            return False
        before = self.table.match.state_at(entry.seq - 1)
        if self.table.game.automatic(before, entry.seat):
            return False
        return not self.taken(entry, before)

    def taken(self, entry: LogEntry, before: Any = None) -> bool:
        """Whether a log entry is a pass the stops took for its seat (nobody decided it)."""
        if before is None:
            before = self.table.match.state_at(entry.seq - 1)
        passed = self.passed_for(before, entry.seat)
        return passed is not None and self.table.game.action_to_json(passed) == entry.action

    def a_persons_move_since_the_floor(self) -> bool:
        """Whether a person made a move here since the last revealed secret (against bots,
        there is nothing to undo without one)."""
        match, floor = self.table.match, self.table.undo_floor()
        return any(self.persons_move(e) for e in match.entries[floor:])

    def target(self) -> LogEntry | None:
        """The log entry an undo takes back: the last one; with bots, the last move a person
        made here (the bots' replies after it go too). None if there is none."""
        match, floor = self.table.match, self.table.undo_floor()
        for entry in reversed(match.entries[floor:]):
            # pass-and-play: the last move, but never only a pass taken for a seat (it would
            # come back at once): the move before it goes too
            if self.persons_move(entry) if self.with_bots else not self.taken(entry):
                return entry
        return None

    def cut(self, viewer: int | None, names: Sequence[str]) -> str | None:
        """Take back `target` and everything after it, and say so ("your" move: the seat
        shown, `viewer`'s); None, and nothing changes, when there is nothing to take back."""
        target = self.target()
        if target is None:
            return None
        match = self.table.match
        undone = match.step - (target.seq - 1)
        match.truncate(target.seq - 1)
        if not self.with_bots:
            return "Took back the last move."
        whose = "your" if target.seat == viewer else f"{names[target.seat]}'s"
        if undone > 1:
            return f"Took back {whose} move and the bots' replies."
        return f"Took back {whose} move."
