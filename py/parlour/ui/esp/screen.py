"""ESP on the shared play screen: its board, its clicks, its words (pure); the controls beside
the board are drawn by controls.py.

Legality always comes from the engine's `legal_actions`; this module only picks among them and
asks the engine for the sentence when a click is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlour.games.esp.actions import AnswerDraw, Flip, Move, Pass, Place
from parlour.games.esp.hexgrid import Cell
from parlour.games.esp.rules import ESP, repetition_warning
from parlour.games.esp.state import EspState, tile_label
from parlour.games.esp.views import EspPublicView, EspSeatView
from parlour.games.esp.words import describe
from parlour.games.zener import Symbol
from parlour.ui.esp.board import (
    DEFAULT_ZOOM,
    ZOOM_NAMES,
    ZOOMS,
    BoardMarks,
    board_tree,
    canvas_tree,
    cell_name,
    parse_key,
)
from parlour.ui.esp.controls import (
    EspSelection,
    draw_offer_controls,
    move_controls,
    pass_controls,
    tray_controls,
)
from parlour.ui.esp.told import board_sentences, set_count_tree
from parlour.ui.help import with_help
from parlour.ui.play_session import Session
from parlour.ui.seat import Seat, run_command
from parlour.ui.tree import Node, h
from parlour.ui.widgets import last_move_of, waiting_tree
from parlour.words import capital, possessive


class EspScreen:
    def __init__(self) -> None:
        # The board's zoom on this device (an index into `ZOOMS`): a way of looking, not a
        # move, so it outlives the turn's selection.
        self.zoom = DEFAULT_ZOOM

    def new_selection(self) -> EspSelection:
        return EspSelection()

    def describe(self, before: EspState, seat: int, action: Any) -> str:
        return describe(before, seat, action)

    # -- words on screen -----------------------------------------------------------------

    def status(self, view: EspPublicView, viewer: int, you: int | None = None) -> str:
        """Whose turn and what to do; addressed to `you` (one person alone against bots) in
        their turn: "Your turn: place a tile" rather than their seat's name."""
        acting = view["to_move"]
        names = [seat["name"] for seat in view["seats"]]
        if view["offer"] is not None:
            proposer = view["offer"]["proposer"]
            return "You offer a draw." if proposer == you else f"{names[proposer]} offers a draw."
        if not acting:
            return "The game is over."
        who = "Your turn:" if acting[0] == you else f"{names[acting[0]]} to"
        if view["stage"] == "placement":
            placed = sum(10 - seat["unplaced"] for seat in view["seats"])
            total = 10 * len(view["seats"])
            return f"{who} place a tile ({placed} of {total} placed)."
        warning = repetition_warning(view.get("seen", 0), view["draw_at"])
        return f"{who} flip or move a tile." + (f" {warning}" if warning else "")

    def seat_line(self, view: EspPublicView, seat: int) -> str:
        info = view["seats"][seat]
        # the pips its tiles carry (esp/board.py, `_pips`): whose tile, not by colour alone
        pips = ("one pip", "two pips", "three pips", "four pips")[seat % 4]
        colour = f"{info['colour']}, {pips}"
        if view["stage"] == "placement":
            return f"{colour} · {info['unplaced']} to place"
        down = sum(1 for t in view["tiles"] if t["owner"] == seat and t["face"] == "down")
        return f"{colour} · {down} symbol-down"

    # -- the board -----------------------------------------------------------------------

    def _legal(self, session: Seat) -> list:
        return session.legal()

    def _targets(self, session: Seat) -> dict[Cell, Any]:
        """Cells a click would act on now, with the action it would be."""
        sel: EspSelection = session.selection
        state: EspState = session.match.state
        game: ESP = session.match.game
        targets: dict[Cell, Any] = {}
        for action in self._legal(session):
            if isinstance(action, Place) and sel.tray is not None:
                if action.symbol == sel.tray and action.hidden == (sel.face == "down"):
                    targets[action.cell] = action
            elif isinstance(action, Move) and action.cell == sel.cell:
                targets[game.landing(state, action.cell, action.direction)] = action
        return targets

    def _flip(self, session: Seat) -> Flip | None:
        cell = session.selection.cell
        return next(
            (a for a in self._legal(session) if isinstance(a, Flip) and a.cell == cell), None
        )

    def board(self, session: Seat, view: EspPublicView) -> Node:
        sel: EspSelection = session.selection
        flip = self._flip(session)
        targets = self._targets(session)
        marks = BoardMarks(
            targets=set(targets),
            selected=sel.cell,
            flippable=flip.cell if flip else None,
            revealed=self.final_reveal(session),
        )
        self._mark_last(session, marks)
        marks.focus = self._tab_stop(session, marks)
        # The replay viewer's spectator has no clicks to zoom with: its board is fitted.
        zoomable = isinstance(session, Session)
        zoom = ZOOMS[self.zoom] if zoomable else None
        svg = board_tree(view, session.viewer, marks, zoom, auto=self.zoom == DEFAULT_ZOOM)
        level = "fit" if zoom is None else "auto" if self.zoom == DEFAULT_ZOOM else "zoomed"
        canvas = canvas_tree(svg)
        # the frame scrolls first to its anchor when it is made (CSS scroll-initial-target), and
        # to where the anchor moves on a redraw (assets/site.js): the frame is kept, and a move
        # redraws only the board's changed parts (issue 39: making the frame anew at every move
        # that moved the anchor put the whole board, up to 40 KB of SVG, back in the page)
        frame = h("div", {"class": f"esp-frame {level}", "data-role": "board-frame"}, canvas)
        if not zoomable:
            return frame
        # Shown by the CSS only while the frame can scroll (a scroll-driven animation): the board
        # is larger than its frame, so it pans.
        pans = h(
            "p",
            {"class": "pan-hint", "data-role": "pans"},
            "More board beyond the edge: drag or scroll to see it.",
        )
        return h("div", {"class": "esp-area"}, self._zoom_bar(), frame, pans)

    def _mark_last(self, session: Seat, marks: BoardMarks) -> None:
        """The last move on the board: the tile placed, flipped or jumped, and a jump's start."""
        last = last_move_of(session.match, self)
        if last is None:
            return
        before: EspState = last.before
        action, who = last.action, capital(possessive(before.name(last.seat)))
        if isinstance(action, Place):
            marks.last, marks.last_words = action.cell, f"{who} last move placed this tile"
        elif isinstance(action, Flip):
            marks.last, marks.last_words = action.cell, f"{who} last move flipped this tile"
        elif isinstance(action, Move) and action.cell in before.board:
            game: ESP = session.match.game
            marks.last = game.landing(before, action.cell, action.direction)
            marks.last_from = action.cell
            where = cell_name(action.cell)
            marks.last_words = f"{who} last move jumped this tile here from {where}"

    def _tab_stop(self, session: Seat, marks: BoardMarks) -> Cell | None:
        """Where Tab enters the board: the chosen tile, else the first place a click would
        act, else the first tile of yours that can act, else the last move."""
        if marks.selected is not None:
            return marks.selected
        if marks.targets:
            return min(marks.targets)
        own = sorted(a.cell for a in self._legal(session) if isinstance(a, (Flip, Move)))
        return own[0] if own else marks.last

    def _zoom_bar(self) -> Node:
        level = self.zoom

        def button(cmd: str, sign: str, label: str, off: bool, text: str) -> Node:
            return with_help(
                h(
                    "button",
                    {
                        "class": "button small zoom",
                        "data-cmd": cmd,
                        "type": "button",
                        "aria-label": label,
                        # aria-disabled, not disabled: the focus stays on the button
                        "aria-disabled": "true" if off else None,
                    },
                    sign,
                ),
                f"esp-{cmd}",
                label,
                text,
            )

        return h(
            "div",
            {"class": "esp-zoom", "role": "group", "aria-label": "Zoom"},
            button(
                "zoom-out",
                "−",
                "Zoom out",
                level == 0,
                "Draws the board smaller; the smallest shows the whole board at once.",
            ),
            h(
                "span",
                {"class": "zoom-level", "data-role": "zoom-level"},
                f"Zoom: {ZOOM_NAMES[level]}",
            ),
            button(
                "zoom-in",
                "+",
                "Zoom in",
                level == len(ZOOMS) - 1,
                "Draws the board larger; drag or scroll the board to see the rest.",
            ),
        )

    def final_details(self, session: Seat) -> Node | None:
        """What the numbers of a won game are: whose tiles the set holds, and why that wins
        (the final board itself shows every hidden tile, opened, and rings the set)."""
        state: EspState = session.match.state
        entries = session.match.entries
        if not state.sets or not entries:
            return None
        return set_count_tree(state, entries[-1].seat)

    def describe_board(self, view: EspPublicView, viewer: int | None) -> list[str]:
        """The position in sentences: the stage, each player's tiles by where they are, the
        winning set. Only what `view` shows: a hidden symbol only when it is the viewer's."""
        return board_sentences(view, viewer)

    def final_reveal(self, session: Seat) -> dict[Cell, str]:
        """At the end every seat opens its hidden tiles: show them on the final board (and on
        a replay's, at any move, once "show everything" is on): `opened` gives none before."""
        revealed = {}
        state: EspState = session.match.state
        for cell, tile in state.board.items():
            store = session.opened(tile.owner)
            label = tile_label(tile.index)
            if not tile.up and store is not None and label in store:
                revealed[cell] = store.value(label)
        return revealed

    # -- the controls beside the board ---------------------------------------------------

    def controls(self, session: Seat, view: EspSeatView) -> Node | None:
        legal = self._legal(session)
        offer = view["offer"]
        if offer is not None:
            return draw_offer_controls(view, offer)
        if session.viewer not in view["to_move"]:
            names = [seat["name"] for seat in view["seats"]]
            return waiting_tree(names, view["to_move"], "to move")
        if any(isinstance(a, Pass) for a in legal):
            return pass_controls()
        sel: EspSelection = session.selection
        if view["stage"] == "placement":
            return tray_controls(sel, view)
        flipping = self._flip(session) is not None
        jumping = not flipping and sel.cell is not None and bool(self._targets(session))
        return move_controls(flipping, jumping)

    # -- clicks --------------------------------------------------------------------------

    def handle(self, session: Seat, event: dict) -> str | None:
        return run_command(COMMANDS, self, session, event)

    def _zoom(self, _session: Seat, event: dict) -> None:
        step = 1 if event.get("cmd") == "zoom-in" else -1
        self.zoom = min(max(self.zoom + step, 0), len(ZOOMS) - 1)

    def _choose_tray(self, session: Seat, event: dict) -> None:
        session.selection.tray = Symbol.parse(event.get("symbol"))

    def _choose_face(self, session: Seat, event: dict) -> None:
        session.selection.face = "down" if event.get("face") == "down" else "up"

    def _flip_tile(self, session: Seat, _event: dict) -> str | None:
        flip = self._flip(session)
        if flip is None:
            return "Choose one of your symbol-down tiles to flip."
        session.act(flip)
        return None

    def _pass(self, session: Seat, _event: dict) -> None:
        session.act(Pass())

    def _answer_draw(self, session: Seat, event: dict) -> None:
        session.act(AnswerDraw(event.get("accept") == "yes"))

    def _click_cell(self, session: Seat, event: dict) -> str | None:
        cell = parse_key(event.get("cell"))
        return self._cell(session, cell) if cell is not None else None

    def _cell(self, session: Seat, cell: Cell) -> str | None:
        """A cell clicked: the move it makes now, else a tile chosen, else why neither."""
        state: EspState = session.match.state
        game: ESP = session.match.game
        sel: EspSelection = session.selection
        target = self._targets(session).get(cell)
        if target is not None:
            session.act(target)
            return None
        if state.placing:
            if sel.tray is None:
                return "Choose a tile from your tray first, then a cell."
            return game.placement_problem(state, cell) or "That is not a legal placement."
        tile = state.board.get(cell)
        if tile is None:
            if sel.cell:
                return "That cell cannot be reached from the chosen tile."
            return "Choose one of your tiles first."
        if tile.owner != session.viewer:
            return f"That is {possessive(state.name(tile.owner))} tile."
        sel.cell = cell
        problem = game.pin_problem(state, cell)
        if problem:
            return problem
        if self._flip(session) is not None:
            session.focus_to = "[data-cmd=flip]"  # the next step of a flip, for the keyboard
        elif tile.up and not self._targets(session):
            return "That tile has no tile beside it to jump over."
        return None


# ESP's clicks: each command the screen draws (`data-cmd`), and a board cell's click ("cell").
COMMANDS: dict[str, Callable[[EspScreen, Seat, dict], str | None]] = {
    "zoom-in": EspScreen._zoom,
    "zoom-out": EspScreen._zoom,
    "tray": EspScreen._choose_tray,
    "face": EspScreen._choose_face,
    "flip": EspScreen._flip_tile,
    "pass": EspScreen._pass,
    "answer-draw": EspScreen._answer_draw,
    "cell": EspScreen._click_cell,
}
