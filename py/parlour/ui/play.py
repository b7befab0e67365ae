"""Pass-and-play: one device, every seat. Pure: events in, a tree out (the browser just relays).

The session decides whose view is on screen. Whenever the seat to act is not the one shown, the
board is replaced by the hand-off screen, so the DOM holds no seat's secrets until the next
player taps. The same pieces (hand-off, seats panel, log panel, result dialog, undo) serve every
game; a game brings its board, its controls and its words through a `GameScreen`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from parlour.errors import ParlourError
from parlour.fair.commit import Context, Opening
from parlour.fair.store import PrivateStore
from parlour.games import turns
from parlour.games.base import capital
from parlour.match import bot_seats
from parlour.match.audit import Cheat, Unverified, Verified, audit
from parlour.match.match import Submitted, declared, forfeited_seat, timed_out_seat
from parlour.match.replay import ReplayRecord, file_text, too_long_to_send
from parlour.match.table import Table
from parlour.ui import help as helps
from parlour.ui.help import with_help
from parlour.ui.online_screen import (
    copy_box,
    online_bar,
    play_again_button,
    play_again_note,
    table_trust,
    verdicts_tree,
)
from parlour.ui.outcome import outcome_title
from parlour.ui.tree import Node, h

if TYPE_CHECKING:
    from parlour.match.online import OnlineSession

# The log panel's rows: the newest moves, more than the longest real game tells (a forged replay
# may hold thousands: drawing them all froze the page, issue 25).
LOG_ROWS = 200


class GameScreen(Protocol):
    """What a game adds to the shared play screen."""

    def new_selection(self) -> Any: ...

    def status(self, view: dict, viewer: int, you: int | None = None) -> str:
        """What the game waits for, in one sentence; addressed to `you`, the one person at
        the device (alone against bots, or online), where it is theirs to do."""
        ...

    def board(self, session: PlaySession, view: dict) -> Node: ...

    def controls(self, session: PlaySession, view: dict) -> Node | None: ...

    def seat_line(self, view: dict, seat: int) -> str: ...

    def handle(self, session: PlaySession, event: dict) -> None: ...

    def describe(self, before: Any, seat: int, action: Any) -> str: ...

    def final_details(self, session: PlaySession) -> Node | None: ...

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


class PlaySession:
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
        decision = bot_seats.next_decision(self.table, self.bots, self.declined_at)
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

    def store_of(self, seat: int) -> PrivateStore | None:
        """A seat's secrets as this device knows them: its own store, or, online once the game
        is over, the openings the other devices published for the audit."""
        store = self.table.stores.get(seat)
        if store is not None or self.online is None or seat not in self.online.openings:
            return store
        opened = {o.label: o for o in self.online.openings[seat]}
        return PrivateStore(Context(self.table.match.config.match_id, seat), opened)

    def shows_everything(self) -> bool:
        """Whether a screen may draw every hidden value `store_of` gives it (on the final
        board): once the game is over, when every seat has opened its secrets."""
        return self.table.match.result() is not None

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
        cmd = event.get("cmd")
        if cmd == "take-device":
            self.viewer = self.to_act()
            self.handed_from, self.handoff_note = None, ""
            self.focus_to = STATUS  # the new view's heading: what this seat is to do
            return
        if cmd == "take-back":
            self.take_back()
            return
        if cmd == "close-result":
            self.result_open = False
            return
        if cmd == "show-result":
            self.result_open = self.table.match.result() is not None
            self.focus_to = RESULT_TITLE if self.result_open else None
            return
        if cmd == "share":
            self.sharing = not self.sharing and self.table.match.result() is not None
            return
        if cmd == "toggle-log":
            self.log_open = not self.log_open
            return
        if cmd in ("zoom-in", "zoom-out"):
            self.screen.handle(self, event)  # a way of looking (ESP's board), even at the end
            return
        if cmd == "describe-board" and (self.viewer is not None or self._over()):
            self.describing = not self.describing
            if self.describing:
                self.said = " ".join(self.board_sentences())
            return
        if self.viewer is None:
            return  # nothing else is on screen during a hand-off or after the end
        if cmd == "undo":
            self.ask_undo()
            return
        if cmd in ("allow-undo", "refuse-undo"):
            self.answer_undo(cmd == "allow-undo")
            return
        if cmd == "offer-draw":
            self.act(self.game.parse_action({"type": "propose-draw"}))
            return
        self.screen.handle(self, event)

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
        """The pass the game's stops take for `seat` in `state` (ESPEERS: nothing worth doing
        in that window), or None. Only for the one person of a device playing against its
        bots: a bot sees the log, never the timing, so the quick pass tells it nothing; with
        another person watching, or online, it would tell them the hand holds nothing."""
        stops = getattr(self.screen, "auto_pass", None)
        if stops is None or not self.alone_with_bots() or self.humans != [seat]:
            return None
        if seat not in self.game.to_move(state):
            return None
        return stops(self, state, seat)

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

    def _persons_move(self, entry: Any) -> bool:
        """Whether a log entry is a move a person of this device decided (not an automatic
        answer, not a pass the stops took for them): what undo takes back."""
        if entry.seat not in self.humans:
            return False
        before = self.table.match.state_at(entry.seq - 1)
        if self.game.automatic(before, entry.seat):
            return False
        passed = self.passed_for(before, entry.seat)
        return passed is None or self.game.action_to_json(passed) != entry.action

    def undo_target(self) -> Any:
        """The log entry an undo would take back: the last one; with bots, the last move a
        person made here (the bots' replies after it go too). None if there is none."""
        if not self.can_undo():
            return None
        match, floor = self.table.match, self.table.undo_floor()
        for entry in reversed(match.entries[floor:]):
            if not self.bots or self._persons_move(entry):
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
        move = self._describe_entry(self.undo_target())
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
        move = self._describe_entry(self.undo_target())
        self.undo()
        self.viewer, self.handed_from = seat, None
        self.message = f"{self.names[seat]} took back their move: {move}"
        self.said = self.message
        self.focus_to = STATUS

    def undo(self) -> None:
        if not self.can_undo():
            self.message = "Nothing to undo: undo never goes back past a revealed secret."
            return
        if self.bots:
            self._undo_with_bots()
        else:
            self.table.undo()
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
            if self._persons_move(entry):
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
        lines = (self._describe_entry(e) for e in match.entries)
        return [line for line in lines if line]

    def _describe_entry(self, entry: Any) -> str:
        return describe_entry(self.screen, self.table.match, entry)

    def since_your_turn(self) -> list[str]:
        """What happened since the seat shown last decided a move, oldest first, in the log's
        words (the others' moves, and the steps taken for it meanwhile): the short list a person
        reads on coming back to the game. Empty unless that seat is to move now and another seat
        has moved since; the newest SINCE_MOST lines only."""
        viewer, match = self.viewer, self.table.match
        if viewer is None or self.to_act() != viewer or match.result() is not None:
            return []
        entries = match.entries
        start = next(
            (
                i + 1
                for i in range(len(entries) - 1, -1, -1)
                if entries[i].seat == viewer and self._persons_move(entries[i])
            ),
            0,
        )
        news = entries[start:]
        if all(e.seat == viewer for e in news):
            return []
        lines = [line for line in (self._describe_entry(e) for e in news) if line]
        if len(lines) > SINCE_MOST:
            earlier = len(lines) - SINCE_MOST + 1
            lines = [f"{earlier} earlier moves (in the game log)", *lines[-SINCE_MOST + 1 :]]
        return lines

    def last_move(self) -> LastMove | None:
        """The newest move the log tells in words: the one the board marks, the message and
        the hand-off screen name (a routine step, told with "", is passed over)."""
        return newest_told(self.table.match, self.screen)

    def board_sentences(self) -> list[str]:
        """The position as the seat shown sees it, in sentences ("Describe the board")."""
        viewer = self.viewer
        view = (
            self.game.seat_view(self.table.state, viewer, self.table.stores.get(viewer))
            if viewer is not None
            else self.game.public_view(self.table.state)
        )
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
        return any(self._persons_move(e) for e in match.entries[floor:])

    # -- drawing -------------------------------------------------------------------------

    def render(self) -> Node:
        helps.begin(self.scope)
        result = self.table.match.result()
        game = self.game
        if self.viewer is None and result is None and self.to_act() is not None:
            lines = self.log_lines()
            mover = self.take_back_seat()
            main = handoff_tree(
                self.names[self.to_act()],
                self.handoff_note or (lines[-1] if lines else None),
                None if mover is None else self.names[mover],
            )
        else:
            viewer = self.viewer
            view = (
                game.seat_view(self.table.state, viewer, self.table.stores.get(viewer))
                if viewer is not None
                else game.public_view(self.table.state)
            )
            main = self._table_tree(view)
        banner = self.banner() if self.banner else online_bar(self.online) if self.online else None
        children: list[Any] = [banner, main]
        return h("div", {"class": f"play play-{game.id}", "data-viewer": self.viewer}, *children)

    def _table_tree(self, view: dict) -> Node:
        viewer = self.viewer
        over = self.table.match.result() is not None
        lines = self.log_lines()
        status = (
            self.table.match.result().reason
            if over
            else self.screen.status(view, viewer if viewer is not None else 0, self.you())
        )
        tools = self._tools(view, over)
        return h(
            "div",
            {"class": "play-table"},
            h(
                "header",
                {"class": "play-bar"},
                h(
                    "h2",
                    {"class": "turn", "data-role": "status", "tabindex": "-1"},
                    *self._status_words(view, status),
                ),
                h("div", {"class": "tools"}, *tools),
            ),
            # a hint or a refusal while there is one, else the last move (a click on notes or
            # a target must not blank it)
            # (the page's own live region, #announcer, says each move: see `take_said`)
            h(
                "p",
                {"class": "message", "data-role": "message"},
                self.message or (lines[-1] if lines else ""),
            ),
            self._undo_question() if self.asking_undo else None,
            description_tree(self.board_sentences()) if self.describing else None,
            h(
                "div",
                {"class": "play-main"},
                since_tree(self.since_your_turn()),  # read first; placed by the stylesheet
                # the result, beside the board and never over it (its marks tell the end); else
                # the controls: first, as Tab follows a turn (choose, then where on the board)
                self._result_tree(self.table.match.result())
                if over and self.result_open
                else h("div", {"class": "side play-controls"}, self.screen.controls(self, view))
                if viewer is not None
                else None,
                h("div", {"class": "board-wrap"}, self.screen.board(self, view)),
                h(
                    "aside",
                    {"class": "side"},
                    self._seats_tree(view),
                    log_tree(lines, self.log_open, self.scope),
                ),
            ),
        )

    def _tools(self, view: dict, over: bool) -> list[Node | None]:
        """The play bar's buttons, each with its "?"."""

        def tool(cmd: str, label: str, text: str, disabled: bool = False, **more: Any) -> Node:
            button = h(
                "button",
                {"class": "button small", "data-cmd": cmd, "type": "button", **more},
                label,
            )
            if disabled:
                button.attrs["disabled"] = ""
            return with_help(button, cmd, label, text)

        watching = self.viewer is None
        return [
            tool(
                "undo",
                "Undo",
                "Takes back the last move; never back past a secret once it is shown.",
                disabled=over or watching or not self.can_undo(),
            )
            if self.online is None
            else None,
            tool(
                "offer-draw",
                "Offer a draw",
                "Proposes to end the game as a draw; the other player accepts or plays on.",
                disabled=over or view.get("offer") is not None,
            )
            if "offer" in view
            else None,
            tool(
                "describe-board",
                "Describe the board",
                "Reads the position out in sentences, for a screen reader or a second look.",
                disabled=watching and not over,
                aria_expanded="true" if self.describing else "false",
            ),
            tool("show-result", "Result", "Opens the result and the fair-play check again.")
            if over
            else None,
            with_help(
                h("a", {"class": "button small", "href": f"#rules-{self.game.id}"}, "Rules"),
                "rules",
                "Rules",
                "Opens this game's rules; your game waits here.",
            ),
            with_help(
                h("a", {"class": "button small", "href": f"#new-{self.game.id}"}, "New game"),
                "new-game",
                "New game",
                "Goes to the set-up form; you are asked before this game is replaced.",
            ),
        ]

    def _undo_question(self) -> Node | None:
        """Pass-and-play: taking back another player's move needs that player's yes."""
        mover = self.undo_asks()
        viewer = self.viewer if self.viewer is not None else 0
        if mover is None:
            return None
        shown, asker = self.names[viewer], self.names[mover]
        move = self._describe_entry(self.undo_target())
        return h(
            "div",
            {
                "class": "confirm undo-question",
                "data-role": "undo-question",
                "role": "alertdialog",
                "aria-labelledby": f"{self.scope}-undo-question",
            },
            h(
                "h2",
                {"id": f"{self.scope}-undo-question", "tabindex": "-1"},
                f"{shown}: take back {asker}'s move?",
            ),
            h("p", None, f"{asker}'s move: {move}"),
            h(
                "p",
                None,
                f"Only if {asker} asks: the game goes back to {asker}'s turn and the device "
                f"goes to {asker}. Your own turn comes after.",
            ),
            h(
                "div",
                {"class": "actions"},
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "allow-undo", "type": "button"},
                    f"Allow: take back {asker}'s move",
                ),
                h(
                    "button",
                    {
                        "class": "button",
                        "data-cmd": "refuse-undo",
                        "type": "button",
                        "autofocus": True,
                    },
                    "Keep the move",
                ),
            ),
        )

    def _alone(self) -> bool:
        """One device shows one seat all game: online, or one person against bots."""
        return self.online is not None or (bool(self.bots) and len(self.humans) == 1)

    def _my_turn(self) -> bool:
        """Where one device shows one seat all game (online, or one person against bots): is
        that seat to act by hand?"""
        if not self._alone() or self.viewer is None or self.table.match.result() is not None:
            return False
        state = self.table.state
        seat = self.viewer
        return seat in self.game.to_move(state) and not self.game.automatic(state, seat)

    def _status_words(self, view: dict, status: str) -> list[Node | str | None]:
        """The heading's words: the chip ("Your turn", or ESPEERS's "Your answer") where the
        person acts by hand, a bot's "Thinking…", and the status sentence. A sentence that
        already opens with the chip's words ("Your turn: place a tile") gives them to the
        chip, so they show once: [Your turn] Place a tile."""
        chip = self._turn_words(view) if self._my_turn() else None
        if chip is not None and status.startswith(f"{chip}: "):
            status = capital(status[len(chip) + 2 :])
        return [
            h("span", {"class": "your-turn"}, chip) if chip is not None else None,
            h("span", {"class": "visually-hidden"}, ": ") if chip is not None else None,
            h("span", {"class": "thinking", "data-role": "thinking"}, "Thinking…")
            if self.bot_thinking() is not None
            else None,
            status,
        ]

    def _turn_words(self, view: dict) -> str:
        """The chip of `_my_turn`: "Your turn", unless the game says this is a chance to
        answer in another player's turn (ESPEERS's Opportunity)."""
        words = getattr(self.screen, "turn_words", None)
        seat = self.viewer if self.viewer is not None else 0
        return str(words(view, seat)) if words is not None else "Your turn"

    def _seats_tree(self, view: dict) -> Node:
        acting = self.to_act()
        if acting is None:
            acting = self.bot_thinking()
        return seats_tree(self.screen, view, self.names, acting, self.viewer, self.bots)

    def _relayed(self) -> frozenset[int]:
        """On a guest: the other guests' seats (all they say comes through the host)."""
        online = self.online
        if online is None or online.is_host:
            return frozenset()
        host = online.links.get("host")
        near = set(online.local) | set(host.seats if host else ())
        return frozenset(s for s in range(len(self.names)) if s not in near)

    def you(self) -> int | None:
        """The seat of the one person at this device (alone against bots, or online), whom
        the status line and the result address as "you"; None in pass-and-play."""
        return self.viewer if self._alone() and len(self.humans) == 1 else None

    def _result_tree(self, result: Any) -> Node:
        title = outcome_title(result, self.names, self.you())
        return h(
            "div",
            {"class": "result-panel", "data-role": "result"},
            h(
                "section",
                {"class": "dialog", "aria-labelledby": f"{self.scope}-result-title"},
                h("h2", {"id": f"{self.scope}-result-title", "tabindex": "-1"}, title),
                h("p", None, result.reason),
                self.screen.final_details(self),
                audit_tree(
                    self.audit_result,
                    self.names,
                    online=self.online is not None,
                    relayed=self._relayed(),
                ),
                *self._result_notes(),
                self._share_tree() if self.sharing else None,
                h(
                    "div",
                    {"class": "actions"},
                    h(
                        "button",
                        {"class": "button primary", "data-cmd": "rematch", "type": "button"},
                        "Rematch",
                    )
                    if self.online is None
                    else None
                    if self.result_extras
                    else play_again_button(self.online),
                    h("a", {"class": "button", "href": f"#new-{self.game.id}"}, "New game"),
                    h(
                        "button",
                        {"class": "button", "data-cmd": "close-result", "type": "button"},
                        "Close",
                    ),
                    h(
                        "button",
                        {
                            "class": "button",
                            "data-cmd": "share",
                            "type": "button",
                            "aria-pressed": "true" if self.sharing else "false",
                        },
                        "Share this game",
                    ),
                    h("a", {"class": "button", "href": "#home"}, "All games"),
                ),
            ),
        )

    def _result_notes(self) -> list[Node | None]:
        """Online: every device's verdict, the table code, who can play again; by link, its
        own notes."""
        if self.result_extras is not None:
            return self.result_extras()
        if self.online is None:
            return []
        online = self.online
        return [verdicts_tree(online), table_trust(online, long=True), play_again_note(online)]

    def _share_tree(self) -> Node:
        """The link that replays this game anywhere, and the game as a file."""
        record = self.replay_record()
        online = self.online is not None
        missing = online and any(v is None for v in self.end_openings().values())
        return h(
            "section",
            {
                "class": "share",
                "data-role": "share",
                "aria-labelledby": f"{self.scope}-share-title",
            },
            h("h3", {"id": f"{self.scope}-share-title"}, "Share this game"),
            h(
                "p",
                {"class": "hint"},
                "Anyone with this link can watch the game move by move and check it themselves: "
                "it holds every move and the secrets opened at the end.",
                " Secrets not opened yet are left out." if missing else None,
            ),
            _share_link(record.link(self.site)),
            h(
                "div",
                {"class": "actions"},
                h(
                    "a",
                    {"class": "button small", "href": "#replay=" + record.code()},
                    "Watch the replay",
                ),
                h(
                    "button",
                    {"class": "button small", "data-cmd": "download-game", "type": "button"},
                    "Download the game file",
                ),
            ),
        )


