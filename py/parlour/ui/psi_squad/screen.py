"""Psi Squad on the shared play screen: the play sheet, guess entry and the deduction grid (pure).

The public board (everyone's status, every cypher's Value, the full history) is what the paper
play sheet shares at the table. A seat's own cypher and its notes appear in its own view only.
Legality is the engine's `guess_problem`; this module just collects digits and a target.

A seat's notes (`PlaySession.notes_of(seat)`, saved with the game) hold one grid per other seat,
under that seat's number as a string ("2" -> {"pos:digit": mark}), and under NOTES_TARGET whose
grid is on screen: chosen with the notes panel's own buttons, any time, and kept across moves
(the guess's selection is reset after every move).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.games.psi_squad import words
from parlour.games.psi_squad.actions import Answer, ChooseCypher, Guess
from parlour.games.psi_squad.state import CYPHER_LABEL, PsiState
from parlour.games.psi_squad.views import PsiMe, PsiPublicView, PsiRecord, PsiSeatView
from parlour.numbers import whole
from parlour.ui.help import help_tip, with_help
from parlour.ui.psi_squad.notes import NOTE_CYCLE, NOTES_TARGET, notes_target, notes_tree
from parlour.ui.psi_squad.tables import history_table, signed, status_table, target_history
from parlour.ui.seat import run_command
from parlour.ui.tree import Node, h
from parlour.ui.widgets import last_move_of, waiting_tree
from parlour.words import capital, possessive, with_verb

if TYPE_CHECKING:
    from parlour.ui.seat import Seat


@dataclass
class PsiSelection:
    digits: str = ""
    target: int | None = None


def answer_words(r: PsiRecord, names: Sequence[str]) -> str:
    """A guess and its answer in a sentence, as the play sheet records it."""
    return (
        f"{names[r['guesser']]} guessed {r['digits']} for {possessive(names[r['target']])} "
        f"cypher: {r['correct']} correct, {r['spotted']} spotted, Value {r['value']} "
        f"({names[r['guesser']]} {signed(r['change'])})."
    )


class PsiScreen:
    def new_selection(self) -> PsiSelection:
        return PsiSelection()

    def describe(self, before: PsiState, seat: int, action: Any) -> str:

        return words.describe(before, seat, action)

    def status(self, view: PsiPublicView, viewer: int, you: int | None = None) -> str:
        """What the game waits for; addressed to `you` (one person alone against bots)."""
        names = [s["name"] for s in view["seats"]]
        if view["stage"] == "setup":
            waiting = sum(1 for s in view["seats"] if not s["ready"])
            if you is not None and not view["seats"][you]["ready"]:
                return f"Your turn: choose your secret cypher ({waiting} still to choose)."
            return f"Everyone chooses a secret cypher ({waiting} still to choose)."
        if not view["to_move"]:
            return "The game is over."
        acting = view["to_move"][0]
        if acting == you:
            return "Your turn: guess a cypher."
        return f"{names[acting]} to guess a cypher."

    def seat_line(self, view: PsiPublicView, seat: int) -> str:
        info = view["seats"][seat]
        if view["stage"] == "setup":
            return "cypher sealed" if info["ready"] else "choosing a cypher"
        state = "guessed" if info["guessed"] else f"Value {info['value']}"
        return f"status {info['status']} · {state}"

    def describe_board(self, view: PsiPublicView, viewer: int | None) -> list[str]:
        """The play sheet in sentences ("Describe the board"): everyone's status and Value,
        the newest guesses, and the viewer's own cypher, never another seat's."""
        names = [s["name"] for s in view["seats"]]
        lines = [] if view.get("outcome") else [self.status(view, viewer or 0)]
        lines.append(f"Cyphers of {view['length']} digits; the highest status is {view['max']}.")
        for seat, info in enumerate(view["seats"]):
            you = " (you)" if seat == viewer else ""
            if view["stage"] == "setup":
                ready = "cypher sealed" if info["ready"] else "still choosing a cypher"
                lines.append(f"{info['name']}{you}: {ready}.")
                continue
            cypher = "cypher guessed" if info["guessed"] else f"cypher Value {info['value']}"
            lines.append(f"{info['name']}{you}: status {info['status']}, {cypher}.")
        me = view.get("me")
        if isinstance(me, dict) and me.get("seat") == viewer and me.get("cypher"):
            lines.append(f"Your cypher: {' '.join(str(me['cypher']))}.")
        history = view["history"]
        if history:
            newest = [answer_words(r, names) for r in reversed(history[-3:])]
            count = f"{len(history)} guess" + ("es" if len(history) != 1 else "")
            lines.append(f"{count} so far; the newest first: " + " ".join(newest))
        elif view["stage"] == "play":
            lines.append("No guesses yet.")
        pending = view["pending"]
        if pending is not None:
            lines.append(
                f"{capital(possessive(names[pending['guesser']]))} guess {pending['digits']} "
                f"waits for {possessive(names[pending['target']])} answer."
            )
        bonus = view["bonus"]
        if bonus is not None:
            gains = with_verb(names[bonus["seat"]], "gains")
            lines.append(f"{gains} {bonus['points']} for the last cypher.")
        return lines

    # -- the public board ----------------------------------------------------------------

    def board(self, session: Seat, view: PsiPublicView) -> Node:
        names = [s["name"] for s in view["seats"]]
        last = self._last_guess(session, view)
        target = last["target"] if last else None
        pending = view["pending"]
        if pending is not None:  # online: the guess waits for its target's device
            target = pending["target"]
        note = (
            f"Last guess (outlined): {answer_words(last, names)}"
            if last
            else f"{with_verb(names[pending['guesser']], 'guesses')} {pending['digits']} for "
            f"{possessive(names[pending['target']])} cypher: waiting for the answer."
            if pending
            else None
        )
        return h(
            "div",
            {"class": "sheet", "data-role": "sheet"},
            h("p", {"class": "hint last-move-note", "data-role": "last-guess-note"}, note)
            if note
            else None,
            status_table(view, target),
            history_table(view, last["step"] if last else None),
        )

    def _last_guess(self, session: Seat, view: PsiPublicView) -> PsiRecord | None:
        """The play sheet's record of the newest move, when it is the answer to a guess."""
        last = last_move_of(session.match, self)
        if last is None or not isinstance(last.action, Answer):
            return None
        return next((r for r in view["history"] if r["step"] == last.seq), None)

    # -- the controls beside the board ---------------------------------------------------

    def controls(self, session: Seat, view: PsiSeatView) -> Node | None:
        me = view["me"]
        names = [s["name"] for s in view["seats"]]
        if view["stage"] == "setup":
            if me["cypher"] is None:
                return self._choose_cypher(session, view)
            choosing = [s for s, info in enumerate(view["seats"]) if not info["ready"]]
            return h(
                "div",
                {"class": "psi-controls"},
                self._own_cypher(me),
                waiting_tree(names, choosing, "to choose a cypher"),
            )
        if session.viewer in view["to_move"]:
            turn: Node | None = self._guess_entry(session, view)
        elif view["to_move"]:
            turn = waiting_tree(names, view["to_move"], "to guess")
        else:
            turn = None  # the end (online, a device keeps showing its seat's view)
        # the notes are there on and off turn: deducing goes on while others guess
        return h(
            "div",
            {"class": "psi-controls"},
            self._own_cypher(me),
            turn,
            notes_tree(session.notes_of(session.viewer), view, session.viewer)
            if session.viewer is not None
            else None,
        )

    def _own_cypher(self, me: PsiMe) -> Node:
        return h(
            "section",
            {"class": "controls own-cypher"},
            h("h3", None, "Your cypher"),
            h("p", {"class": "cypher", "data-role": "own-cypher"}, me["cypher"] or "?"),
            h("p", {"class": "hint"}, "Only you see this. Keep your face straight."),
        )

    def _pad(
        self, digits: str, length: int, action: str, label: str, beside: Node | None = None
    ) -> list[Node]:
        """The digits typed so far, the pad and the button that sends them; `beside` goes next
        to the pad (a guess: the chosen target's guesses so far)."""
        slots = [
            h(
                "span",
                {"class": "slot" + (" filled" if i < len(digits) else "")},
                digits[i] if i < len(digits) else "·",
            )
            for i in range(length)
        ]
        keys = [
            h(
                "button",
                {
                    "class": "key",
                    "data-cmd": "digit",
                    "data-digit": str(d),
                    # the page gives the focus back to the key of this name after a redraw
                    "data-name": str(d),
                    "tabindex": "0" if d == 1 else "-1",
                    "type": "button",
                },
                str(d),
            )
            for d in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
        ]
        keys.append(
            h(
                "button",
                {
                    "class": "key",
                    "data-cmd": "erase",
                    "type": "button",
                    "tabindex": "-1",
                    "aria-label": "Erase the last digit",
                },
                "⌫",
            )
        )
        send = (
            "Seals your cypher with a commitment: nobody sees it, and it cannot change after."
            if action == "seal-cypher"
            else f"Sends your guess; the target's cypher answers how many of its digits are "
            f"correct (in the cypher, anywhere) and how many are spotted (the right digit in the "
            f"right place): {words.answer_example()}."
        )
        return [
            h(
                "div",
                {"class": "entry-row"},
                h(
                    "div",
                    {
                        "class": "digits-display",
                        "data-role": "entry",
                        "role": "group",
                        "aria-label": f"{label}: {' '.join(digits) or 'no digits yet'}",
                    },
                    *slots,
                ),
                help_tip(
                    f"psi-pad-{action}",
                    "the digit keys",
                    "Each key adds a digit and ⌫ takes the last one back; the keyboard's digits, "
                    "Backspace and Enter do the same.",
                ),
            ),
            h(
                "div",
                {"class": "pad-row" + (" with-history" if beside is not None else "")},
                h(
                    "div",
                    {
                        "class": "pad",
                        "role": "group",
                        "aria-label": "Digits",
                        "data-roving": "pad",
                    },
                    *keys,
                ),
                beside,
            ),
            with_help(
                h(
                    "button",
                    {"class": "button primary", "data-cmd": action, "type": "button"},
                    label,
                ),
                f"psi-{action}",
                label,
                send,
            ),
        ]

    def _choose_cypher(self, session: Seat, view: PsiPublicView) -> Node:
        sel: PsiSelection = session.selection
        n = view["length"]
        return h(
            "section",
            {"class": "controls"},
            h("h3", None, "Choose your secret cypher"),
            h(
                "p",
                None,
                f"Pick {n} digits; repeats are allowed. Nobody else will see them, "
                "and once sealed they cannot change.",
            ),
            *self._pad(sel.digits, n, "seal-cypher", "Seal my cypher"),
            h("p", {"class": "hint"}, "You can also type the digits on a keyboard."),
        )

    def _guess_entry(self, session: Seat, view: PsiSeatView) -> Node:
        sel: PsiSelection = session.selection
        me = view["me"]["seat"]
        open_ = [s for s, info in enumerate(view["seats"]) if s != me and not info["guessed"]]
        stop = sel.target if sel.target in open_ else (open_[0] if open_ else None)
        targets = [
            h(
                "button",
                {
                    "class": "button small",
                    "data-cmd": "target",
                    "data-seat": str(s),
                    "data-name": view["seats"][s]["name"],
                    "aria-pressed": "true" if sel.target == s else "false",
                    "tabindex": "0" if s == stop else "-1",
                    "type": "button",
                },
                view["seats"][s]["name"],
            )
            for s in open_
        ]
        return h(
            "section",
            {"class": "controls guess"},
            h("h3", None, "Your guess"),
            h(
                "p",
                {"class": "hint", "id": "psi-target-label"},
                "Whose cypher:",
                help_tip(
                    "psi-target",
                    "whose cypher",
                    "Chooses whose cypher you guess; a cypher already guessed is out of play.",
                ),
            ),
            h(
                "div",
                {
                    "class": "choice",
                    "role": "group",
                    "aria-labelledby": "psi-target-label",
                    "data-roving": "targets",
                },
                *targets,
            ),
            *self._pad(
                sel.digits, view["length"], "guess", "Guess", target_history(view, sel.target)
            ),
        )

    # -- the end -------------------------------------------------------------------------

    def final_details(self, session: Seat) -> Node | None:
        """Every cypher opened, the last cypher's bonus, and the ranking."""
        state: PsiState = session.match.state
        rows = []
        order = sorted(range(state.seats), key=lambda s: -state.status[s])
        for seat in order:
            store = session.opened(seat)
            cypher = store.value(CYPHER_LABEL) if store and CYPHER_LABEL in store else "unknown"
            bonus = f"+{state.bonus[1]}" if state.bonus and state.bonus[0] == seat else ""
            rows.append(
                h(
                    "tr",
                    None,
                    h("th", {"scope": "row"}, state.name(seat)),
                    h("td", {"class": "digits"}, cypher),
                    h("td", None, bonus),
                    h("td", None, str(state.status[seat])),
                )
            )
        return h(
            "table",
            {"class": "psi-final", "data-role": "final"},
            h(
                "thead",
                None,
                h(
                    "tr",
                    None,
                    h("th", None, "Player"),
                    h("th", None, "Cypher"),
                    h("th", None, "Bonus"),
                    h("th", None, "Status"),
                ),
            ),
            h("tbody", None, *rows),
        )

    # -- clicks and keys -----------------------------------------------------------------

    def handle(self, session: Seat, event: dict) -> str | None:
        return run_command(COMMANDS, self, session, event)

    def _digit(self, session: Seat, event: dict) -> None:
        self._type(session, event.get("digit", "")[:1])

    def _type(self, session: Seat, digit: str) -> None:
        sel: PsiSelection = session.selection
        if len(sel.digits) < session.match.state.length:
            sel.digits += digit

    def _key(self, session: Seat, event: dict) -> str | None:
        """The keyboard's digits, Backspace and Enter, as the keypad's buttons."""
        key = event.get("key", "")
        if key.isascii() and key.isdigit() and len(key) == 1:
            self._type(session, key)
        elif key in ("Backspace", "Enter"):
            setting_up = session.match.state.setting_up
            cmd = "erase" if key == "Backspace" else "seal-cypher" if setting_up else "guess"
            return self.handle(session, {"cmd": cmd})
        return None

    def _erase(self, session: Seat, _event: dict) -> None:
        session.selection.digits = session.selection.digits[:-1]

    def _target(self, session: Seat, event: dict) -> None:
        session.selection.target = whole(event.get("seat", ""))
        # the notes follow the cypher being guessed (they can be switched back any time)
        self._choose_notes_target(session, session.selection.target)

    def _notes_target(self, session: Seat, event: dict) -> None:
        self._choose_notes_target(session, whole(event.get("seat", "")))

    def _note(self, session: Seat, event: dict) -> None:
        self._cycle_note(session, event.get("note", ""))

    def _seal_cypher(self, session: Seat, _event: dict) -> str | None:
        digits = session.selection.digits
        problem = session.match.game.digits_problem(session.match.state, digits, "cypher")
        if problem:
            return problem  # type: ignore[no-any-return]
        session.act(ChooseCypher(digits))
        return None

    def _guess(self, session: Seat, _event: dict) -> str | None:
        sel: PsiSelection = session.selection
        state: PsiState = session.match.state
        problem = session.match.game.guess_problem(state, session.viewer, sel.target, sel.digits)
        if problem:
            return problem  # type: ignore[no-any-return]
        session.act(Guess(sel.target, sel.digits))
        return None

    def _choose_notes_target(self, session: Seat, target: int | None) -> None:
        viewer = session.viewer
        state: PsiState = session.match.state
        if viewer is None or target is None or target == viewer or not 0 <= target < state.seats:
            return
        session.notes_of(viewer)[NOTES_TARGET] = target

    def _cycle_note(self, session: Seat, key: str) -> None:
        viewer = session.viewer
        state: PsiState = session.match.state
        if viewer is None or state.setting_up:
            return
        target = notes_target(
            session.notes_of(viewer), [{"guessed": g} for g in state.guessed], viewer
        )
        pos, _, digit = (whole(part) for part in key.partition(":"))
        if target is None or pos is None or digit is None or pos >= state.length or digit > 9:
            return
        key = f"{pos}:{digit}"
        notes = session.notes_of(viewer)
        grid = notes.get(str(target))
        if not isinstance(grid, dict):
            grid = notes[str(target)] = {}
        now = grid.get(key, "")
        now = now if now in NOTE_CYCLE else ""
        nxt = NOTE_CYCLE[(NOTE_CYCLE.index(now) + 1) % len(NOTE_CYCLE)]
        if nxt:
            grid[key] = nxt
        else:
            grid.pop(key, None)


# Psi Squad's clicks and keys: each command the screen draws (`data-cmd`), and a key press.
COMMANDS: dict[str, Callable[[PsiScreen, Seat, dict], str | None]] = {
    "digit": PsiScreen._digit,
    "key": PsiScreen._key,
    "erase": PsiScreen._erase,
    "target": PsiScreen._target,
    "notes-target": PsiScreen._notes_target,
    "note": PsiScreen._note,
    "seal-cypher": PsiScreen._seal_cypher,
    "guess": PsiScreen._guess,
}
