"""Pass-and-play's session: one device, every seat (or, online, the seats held here). Pure:
events in, state out; play.py draws it.

The session decides whose view is on screen. Whenever the seat to act is not the one shown, the
view goes to the hand-off, so the DOM holds no seat's secrets until the next player taps. Its
own commands (hand-off, undo, the result, the log's fold) are one table, `COMMANDS`; a game's
commands go to its screen (`GameScreen.handle`), which talks back through `Seat`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour.errors import ParlourError
from parlour.fair.commit import Context, Opening
from parlour.fair.store import PrivateStore
from parlour.games import turns
from parlour.match import bot_seats
from parlour.match.audit import Cheat, Unverified, Verified, audit
from parlour.match.match import Match, Submitted
from parlour.match.replay import ReplayRecord, file_text
from parlour.match.table import Table
from parlour.ui.seat import GameScreen
from parlour.ui.tree import Node
from parlour.ui.widgets import describe_entry

if TYPE_CHECKING:
    from parlour.match.online import OnlineSession

STATUS = "[data-role=status]"  # the play screen's heading
RESULT_TITLE = "[data-role=result] h2"  # the result's title


class Session:
    """The play screen of one device: every seat (pass-and-play) or the seats held here (online,
    where `online` carries the moves to the other devices and runs the automatic steps)."""

    def __init__(
        self,
        table: Table,
        screen: GameScreen,
        online: OnlineSession | None = None,
        site: str = "",
    ) -> None:
        self.table = table
        self.screen = screen
        self.online = online
        self.site = site  # the page's address: a shared game's link starts with it
        self.sharing = False  # the result dialog shows the link to share
        self.banner: Callable[[], Node] | None = None  # online: the bar the page puts on top
        # By link: what the result adds (no host, no play again), and the word for a move sent
        self.result_extras: Callable[[], list[Node | None]] | None = None
        self.sent_words = "Your move is on its way to the host…"
        self.seen_step = table.match.step
        self.viewer: int | None = None
        self.message = ""
        self.selection = screen.new_selection()
        self.audit_result: Verified | Cheat | Unverified | None = None
        self.result_open = False
        # Private scribbles per seat (Psi Squad's deduction grid): shown in that seat's view only.
        self.notes: dict[int, dict] = {}
        # Bot seats held here (seat -> level); the step at which their optional moves were last
        # declined (so each is asked once), and one at which a bot failed (so none loops).
        self.bots = {
            s: level for s, level in table.match.config.bot_levels.items() if s in table.stores
        }
        self.declined_at = -1
        self.stalled_at = -1
        self.describing = False  # "Describe the board" is open
        self.log_open = True  # the log panel can fold away (a small screen wants the room)
        self.asking_undo = False  # pass-and-play: the seat shown is asked to allow an undo
        # Pass-and-play: the seat whose view the hand-off just covered (it may take back its
        # move before passing the device), and what the hand-off says of a move taken back.
        self.handed_from: int | None = None
        self.handoff_note = ""
        self.said = ""  # what the live region has to say after this event ("" for nothing)
        self.focus_to: str | None = None  # where the keyboard focus goes after this event
        # The start of this screen's ids: every drawn screen stays in the page (hidden), so an
        # id must not repeat across games, online play and the lessons.
        self.scope = ("online-" if online is not None else "") + table.game.id
        if online is None:
            self._run_automatic()
        self._next_view()

    # -- who is looking ------------------------------------------------------------------

    @property
    def game(self):
        return self.table.game

    @property
    def names(self) -> tuple[str, ...]:
        return self.table.match.config.seats

    @property
    def match(self) -> Match:
        """The game's record, as a screen reads it (`Seat.match`)."""
        return self.table.match

    def view(self) -> Any:
        """What the seat on screen sees; the public view while none is (a hand-off, the end)."""
        viewer, state = self.viewer, self.table.state
        if viewer is None:
            return self.game.public_view(state)
        return self.game.seat_view(state, viewer, self.table.stores.get(viewer))

    def legal(self) -> list:
        """The moves the seat on screen may take now; none while no seat is shown."""
        return self.table.legal(self.viewer) if self.viewer is not None else []

    def notes_of(self, seat: int) -> dict:
        return self.notes.setdefault(seat, {})

    def to_json(self) -> dict:
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

    def bot_thinking(self) -> int | None:
        """The bot seat the game waits on, while it decides."""
        if self.stalled_at == self.table.match.step:
            return None
        return bot_seats.waiting_on(self.table, self.bots)

    def bot_due(self) -> bool:
        """Whether a bot of this device has something to decide now (the page then asks for
        its move after a short pause, so a person can follow the game)."""
        return (
            bool(self.bots)
            and self.stalled_at != self.table.match.step
            and bot_seats.has_turn(self.table, self.bots, self.declined_at)
        )

    def bot_move(self, seed: bytes | None = None) -> bool:
        """Let the bot the game waits on (or one that may take an optional step) decide, and
        act for it exactly as a click would. Whether anything was played."""
        step = self.table.match.step
        if not self.bot_due():
            return False
        decision = bot_seats.next_decision(self.table, self.bots, self.declined_at, seed)
        self.declined_at = step  # every optional step offered at this step has been asked
        if decision is None or decision.choice is None:
            return False
        seat, before = decision.seat, self.table.state
        try:
            result = (self.online or self.table).act(seat, decision.choice)
        except (ParlourError, ValueError, TypeError, KeyError, AttributeError) as error:
            result = Submitted(reason=getattr(error, "sentence", "its choice is not a move."))
        if result.sent:
            return True
        if not result.ok:
            self.stalled_at = step
            self.message = f"{self.names[seat]} could not move: {result.reason}"
            return False
        assert result.entry is not None
        said = self.screen.describe(before, seat, self.game.parse_action(result.entry.action))
        self.message = said
        if self.online is None:
            self._run_automatic()
        self.said = self.message
        self._next_view()
        return True

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

    def _next_view(self) -> None:
        """After any change: keep the view if the same seat acts again, else hand off (between
        the seats of this device only; a device with one seat always shows that seat)."""
        self.selection = self.screen.new_selection()
        self.asking_undo = self.describing = False
        self.seen_step = self.table.match.step
        humans = self.humans
        if len(humans) == 1 and (self.online is not None or self.bots):
            # One person here (online, or alone against bots): never a hand-off; the board
            # stays this seat's way round, to the end.
            self.viewer = humans[0]
            if self.table.match.result() is not None:
                self._finish()
            return
        if self.table.match.result() is not None:
            self.viewer = None
            self._finish()
            return
        acting = self.to_act()
        if acting is not None and acting != self.viewer:
            self.handed_from, self.viewer = self.viewer, None

    def _finish(self) -> None:
        if self.online is not None:
            if self.audit_result is None and self.online.audit_result is not None:
                self.audit_result = self.online.audit_result
            self.result_open = self.result_open or self.seen_step == self.table.match.step
            return
        if self.audit_result is None:
            match = self.table.match
            openings = {s: self.table.openings(s) for s in self.table.stores}
            self.audit_result = audit(self.game, match.config, match.seed, match.entries, openings)
            self.result_open = True
            self.focus_to = RESULT_TITLE

    def refresh(self) -> None:
        """Online: the match changed under us (another device moved). Follow it: the new move
        becomes the message, and the view hands off if another seat of this device acts."""
        step = self.table.match.step
        if step != self.seen_step:
            lines = self.log_lines()
            self.message = lines[-1] if lines else ""
            self.said = self.message
            first_end = self.table.match.result() is not None
            self._next_view()
            self.result_open = self.result_open or first_end
        if self.table.match.result() is not None:
            self._finish()

    # -- events --------------------------------------------------------------------------

    def handle(self, event: dict) -> None:
        """One click or key press, already read from the DOM as plain strings.

        Whatever arrives, a refusal becomes the message and nothing changes."""
        self.message = ""
        step = self.table.match.step
        try:
            self._handle(event)
        except ParlourError as error:
            self.message = error.sentence
        if self.message and (self.table.match.step != step or event.get("cmd") != "key"):
            self.said = self.message

    def _handle(self, event: dict) -> None:
        """The session's own commands (`COMMANDS`); any other goes to the game's screen, while
        a seat is shown (nothing else is on screen during a hand-off or after the end)."""
        cmd = event.get("cmd")
        command = COMMANDS.get(cmd) if isinstance(cmd, str) else None
        if command is not None:
            run, needs_a_seat = command
            if not needs_a_seat or self.viewer is not None:
                run(self, event)
        elif self.viewer is not None:
            self._screens(event)

    def _take_device(self, _event: dict) -> None:
        self.viewer = self.to_act()
        self.handed_from, self.handoff_note = None, ""
        self.focus_to = STATUS  # the new view's heading: what this seat is to do

    def _close_result(self, _event: dict) -> None:
        self.result_open = False

    def _show_result(self, _event: dict) -> None:
        self.result_open = self.table.match.result() is not None
        self.focus_to = RESULT_TITLE if self.result_open else None

    def _share(self, _event: dict) -> None:
        self.sharing = not self.sharing and self.table.match.result() is not None

    def _toggle_log(self, _event: dict) -> None:
        self.log_open = not self.log_open

    def _screens(self, event: dict) -> None:
        """A command of the game's screen: it moves, or its sentence is the message. (A way of
        looking, ESP's board zoom, reaches it even at the end.)"""
        refusal = self.screen.handle(self, event)
        if refusal:
            self.message = refusal

    def _describe_board(self, _event: dict) -> None:
        if self.viewer is None and not self._over():
            return
        self.describing = not self.describing
        if self.describing:
            self.said = " ".join(self.board_sentences())

    def _answer_undo(self, event: dict) -> None:
        self.answer_undo(event.get("cmd") == "allow-undo")

    def _offer_draw(self, _event: dict) -> None:
        self.act(self.game.parse_action({"type": "propose-draw"}))

    def act(self, choice: Any) -> bool:
        """The shown seat takes `choice`; a refusal becomes the message and changes nothing."""
        seat = self.viewer
        if seat is None:
            return False
        before = self.table.state
        result = (self.online or self.table).act(seat, choice)
        if result.sent:
            self.message = self.sent_words
            return True
        if not result.ok:
            self.message = result.reason or "That is not allowed."
            return False
        assert result.entry is not None
        self.message = self.screen.describe(
            before, seat, self.game.parse_action(result.entry.action)
        )
        if self.online is None:
            self._run_automatic()
        self._next_view()
        return True

    def _run_automatic(self) -> None:
        """Let local devices take the actions nobody has to decide (answers from a secret),
        and the passes the game's stops take for a person alone against bots."""
        while self.table.match.result() is None:
            before = self.table.state
            steps = turns.automatic(self.game, before, self.table.stores, self.passed_for)
            for seat, action in steps:
                if self.table.act(seat, action).ok:
                    said = self.screen.describe(before, seat, action)
                    self.message = f"{self.message} {said}".strip()
                    break
            else:
                return

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

    def run_stops(self) -> None:
        """After the person changed an option of the stops: take the pass it now allows."""
        step = self.table.match.step
        self._run_automatic()
        if self.table.match.step != step:
            self.said = self.message
            self._next_view()

    def persons_move(self, entry: Any) -> bool:
        """Whether a log entry is a move a person of this device decided (not an automatic
        answer, not a pass the stops took for them): what undo takes back."""
        if entry.seat not in self.humans:
            return False
        before = self.table.match.state_at(entry.seq - 1)
        if self.game.automatic(before, entry.seat):
            return False
        return not self._taken(entry, before)

    def _taken(self, entry: Any, before: Any = None) -> bool:
        """Whether a log entry is a pass the stops took for its seat (nobody decided it)."""
        if before is None:
            before = self.table.match.state_at(entry.seq - 1)
        passed = self.passed_for(before, entry.seat)
        return passed is not None and self.game.action_to_json(passed) == entry.action

    def undo_target(self) -> Any:
        """The log entry an undo would take back: the last one; with bots, the last move a
        person made here (the bots' replies after it go too). None if there is none."""
        if not self.can_undo():
            return None
        match, floor = self.table.match, self.table.undo_floor()
        for entry in reversed(match.entries[floor:]):
            # pass-and-play: the last move, but never only a pass taken for a seat (it would
            # come back at once): the move before it goes too
            if self.persons_move(entry) if self.bots else not self._taken(entry):
                return entry
        return None

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

    def ask_undo(self) -> None:
        if self.undo_asks() is None:
            self.undo()
        else:
            self.asking_undo = True
            self.focus_to = "[data-role=undo-question] h2"

    def answer_undo(self, allowed: bool) -> None:
        """The seat shown answers another player's request to take back a move."""
        if not self.asking_undo:
            return
        self.asking_undo = False
        mover = self.undo_asks()
        if not allowed or mover is None:
            self.message = "The move stands." if not allowed else ""
            return
        shown = self.names[self.viewer if self.viewer is not None else 0]
        move = self.entry_words(self.undo_target())
        self.undo()
        self.message = f"{shown} allowed it. {self.message}".strip()
        if self.viewer is None:  # the device goes back to the player whose move it was
            self.handoff_note = (
                f"{shown} let {self.names[mover]} take back a move. Taken back: {move}"
            )

    def take_back_seat(self) -> int | None:
        """Pass-and-play, on the hand-off screen: the seat that has just moved and not yet
        passed the device, if undo would take back that seat's own move (then it needs
        nobody's leave: the next player has not seen the board)."""
        if self.viewer is not None or self.handed_from is None or len(self.humans) < 2:
            return None
        target = self.undo_target()
        return self.handed_from if target is not None and target.seat == self.handed_from else None

    def take_back(self) -> None:
        """ "Take back my move", pressed on the hand-off: the move goes and the same player
        sees the board again, with a sentence saying whose move it was."""
        seat = self.take_back_seat()
        if seat is None:
            return
        move = self.entry_words(self.undo_target())
        self.undo()
        self.viewer, self.handed_from = seat, None
        self.message = f"{self.names[seat]} took back their move: {move}"
        self.said = self.message
        self.focus_to = STATUS

    def undo(self) -> None:
        if not self.can_undo():
            self.message = "Nothing to undo: undo never goes back past a revealed secret."
            return
        target = None if self.bots else self.undo_target()
        if self.bots:
            self._undo_with_bots()
        elif target is None:
            self.message = "Nothing to undo: undo never goes back past a revealed secret."
        else:
            self.table.match.truncate(target.seq - 1)
            self.message = "Took back the last move."
        self._next_view()

    def _undo_with_bots(self) -> None:
        """Against bots, undo takes back the last move a person made here and everything after
        it (the bots' replies, the answers given for them), so it is that person's turn again;
        never past a revealed secret."""
        match, floor = self.table.match, self.table.undo_floor()
        for entry in reversed(match.entries):
            if entry.seq - 1 < floor:
                break
            if self.persons_move(entry):
                undone = match.step - (entry.seq - 1)
                match.truncate(entry.seq - 1)
                self.declined_at = self.stalled_at = -1
                whose = "your" if entry.seat == self.viewer else f"{self.names[entry.seat]}'s"
                self.message = (
                    f"Took back {whose} move and the bots' replies."
                    if undone > 1
                    else f"Took back {whose} move."
                )
                return
        self.message = "Nothing to undo: undo never goes back past a revealed secret."

    # -- the log -------------------------------------------------------------------------

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

    def take_focus(self) -> str | None:
        """Where the keyboard focus should go now (a screen of this session changed), once."""
        focus, self.focus_to = self.focus_to, None
        return focus

    def take_said(self) -> str:
        """What the page's live region should say now, once."""
        said, self.said = self.said, ""
        return said

    def can_undo(self) -> bool:
        """Undo is for one device: online, a move made is a move sent. Against bots, there
        must be a move of a person's to take back."""
        if self.online is not None or not self.table.can_undo():
            return False
        if not self.bots:
            return True
        match, floor = self.table.match, self.table.undo_floor()
        return any(self.persons_move(e) for e in match.entries[floor:])

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


# The session's own commands, as the page sends them: what each does, and whether it needs a seat
# on screen (not the hand-off, not the end). The game's commands are its screen's.
COMMANDS: dict[str, tuple[Callable[[Session, dict], None], bool]] = {
    "take-device": (Session._take_device, False),
    "take-back": (lambda session, _event: session.take_back(), False),
    "close-result": (Session._close_result, False),
    "show-result": (Session._show_result, False),
    "share": (Session._share, False),
    "toggle-log": (Session._toggle_log, False),
    "zoom-in": (Session._screens, False),
    "zoom-out": (Session._screens, False),
    "describe-board": (Session._describe_board, False),
    "undo": (lambda session, _event: session.ask_undo(), True),
    "allow-undo": (Session._answer_undo, True),
    "refuse-undo": (Session._answer_undo, True),
    "offer-draw": (Session._offer_draw, True),
}