def _share_link(link: str) -> Node:
    """The link to copy; one too long for a messenger is not offered: the game file is."""
    too_long = too_long_to_send(link)
    if too_long is None:
        return copy_box(link, "Link to this game's replay", "share-link")
    return h("p", {"class": "hint", "data-role": "long-link"}, too_long)


def newest_told(match: Any, screen: GameScreen) -> LastMove | None:
    """The newest entry of `match` that `screen` tells in words (forfeits aside), as a move."""
    for entry in reversed(match.entries):
        if not declared(entry.action) and describe_entry(screen, match, entry):
            before = told_before(match, entry.seq)
            return LastMove(entry.seq, entry.seat, match.game.parse_action(entry.action), before)
    return None


def you_of(session: Any) -> int | None:
    """The seat a screen addresses as "you" (`PlaySession.you`); None for a replay's
    spectator, which has no person at the table."""
    you = getattr(session, "you", None)
    return you() if callable(you) else None


def last_move_of(session: Any) -> LastMove | None:
    """The move a board marks: a play session's `last_move`; a replay's spectator (which has
    none) the same, found in the match it shows. None when there is nothing to read."""
    told = getattr(session, "last_move", None)
    try:
        if callable(told):
            return told()  # type: ignore[no-any-return]
        return newest_told(session.table.match, session.screen)
    except (ParlourError, ValueError, TypeError, KeyError, AttributeError, IndexError):
        return None  # a session with no match, or an entry its game does not read


