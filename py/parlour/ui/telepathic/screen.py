"""Telepathic on the shared play screen: the grid, its words and its clicks (pure); the action
cards under the grid are drawn by action_cards.py, the controls by controls.py.

The palette is Okabe-Ito (safe for the common colour-vision deficiencies) and every tile also
has a distinct filled shape and a text label (title, aria-label), so nothing depends on colour.
There is deliberately no way to send any message to a partner: the only words a seat can put on
the table are the Announcement and, automatically, "the game is lost".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour.games.base import named
from parlour.games.telepathic import words
from parlour.games.telepathic.actions import (
    Announce,
    Continue,
    DeclareLost,
    HandCard,
    Perform,
    Respond,
    Reveal,
)
from parlour.games.telepathic.grid import (
    CARDS_BY_ID,
    COLUMNS,
    SIZE,
    apply_card,
    cell_name,
    set_cells,
    set_names,
)
from parlour.games.telepathic.state import CONDITIONS_LABEL, TeleState
from parlour.games.telepathic.views import TelePublicView, TeleSeatView
from parlour.numbers import whole
from parlour.ui.seat import LastMove, run_command
from parlour.ui.telepathic.action_cards import SETS_WORDS, card_row
from parlour.ui.telepathic.controls import (
    TeleSelection,
    in_a_line,
    my_cards,
    turn_controls,
    waiting_for,
)
from parlour.ui.tree import Node, h, s
from parlour.ui.widgets import last_move_of
from parlour.words import capital, possessive, with_verb

if TYPE_CHECKING:
    from parlour.ui.seat import Seat

CELL = 64
GAP = 6
SHAPE_PATHS = {
    "circle": "M0 -17a17 17 0 1 0 0.01 0z",
    "triangle": "M0 -19L18 14H-18z",
    "cross": "M-6 -19h12v13h13v12h-13v13h-12v-13h-13v-12h13z",
    "star": "M0 -20l5.9 12 13.1 1.9-9.5 9.3 2.2 13.1L0 10.1l-11.7 6.2 2.2-13.1-9.5-9.3 13.1-1.9z",
}
# Shapes are counted ("three stars"); colours describe ("three blue").
CONDITION_ORDER = ("win", "lose")


def _label(tile: list | tuple) -> str:
    return f"{tile[0]} {tile[1]}"


def set_frame(kind: str, index: int) -> tuple[int, int, int, int]:
    """A set's box on the grid as (first column, first row, columns, rows): a row, a column
    or a 2x2 quadrant is always a rectangle, so one frame outlines it."""
    cells = set_cells(kind, index)
    cols = [c % SIZE for c in cells]
    rows = [c // SIZE for c in cells]
    return min(cols), min(rows), max(cols) - min(cols) + 1, max(rows) - min(rows) + 1


def turn_perform(match: Any, last: LastMove | None) -> LastMove | None:
    """The newest Perform, which the board marks: the last move itself, or the one before what
    may follow it (a "play on", a lost game declared, an Announcement and its answer and
    reveals, and the next card handed over), so the set stays marked while the next card is
    handed and chosen for (the hand is read against it: the game's only signal), and the set
    that ended a game stays marked at the end."""
    if last is None or isinstance(last.action, Perform):
        return last
    if not isinstance(last.action, (Continue, DeclareLost, Announce, Respond, Reveal, HandCard)):
        return None
    for entry in reversed(match.entries[: last.seq - 1]):
        action = match.game.parse_action(entry.action)
        if isinstance(action, Perform):
            return LastMove(entry.seq, entry.seat, action, match.state_at(entry.seq - 1))
        if isinstance(action, HandCard):
            return None
    return None


def partner_in_team(seat: int) -> int:
    """Teams: seats 1 and 3 play against 2 and 4 (0 and 2 against 1 and 3 counted from 0)."""
    return (seat + 2) % 4


class TeleScreen:
    def new_selection(self) -> TeleSelection:
        return TeleSelection()

    def describe(self, before: TeleState, seat: int, action: Any) -> str:
        return words.describe(before, seat, action)

    # -- words ----------------------------------------------------------------------------

    def status(self, view: TelePublicView, viewer: int, you: int | None = None) -> str:
        """What the game waits for; addressed to `you` (one person alone against bots)."""
        names = [seat["name"] for seat in view["seats"]]
        phase = view["phase"]
        if phase == "hand":
            active = view["active"]
            if view["must_announce"]:
                must = f"{named(names, active, you)} must"
                return f"Every action card is used: {must} make the Announcement."
            receiver = named(names, view["receiver"], you)
            if active == you:
                return f"Your turn: hand an action card to {receiver}."
            return f"{with_verb(names[active], 'hands')} an action card to {receiver}."
        if phase == "perform":
            if view["performer"] == you:
                return "Your turn: choose where the card acts."
            return f"{with_verb(names[view['performer']], 'chooses')} where the card acts."
        if phase == "window":
            return f"{capital(named(names, view['performer'], you))} may announce now."
        if phase == "respond":
            if view["to_move"][0] == you:
                return "Your turn: answer the Announcement."
            return f"{with_verb(names[view['to_move'][0]], 'answers')} the Announcement."
        return "Dealing the condition cards…" if phase == "setup" else "Checking…"

    def seat_line(self, view: TelePublicView, seat: int) -> str:
        roles = view["seats"][seat]["roles"]
        if not roles:
            return "director"
        kind = roles[0][0]
        cards = " + ".join(which for _, which in roles)
        line = f"{kind} · {cards}"
        if view["arrangement"] != "teams":
            return line
        me = view.get("me", {}).get("seat")
        partner = view["seats"][partner_in_team(seat)]["name"]
        if me is not None and seat == partner_in_team(me):
            return f"your partner · {line}"
        if me is not None and seat % 2 != me % 2:
            return f"other team, with {partner} · {line}"
        return f"team with {partner} · {line}"

    def describe_board(self, view: TelePublicView, viewer: int | None) -> list[str]:
        """The position in sentences ("Describe the board"): what happens now, the grid row by
        row, the action cards, and the viewer's own condition cards, never another seat's (they
        are secret until opened at the end, and then `revealed` is public)."""
        names = [seat["name"] for seat in view["seats"]]
        lines = [] if view.get("outcome") else [self.status(view, viewer or 0)]
        grid = view["grid"]
        for row in range(SIZE):
            tiles = ", ".join(
                f"{COLUMNS[col]} {_label(grid[row * SIZE + col])}" for col in range(SIZE)
            )
            where = " (north)" if row == 0 else " (south)" if row == SIZE - 1 else ""
            lines.append(f"Row {row + 1}{where}, west to east: {tiles}.")
        faces = [
            f"{CARDS_BY_ID[c].name} ({SETS_WORDS[CARDS_BY_ID[c].sets]})" for c in view["row"] if c
        ]
        cards = "Face-up action cards: " + ("; ".join(faces) or "none")
        deck = f"{view['deck']} in the deck, " if view["mode"] != "first" else ""
        lines.append(f"{cards}. {deck}{view['used']} used.")
        if view["phase"] == "perform" and view["handed"] and view["performer"] is not None:
            card = CARDS_BY_ID[view["handed"]].name
            lines.append(f"{names[view['active']]} handed {names[view['performer']]} {card}.")
        me = view.get("me")
        if isinstance(me, dict) and me.get("seat") == viewer:
            mine = [
                f"Your {which} condition: {in_a_line(me['conditions'][which])}"
                + (", met on the grid now." if me["met"].get(which) else ", not met now.")
                for which in CONDITION_ORDER
                if which in me["conditions"]
            ]
            lines += mine or ["You are the director: you hold no condition cards."]
        if view["claims"]:
            said = "; ".join(f"{possessive(names[int(s)])} win is {n}" for s, n in view["claims"])
            lines.append(f"Announced: {said}.")
        for seat, opened in sorted(view["revealed"].items()):
            shown = ", ".join(f"{w} {opened[w]}" for w in CONDITION_ORDER if w in opened)
            lines.append(
                f"{capital(possessive(names[int(seat)]))} condition cards, opened: {shown}."
            )
        return lines

    # -- the grid -------------------------------------------------------------------------

    def _preview(self, session: Seat, view: TelePublicView) -> tuple[list, set[int]]:
        sel: TeleSelection = session.selection
        grid = [tuple(t) for t in view["grid"]]
        if (
            view["phase"] != "perform"
            or sel.set_index is None
            or session.viewer != view["performer"]
        ):
            return grid, set()
        card = CARDS_BY_ID[view["handed"]]
        return list(apply_card(tuple(grid), card, sel.set_index)), set(
            set_cells(card.sets, sel.set_index)
        )

    def _acted_on(self, session: Seat, view: TelePublicView) -> tuple[str, int, str] | None:
        """The set the newest turn's card acted on, as (the card's sets, which, the sentence
        under the grid), or None (no card has acted yet, or a new turn has begun)."""
        last = last_move_of(session.match, self)
        perform = turn_perform(session.match, last)
        if perform is None:
            return None
        before = perform.before
        card = CARDS_BY_ID[before.row[before.handed]]
        index = perform.action.set_index
        target = set_names(card.sets)[index]
        who = named(before.setup.seat_names, perform.seat, session.you())
        words = f"Dashed frame: {target}, where {who} applied {card.name}."
        if last is not None and isinstance(last.action, HandCard):
            # the card handed now, named beside the set it answers
            words += " " + self.describe(last.before, last.seat, last.action)
        return card.sets, index, words

    def board(self, session: Seat, view: TelePublicView) -> Node:
        grid, marked = self._preview(session, view)
        preview = bool(marked)
        acted = None if preview else self._acted_on(session, view)
        last = set(set_cells(acted[0], acted[1])) if acted else set()
        size = SIZE * CELL + (SIZE - 1) * GAP
        pad = 26
        cells = []
        for index, tile in enumerate(grid):
            row, col = divmod(index, SIZE)
            x, y = pad + col * (CELL + GAP), pad + row * (CELL + GAP)
            # "blue star, A1": the coordinates the rules page explains (column letter, row number)
            label = f"{_label(tile)}, {cell_name(index)}"
            if index in last:
                label += ", moved by the last card"
            classes = f"tile colour-{tile[0]}" + (" moved" if index in marked else "")
            classes += " last" if index in last else ""
            cells.append(
                s(
                    "g",
                    {
                        "class": classes,
                        "transform": f"translate({x} {y})",
                        "role": "img",
                        "aria-label": label,
                        "data-tile": cell_name(index),
                    },
                    s("title", None, label),
                    s("rect", {"width": CELL, "height": CELL, "rx": 10, "class": "tile-bg"}),
                    s(
                        "path",
                        {
                            "d": SHAPE_PATHS[tile[1]],
                            "class": "tile-shape",
                            "transform": f"translate({CELL / 2} {CELL / 2})",
                        },
                    ),
                    # the colour's initial: a colour told apart by more than its hue
                    s("text", {"class": "tile-letter", "x": 7, "y": 17}, tile[0][0].upper()),
                )
            )
        frame = None
        if acted:
            col, row, cols, rows = set_frame(acted[0], acted[1])
            frame = s(
                "rect",
                {
                    "class": "last-set",
                    "data-role": "last-set",
                    "x": pad + col * (CELL + GAP) - 4,
                    "y": pad + row * (CELL + GAP) - 4,
                    "width": cols * CELL + (cols - 1) * GAP + 8,
                    "height": rows * CELL + (rows - 1) * GAP + 8,
                    "rx": 13,
                    "aria-hidden": "true",
                },
            )
        labels = [
            s(
                "text",
                {"x": pad + c * (CELL + GAP) + CELL / 2, "y": 16, "class": "axis"},
                COLUMNS[c],
            )
            for c in range(SIZE)
        ] + [
            s(
                "text",
                {"x": 10, "y": pad + r * (CELL + GAP) + CELL / 2 + 5, "class": "axis"},
                str(r + 1),
            )
            for r in range(SIZE)
        ]
        return h(
            "div",
            {"class": "tele-board-wrap"},
            s(
                "svg",
                {
                    "class": "board tele-board" + (" preview" if preview else ""),
                    "viewBox": f"0 0 {size + pad + 8} {size + pad + 8}",
                    "width": size + pad + 8,
                    "role": "group",
                    "aria-label": "The grid, columns A to D from west to east, rows 1 to 4 "
                    "from north to south" + (" (preview)" if preview else ""),
                },
                *labels,
                *cells,
                frame,
            ),
            h("p", {"class": "hint preview-note"}, "Preview: this is how the grid would look.")
            if preview
            else None,
            h("p", {"class": "hint last-move-note", "data-role": "last-set-note"}, acted[2])
            if acted
            else None,
            card_row(session, view),
        )

    # -- the controls ---------------------------------------------------------------------

    def controls(self, session: Seat, view: TeleSeatView) -> Node | None:
        if session.match.result() is not None:  # online, a device keeps its seat's view
            return h("div", {"class": "tele-controls"}, my_cards(view))
        # What to do now comes first: on a phone the side panel sits below the grid.
        turn = turn_controls(session, view) or waiting_for(session, view)
        return h("div", {"class": "tele-controls"}, turn, my_cards(view))

    # -- the end --------------------------------------------------------------------------

    def final_details(self, session: Seat) -> Node | None:
        """Everyone's condition cards, opened at the end."""
        state: TeleState = session.match.state
        rows = []
        for seat in range(state.seats):
            store = session.opened(seat)
            cards = state.revealed.get(seat)
            if cards is None and store is not None and CONDITIONS_LABEL in store:
                cards = store.value(CONDITIONS_LABEL)
            if not state.roles(seat):
                text = "director"
            else:
                cards = cards or {}
                text = (
                    ", ".join(f"{w}: {cards[w]}" for w in CONDITION_ORDER if w in cards)
                    or "not opened"
                )
            rows.append(
                h("tr", None, h("th", {"scope": "row"}, state.name(seat)), h("td", None, text))
            )
        return h("table", {"class": "psi-final", "data-role": "final"}, h("tbody", None, *rows))

    # -- clicks ---------------------------------------------------------------------------

    def handle(self, session: Seat, event: dict) -> str | None:
        return run_command(COMMANDS, self, session, event)

    def _pick_card(self, session: Seat, event: dict) -> None:
        session.selection.slot = whole(event.get("slot"))

    def _pick_set(self, session: Seat, event: dict) -> None:
        session.selection.set_index = whole(event.get("set"))

    def _hand(self, session: Seat, _event: dict) -> str | None:
        missing = "Choose one of the face-up action cards first."
        return self._act_on(session, session.selection.slot, HandCard, missing)

    def _perform(self, session: Seat, _event: dict) -> str | None:
        missing = "Choose one of the four sets first."
        return self._act_on(session, session.selection.set_index, Perform, missing)

    def _act_on(
        self, session: Seat, chosen: int | None, action: Callable[[int], Any], missing: str
    ) -> str | None:
        """Hand the chosen card, or perform the chosen set; nothing chosen yet: say what to do."""
        if chosen is None:
            return missing
        session.act(action(chosen))
        return None

    def _announce_open(self, session: Seat, _event: dict) -> None:
        sel: TeleSelection = session.selection
        sel.announcing, sel.claims = True, {}

    def _announce_close(self, session: Seat, _event: dict) -> None:
        sel: TeleSelection = session.selection
        sel.announcing, sel.claims = False, None

    def _claim(self, session: Seat, event: dict) -> None:
        sel: TeleSelection = session.selection
        seat = whole(event.get("seat"))
        if seat is not None:
            sel.claims = {**(sel.claims or {}), seat: event.get("name", "")}

    def _announce(self, session: Seat, event: dict) -> str | None:
        return self._submit_announcement(session, event["cmd"])

    def _continue(self, session: Seat, _event: dict) -> None:
        session.act(Continue())

    def _submit_announcement(self, session: Seat, cmd: str) -> str | None:
        state: TeleState = session.match.state
        sel: TeleSelection = session.selection
        claims = sel.claims or {}
        if cmd == "answer":
            name = claims.get(state.announcer)
            if name is None:
                return "Choose a win condition to answer with."
            session.act(Respond(name))
            return None
        targets = session.match.game.announcement_shape(state, session.viewer)
        if any(t not in claims for t in targets):
            return "Name a win condition for each partner first."
        session.act(Announce(tuple((t, claims[t]) for t in targets)))
        return None


# Telepathic's clicks: each command the screen draws (`data-cmd`).
COMMANDS: dict[str, Callable[[TeleScreen, Seat, dict], str | None]] = {
    "pick-card": TeleScreen._pick_card,
    "hand": TeleScreen._hand,
    "pick-set": TeleScreen._pick_set,
    "perform": TeleScreen._perform,
    "announce-open": TeleScreen._announce_open,
    "announce-close": TeleScreen._announce_close,
    "claim": TeleScreen._claim,
    "announce": TeleScreen._announce,
    "answer": TeleScreen._announce,
    "continue": TeleScreen._continue,
}
