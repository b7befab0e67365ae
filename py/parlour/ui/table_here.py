"""One device's game as its play session reads it, changing nothing: the seats played here (by
people, by bots), whom the game waits on, what the seat shown sees and may do, the log in words,
what an undo would take back, the secrets opened at the end, the replay and the save.

`TableHere` is the base of the session (play_session.py), which changes all this: moves,
hand-offs, undo, the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.fair.commit import Context, Opening
from parlour.fair.store import PrivateStore
from parlour.games.base import Game
from parlour.match.match import Match
from parlour.match.replay import ReplayRecord, file_text
from parlour.match.table import Table
from parlour.ui.seat import GameScreen
from parlour.ui.undo import Undo
from parlour.ui.widgets import describe_entry

if TYPE_CHECKING:
    from parlour.match.online import OnlineSession


class TableHere:
    """A device's table and the seats it plays: every seat (pass-and-play) or the seats held
    here (online, where `online` carries the moves to the other devices), read."""

    def __init__(
        self, table: Table[Any, Any], screen: GameScreen, online: OnlineSession | None
    ) -> None:
        self.table = table
        self.screen = screen
        self.online = online
        self.viewer: int | None = None  # the seat on screen (None: a hand-off, or the end)
        # Private scribbles per seat (Psi Squad's deduction grid): shown in that seat's view only.
        self.notes: dict[int, dict[str, Any]] = {}
        # Bot seats held here (seat -> level).
        self.bots = {
            s: level for s, level in table.match.config.bot_levels.items() if s in table.stores
        }

    @property
    def game(self) -> Game[Any, Any]:
        return self.table.game

    @property
    def names(self) -> tuple[str, ...]:
        return self.table.match.config.seats

    @property
    def match(self) -> Match[Any, Any]:
        """The game's record, as a screen reads it (`Seat.match`)."""
        return self.table.match

    def view(self) -> Any:
        """What the seat on screen sees; the public view while none is (a hand-off, the end)."""
        viewer, state = self.viewer, self.table.state
        if viewer is None:
            return self.game.public_view(state)
        return self.game.seat_view(state, viewer, self.table.stores.get(viewer))

    def legal(self) -> list[Any]:
        """The moves the seat on screen may take now; none while no seat is shown."""
        return self.table.legal(self.viewer) if self.viewer is not None else []

    def notes_of(self, seat: int) -> dict[str, Any]:
        return self.notes.setdefault(seat, {})

    def to_json(self) -> dict[str, Any]:
        """What the device saves: the table (with every local store), the seats' notes, and a
        summary to name the game by without replaying it (see `replace_game_tree`)."""
        return {
            "table": self.table.to_json(),
            "notes": {str(k): v for k, v in self.notes.items()},
            "summary": {
                "names": list(self.names),
                "moves": self.table.match.step,
                "over": self.table.match.result() is not None,
            },
        }

    @property
    def local(self) -> list[int]:
        """The seats played on this device."""
        return sorted(self.table.stores)

    @property
    def humans(self) -> list[int]:
        """The seats of this device that a person plays (the others are its bots)."""
        return [s for s in self.local if s not in self.bots]

    def to_act(self) -> int | None:
        """The person of this device the game waits on (the lowest seat, when several may
        act); a bot seat is never handed the device."""
        seats = self.game.to_move(self.table.state) & set(self.humans)
        return min(seats) if seats else None

    def opened(self, seat: int) -> PrivateStore | None:
        """A seat's secrets for a screen to draw (the final board, the end's details): none
        before the game is over, when every seat opens its secrets; then its store here, or,
        online, the openings the other devices published for the audit."""
        if self.table.match.result() is None:
            return None
        store = self.table.stores.get(seat)
        if store is not None or self.online is None or seat not in self.online.openings:
            return store
        opened = {o.label: o for o in self.online.openings[seat]}
        return PrivateStore(Context(self.table.match.config.match_id, seat), opened)

    def end_openings(self) -> dict[int, list[Opening] | None]:
        """What the seats opened at the end, as this device has it: every seat's store in
        pass-and-play; online, what each device published for the audit (None: not yet)."""
        if self.online is None:
            return {s: self.table.openings(s) for s in self.table.stores}
        return {s: self.online.openings.get(s) for s in range(len(self.names))}

    def replay_record(self) -> ReplayRecord:
        """This game's replay; online, with its keys and each move's signature."""
        signed = self.online.replay_signatures() if self.online is not None else None
        return ReplayRecord.of(self.table.match, self.end_openings(), signed)

    def game_file(self) -> list[str]:
        """The finished game as a file to download: [name, text]."""
        record = self.replay_record()
        return [record.file_name(), file_text(record)]

    def passed_for(self, state: Any, seat: int) -> Any:
        """The pass the game's stops take for `seat` in `state`, or None (games/espeers/stops.py):
        where a person's legal actions hold nothing else (public, so pass-and-play too: no hand-off
        just to press Pass). The standing option reads the hand: only alone against bots (a bot
        sees the log, not the timing). Online, each device's own engine moves (not here)."""
        stops = getattr(self.screen, "auto_pass", None)
        if stops is None or self.online is not None or seat not in self.humans:
            return None
        if seat not in self.game.to_move(state):
            return None
        return stops(
            state,
            seat,
            self.game.legal_actions(state, seat, self.table.stores.get(seat)),
            self.notes_of(seat) if self.alone_with_bots() else {},
        )

    def alone_with_bots(self) -> bool:
        """One person plays this device's game against its bots (no one else, not online)."""
        return self.online is None and bool(self.bots) and len(self.humans) == 1

    def _undo(self) -> Undo:
        """Undo at this device's table now (undo.py)."""
        return Undo(self.table, self.humans, bool(self.bots), self.passed_for)

    def persons_move(self, entry: Any) -> bool:
        """Whether a log entry is a move a person of this device decided: what undo takes back."""
        return self._undo().persons_move(entry)

    def undo_target(self) -> Any:
        """The log entry an undo would take back (undo.py); None if there is none."""
        return self._undo().target() if self.can_undo() else None

    def undo_asks(self) -> int | None:
        """Pass-and-play (two people or more here): the seat whose move an undo would take
        back, when it is not the seat shown (the player holding the device is asked first);
        None when nobody need be asked."""
        if self.online is not None or len(self.humans) < 2:
            return None
        target = self.undo_target()
        if target is None or target.seat == self.viewer:
            return None
        return int(target.seat)

    def can_undo(self) -> bool:
        """Undo is for one device: online, a move made is a move sent. Against bots, there
        must be a move of a person's to take back."""
        if self.online is not None or not self.table.can_undo():
            return False
        return not self.bots or self._undo().a_persons_move_since_the_floor()

    def log_lines(self) -> list[str]:
        """Every move in words; routine steps a game describes with "" stay out."""
        match = self.table.match
        lines = (self.entry_words(e) for e in match.entries)
        return [line for line in lines if line]

    def entry_words(self, entry: Any) -> str:
        return describe_entry(self.screen, self.table.match, entry)

    def board_sentences(self) -> list[str]:
        """The position as the seat shown sees it, in sentences ("Describe the board")."""
        viewer, view = self.viewer, self.view()
        describe = getattr(self.screen, "describe_board", None)
        sentences = describe(view, viewer) if describe is not None else None
        return list(sentences or []) or [self.screen.status(view, viewer or 0)]

    def _over(self) -> bool:
        return self.table.match.result() is not None

    def one_seat_shown(self) -> bool:
        """One device shows one seat all game: online, or one person against bots."""
        return self.online is not None or (bool(self.bots) and len(self.humans) == 1)

    def my_turn(self) -> bool:
        """Where one device shows one seat all game (online, or one person against bots): is
        that seat to act by hand?"""
        if (
            not self.one_seat_shown()
            or self.viewer is None
            or self.table.match.result() is not None
        ):
            return False
        state = self.table.state
        seat = self.viewer
        return seat in self.game.to_move(state) and not self.game.automatic(state, seat)

    def you(self) -> int | None:
        """The seat of the one person at this device (alone against bots, or online), whom
        the status line and the result address as "you"; None in pass-and-play."""
        return self.viewer if self.one_seat_shown() and len(self.humans) == 1 else None