STATUS = "[data-role=status]"  # the play screen's heading
SINCE_MOST = 6  # lines in "Since your turn:"; the log has the rest
RESULT_TITLE = "[data-role=result] h2"  # the result's title


def describe_entry(screen: GameScreen, match: Any, entry: Any) -> str:
    """A log entry of `match` in words ("" for a routine step the game does not tell)."""
    before = told_before(match, entry.seq)
    forfeit, timeout = forfeited_seat(entry.action), timed_out_seat(entry.action)
    if forfeit is not None:
        return f"{before.name(forfeit)} did not take a required step in time and forfeits."
    if timeout is not None:
        return f"{before.name(timeout)} ran out of time for a move and forfeits."
    return screen.describe(before, entry.seat, match.game.parse_action(entry.action))


def told_before(match: Any, seq: int) -> Any:
    """The state move `seq` was played in, as the log tells it: in a game played on from a
    replay (`match/play_on.py`) the original's moves under the names of who really made them,
    "Ada (original game)", not the new game's players who now hold those seats."""
    before = match.state_at(seq - 1)
    original = match.config.original_names(seq)
    if original is None:
        return before
    names = tuple(f"{name} (original game)" for name in original)
    return replace(before, setup=replace(before.setup, seat_names=names))


def seats_tree(
    screen: GameScreen,
    view: dict,
    names: tuple[str, ...],
    acting: int | None,
    viewer: int | None,
    bots: dict[int, str],
) -> Node:
    """The one players panel: each seat's name, its line in the game's words, who acts."""
    items = []
    for seat, name in enumerate(names):
        classes = f"seat seat-{seat}" + (" acting" if seat == acting else "")
        items.append(
            h(
                "li",
                {"class": classes},
                h("span", {"class": "swatch", "aria-hidden": "true"}),
                h("strong", None, name),
                h("span", {"class": "seat-line"}, screen.seat_line(view, seat)),
                h("span", {"class": "you"}, "you") if seat == viewer else None,
                h("span", {"class": "bot-level"}, f"bot, {bots[seat]}") if seat in bots else None,
            )
        )
    return h("section", {"class": "seats", "aria-label": "Players"}, h("ul", None, *items))


