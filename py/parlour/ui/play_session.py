"""Pass-and-play's session: one device, every seat (or, online, the seats held here). Pure:
events in, state out; play.py draws it.

What it reads and never changes (the seats here, the view of the seat shown, the log in words,
the record) is its base, `TableHere` (table_here.py); what an undo takes back is undo.py's.

The session decides whose view is on screen. Whenever the seat to act is not the one shown, the
view goes to the hand-off, so the DOM holds no seat's secrets until the next player taps. Its
own commands (hand-off, undo, the result, the log's fold) are one table, `COMMANDS`; a game's
commands go to its screen (`GameScreen.handle`), which talks back through `Seat`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour.errors import ParlourError
from parlour.games import turns
from parlour.match import bot_seats
from parlour.match.audit import Cheat, Unverified, Verified, audit
from parlour.match.match import Submitted
from parlour.match.table import Table
from parlour.ui.seat import GameScreen
from parlour.ui.table_here import TableHere
from parlour.ui.tree import Node
from parlour.ui.undo import NOTHING_TO_UNDO

if TYPE_CHECKING:
    from parlour.match.online import OnlineSession

STATUS = "[data-role=status]"  # the play screen's heading
RESULT_TITLE = "[data-role=result] h2"  # the result's title


class Session(TableHere):
    """The play screen of one device: every seat (pass-and-play) or the seats held here (online,
    where `online` carries the moves to the other devices and runs the automatic steps)."""

    def __init__(
        self,
        table: Table,
        screen: GameScreen,
        online: OnlineSession | None = None,
        site: str = "",
    ) -> None:
        super().__init__(table, screen, online)
        self.site = site  # the page's address: a shared game's link starts with it
        self.sharing = False  # the result dialog shows the link to share
        self.banner: Callable[[], Node] | None = None  # online: the bar the page puts on top
        # By link: what the result adds (no host, no play again), and the word for a move sent
        self.result_extras: Callable[[], list[Node | None]] | None = None
        self.sent_words = "Your move is on its way to the host…"
        self.seen_step = table.match.step
        self.message = ""
        self.selection = screen.new_selection()
        self.audit_result: Verified | Cheat | Unverified | None = None
        self.result_open = False
        # The step at which the bots' optional moves were last declined (so each is asked
        # once), and one at which a bot failed (so none loops).
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

    # -- the bots of this device ---------------------------------------------------------

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

    # -- whose view is shown, and the end ------------------------------------------------

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

    def run_stops(self) -> None:
        """After the person changed an option of the stops: take the pass it now allows."""
        step = self.table.match.step
        self._run_automatic()
        if self.table.match.step != step:
            self.said = self.message
            self._next_view()

    # -- undo, asked and answered, and the hand-off's take back --------------------------

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
            self.message = NOTHING_TO_UNDO
            return
        said = self._undo().cut(self.viewer, self.names)
        self.message = said or NOTHING_TO_UNDO
        if said and self.bots:
            self.declined_at = self.stalled_at = -1
        self._next_view()

    # -- what the page takes once --------------------------------------------------------

    def take_focus(self) -> str | None:
        """Where the keyboard focus should go now (a screen of this session changed), once."""
        focus, self.focus_to = self.focus_to, None
        return focus

    def take_said(self) -> str:
        """What the page's live region should say now, once."""
        said, self.said = self.said, ""
        return said


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