def waiting_tree(view_names: list[str], seats: list[int], doing: str) -> Node:
    """While other seats act (online, where each device shows its own seat throughout)."""
    who = " and ".join(view_names[s] for s in seats) or "the others"
    return h(
        "section",
        {"class": "controls waiting", "data-role": "waiting"},
        h("p", None, f"Waiting for {who} {doing}…"),
    )


def handoff_tree(name: str, last_move: str | None = None, mover: str | None = None) -> Node:
    """The one hand-off screen: nothing of any seat's secrets, just who takes the device; and,
    while `mover` (who has just moved) still holds it, their way to take the move back."""
    return h(
        "div",
        {"class": "handoff", "data-role": "handoff"},
        h("p", {"class": "last-move", "data-role": "last-move"}, last_move) if last_move else None,
        h(
            "p",
            {"class": "take-back", "data-role": "take-back"},
            f"{mover}, not what you meant? ",
            h(
                "button",
                {"class": "button small", "data-cmd": "take-back", "type": "button"},
                "Take back my move",
            ),
        )
        if mover
        else None,
        h("p", {"class": "eyebrow"}, "Pass the device to"),
        h("h2", None, name),
        h("p", None, "Everyone else, look away: the next screen shows this player's secrets."),
        h(
            "button",
            {
                "class": "button primary",
                "data-cmd": "take-device",
                "type": "button",
                "autofocus": True,
            },
            f"I'm {name}: show my view",
        ),
    )


def log_tree(lines: list[str], open_: bool = True, scope: str = "replay") -> Node:
    """The one log panel: the moves in words, newest last, the newest `LOG_ROWS` of them (a
    longer log says how many earlier moves it leaves out: a page of thousands of rows froze
    the replay viewer, issue 25); it folds away to a button (the fold is the session's, so a
    redraw keeps it)."""
    shown = lines[-LOG_ROWS:]
    earlier = len(lines) - len(shown)
    items = [h("li", None, line) for line in shown]
    return h(
        "section",
        {"class": "log" + ("" if open_ else " folded"), "aria-label": "Game log"},
        h(
            "h3",
            None,
            h(
                "button",
                {
                    "class": "log-toggle",
                    "type": "button",
                    "data-cmd": "toggle-log",
                    "aria-expanded": "true" if open_ else "false",
                    "aria-controls": f"{scope}-game-log",
                },
                "Game log",
                h("span", {"class": "log-count"}, f" ({len(lines)})") if not open_ else None,
            ),
        ),
        h(
            "div",
            {"id": f"{scope}-game-log", "hidden": not open_},
            h(
                "p",
                {"class": "hint", "data-role": "log-earlier"},
                earlier_words(earlier, "move", "moves"),
            )
            if earlier
            else None,
            # it scrolls once long: Tab reaches it, so the arrow keys scroll it (axe)
            h(
                "ol",
                {
                    "data-role": "log",
                    "tabindex": "0",
                    "aria-label": "Moves, oldest first",
                    "start": earlier + 1 if earlier else None,
                },
                *items,
            )
            if items
            else h("p", None, "No moves yet."),
        ),
    )


def earlier_words(count: int, one: str, many: str) -> str:
    """The line beside a list drawn only in part: how many earlier rows it leaves out."""
    return f"… {count:,} earlier {one if count == 1 else many}, not shown here."


def since_tree(lines: list[str]) -> Node | None:
    """ "Since your turn:": the others' moves since yours, in one place beside the board."""
    if not lines:
        return None
    return h(
        "section",
        {"class": "since", "data-role": "since", "aria-label": "Since your turn"},
        h("h3", None, "Since your turn:"),
        h("ol", None, *(h("li", None, line) for line in lines)),
    )


def description_tree(sentences: list[str]) -> Node:
    """ "Describe the board": the position in sentences, under the play bar."""
    return h(
        "section",
        {"class": "board-description", "data-role": "description", "aria-label": "The board"},
        h("h3", None, "The board in words"),
        h("ul", None, *(h("li", None, s) for s in sentences)),
    )


def audit_tree(
    result: Verified | Cheat | Unverified | None,
    names: tuple[str, ...],
    online: bool = False,
    relayed: frozenset[int] = frozenset(),
) -> Node:
    """The fair-play check's result. `relayed`: seats whose every message reached this device
    through the host's (another guest's, seen from a guest): a cheat pinned on one of them could
    also be the host altering its messages on the way, and the reader is told how to tell."""
    if isinstance(result, Verified):
        return h(
            "p",
            {"class": "audit verified", "data-audit": "verified"},
            "Fair-play check: verified. ",
            result.summary,
        )
    if isinstance(result, Cheat):
        who = names[result.seat] if 0 <= result.seat < len(names) else "A player"
        return h(
            "p",
            {"class": "audit cheat", "data-audit": "cheat"},
            f"Fair-play check: {who} cheated. ",
            result.reason,
            f" {who}'s messages reached this device through the host's: if {who}'s own device "
            "says verified below, the host's device changed them on the way."
            if result.seat in relayed
            else None,
        )
    if isinstance(result, Unverified):
        return h(
            "p",
            {"class": "audit unverified", "data-audit": "unverified"},
            "Fair-play check: unverified. ",
            result.reason,
        )
    if online:
        return h(
            "p",
            {"class": "audit", "data-audit": "pending"},
            "Fair-play check: waiting for the other devices to open their secrets…",
        )
    return h("p", {"class": "audit"}, "Fair-play check pending.")


def saved_summary(saved: object) -> dict | None:
    """Who plays a saved game and how far it went, read without replaying it; None if there is
    no game in progress worth asking about (none, finished, or unreadable)."""
    if not isinstance(saved, dict):
        return None
    summary = saved.get("summary")
    if isinstance(summary, dict):
        if summary.get("over"):
            return None
        names, moves = summary.get("names"), summary.get("moves")
    else:  # saved before summaries: read the config and count the log
        match = (
            saved.get("table", {}).get("match", {}) if isinstance(saved.get("table"), dict) else {}
        )
        names = match.get("config", {}).get("seats") if isinstance(match, dict) else None
        moves = len(match.get("log", [])) if isinstance(match, dict) else 0
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    return {"names": names, "moves": moves if isinstance(moves, int) else 0}


def replace_game_tree(game_id: str, game_name: str, summary: dict) -> Node:
    """Starting a new game would replace the one saved on this device: ask first."""
    names = summary["names"]
    who = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
    moves = summary["moves"]
    so_far = f"{moves} move{'s' if moves != 1 else ''} in" if moves else "not started yet"
    return h(
        "div",
        {
            "class": "confirm",
            "data-role": "replace-game",
            "role": "alertdialog",
            "aria-labelledby": f"replace-{game_id}-title",
        },
        h("h2", {"id": f"replace-{game_id}-title"}, f"Replace your game of {game_name}?"),
        h(
            "p",
            None,
            f"Your game with {who} ({so_far}) is saved on this device. Starting a new game "
            "will lose it: this device keeps one game of each kind.",
        ),
        h(
            "div",
            {"class": "actions"},
            h(
                "a",
                {"class": "button primary", "href": f"#play-{game_id}", "autofocus": True},
                "Back to my game",
            ),
            h(
                "button",
                {"class": "button", "type": "button", "data-cmd": "replace-game"},
                "Start the new game",
            ),
        ),
    )
