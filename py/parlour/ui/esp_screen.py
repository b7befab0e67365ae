"""ESP on the shared play screen: its board, its controls, its clicks, its words (pure).

Legality always comes from the engine's `legal_actions`; this module only picks among them and
asks the engine for the sentence when a click is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.games.esp.hexgrid import Cell
from parlour.games.esp.rules import (
    ESP,
    AnswerDraw,
    EspState,
    Flip,
    Move,
    Pass,
    Place,
    tile_label,
)
from parlour.games.esp.views import EspPublicView, EspSeatView
from parlour.games.esp.words import describe
from parlour.games.zener import SYMBOLS, Symbol
from parlour.ui.esp_board import BoardMarks, board_tree, parse_key
from parlour.ui.play import waiting_tree
from parlour.ui.tree import Node, h
from parlour.ui.zener_art import symbol_icon

if TYPE_CHECKING:
    from parlour.ui.play import PlaySession


@dataclass
class EspSelection:
    tray: Symbol | None = None
    face: str = "up"
    cell: Cell | None = None


class EspScreen:
    def new_selection(self) -> EspSelection:
        return EspSelection()

    def describe(self, before: EspState, seat: int, action: Any) -> str:
        return describe(before, seat, action)

    # -- words on screen -----------------------------------------------------------------

    def status(self, view: EspPublicView, viewer: int) -> str:
        acting = view["to_move"]
        names = [seat["name"] for seat in view["seats"]]
        if view["offer"] is not None:
            return f"{names[view['offer']['proposer']]} offers a draw."
        if not acting:
            return "The game is over."
        who = names[acting[0]]
        if view["stage"] == "placement":
            placed = sum(10 - seat["unplaced"] for seat in view["seats"])
            total = 10 * len(view["seats"])
            return f"{who} to place a tile ({placed} of {total} placed)."
        return f"{who} to flip or move a tile."

    def seat_line(self, view: EspPublicView, seat: int) -> str:
        info = view["seats"][seat]
        if view["stage"] == "placement":
            return f"{info['colour']} · {info['unplaced']} to place"
        down = sum(1 for t in view["tiles"] if t["owner"] == seat and t["face"] == "down")
        return f"{info['colour']} · {down} symbol-down"

    # -- the board -----------------------------------------------------------------------

    def _legal(self, session: PlaySession) -> list:
        return session.table.legal(session.viewer) if session.viewer is not None else []

    def _targets(self, session: PlaySession) -> dict[Cell, Any]:
        """Cells a click would act on now, with the action it would be."""
        sel: EspSelection = session.selection
        state: EspState = session.table.state
        game: ESP = session.game
        targets: dict[Cell, Any] = {}
        for action in self._legal(session):
            if isinstance(action, Place) and sel.tray is not None:
                if action.symbol == sel.tray and action.hidden == (sel.face == "down"):
                    targets[action.cell] = action
            elif isinstance(action, Move) and action.cell == sel.cell:
                targets[game.landing(state, action.cell, action.direction)] = action
        return targets

    def _flip(self, session: PlaySession) -> Flip | None:
        cell = session.selection.cell
        return next(
            (a for a in self._legal(session) if isinstance(a, Flip) and a.cell == cell), None
        )

    def board(self, session: PlaySession, view: EspPublicView) -> Node:
        sel: EspSelection = session.selection
        flip = self._flip(session)
        marks = BoardMarks(
            targets=set(self._targets(session)),
            selected=sel.cell,
            flippable=flip.cell if flip else None,
            revealed=self.final_reveal(session),
        )
        return board_tree(view, session.viewer, marks)

    def final_details(self, session: PlaySession) -> Node | None:
        return None  # the final board itself shows every hidden tile, opened

    def final_reveal(self, session: PlaySession) -> dict[Cell, str]:
        """At the end every seat opens its hidden tiles: show them on the final board (and on
        a replay's, at any move, once "show everything" is on)."""
        if not session.shows_everything():
            return {}
        revealed = {}
        state: EspState = session.table.state
        for cell, tile in state.board.items():
            store = session.store_of(tile.owner)
            label = tile_label(tile.index)
            if not tile.up and store is not None and label in store:
                revealed[cell] = store.value(label)
        return revealed

    # -- the controls beside the board ---------------------------------------------------

    def controls(self, session: PlaySession, view: EspSeatView) -> Node | None:
        legal = self._legal(session)
        if view["offer"] is not None:
            return self._draw_controls(view)
        if session.viewer not in view["to_move"]:
            names = [seat["name"] for seat in view["seats"]]
            return waiting_tree(names, view["to_move"], "to move")
        if any(isinstance(a, Pass) for a in legal):
            return h(
                "section",
                {"class": "controls"},
                h("p", None, "You have no legal move, so you must pass."),
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "pass", "type": "button"},
                    "Pass",
                ),
            )
        if view["stage"] == "placement":
            return self._tray_controls(session, view)
        return self._move_controls(session)

    def _draw_controls(self, view: EspPublicView) -> Node:
        proposer = view["seats"][view["offer"]["proposer"]]["name"]
        return h(
            "section",
            {"class": "controls"},
            h("p", None, f"{proposer} offers a draw. Do you accept?"),
            h(
                "div",
                {"class": "choice"},
                h(
                    "button",
                    {
                        "class": "button primary",
                        "data-cmd": "answer-draw",
                        "data-accept": "yes",
                        "type": "button",
                    },
                    "Accept the draw",
                ),
                h(
                    "button",
                    {
                        "class": "button",
                        "data-cmd": "answer-draw",
                        "data-accept": "no",
                        "type": "button",
                    },
                    "Play on",
                ),
            ),
        )

    def _tray_controls(self, session: PlaySession, view: EspSeatView) -> Node:
        sel: EspSelection = session.selection
        tray = view["me"]["tray"]
        buttons = []
        for symbol in SYMBOLS:
            count = tray.count(symbol.value)
            if not count:
                continue
            pressed = "true" if sel.tray == symbol else "false"
            buttons.append(
                h(
                    "button",
                    {
                        "class": "tray-tile",
                        "data-cmd": "tray",
                        "data-symbol": symbol.value,
                        "aria-pressed": pressed,
                        "type": "button",
                        "aria-label": f"{symbol.value} ({count} left)",
                    },
                    symbol_icon(symbol.value),
                    h("span", {"class": "count"}, f"×{count}"),
                )
            )
        faces = [
            h(
                "button",
                {
                    "class": "button small",
                    "data-cmd": "face",
                    "data-face": face,
                    "aria-pressed": "true" if sel.face == face else "false",
                    "type": "button",
                },
                label,
            )
            for face, label in (("up", "Symbol up"), ("down", "Symbol down"))
        ]
        hint = (
            "Now choose a highlighted cell."
            if sel.tray
            else "Choose a tile from your tray, then symbol up or down."
        )
        return h(
            "section",
            {"class": "controls", "aria-label": "Your tray"},
            h("h3", None, "Your tray"),
            h("div", {"class": "tray"}, *buttons),
            h("div", {"class": "choice", "role": "group", "aria-label": "Face"}, *faces),
            h("p", {"class": "hint"}, hint),
        )

    def _move_controls(self, session: PlaySession) -> Node:
        sel: EspSelection = session.selection
        flip = self._flip(session)
        if flip is not None:
            body = [
                h("p", None, "This tile is symbol-down. Flip it to show its symbol?"),
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "flip", "type": "button"},
                    "Flip this tile",
                ),
            ]
        elif sel.cell is not None and self._targets(session):
            body = [h("p", None, "Choose where to jump: the highlighted cells.")]
        else:
            body = [
                h(
                    "p",
                    None,
                    "Choose one of your tiles: flip a symbol-down tile, or jump a "
                    "symbol-up tile over its neighbours.",
                )
            ]
        return h("section", {"class": "controls"}, *body)

    # -- clicks --------------------------------------------------------------------------

    def handle(self, session: PlaySession, event: dict) -> None:
        cmd = event.get("cmd")
        sel: EspSelection = session.selection
        if cmd == "tray":
            sel.tray = Symbol.parse(event.get("symbol"))
        elif cmd == "face":
            sel.face = "down" if event.get("face") == "down" else "up"
        elif cmd == "flip":
            flip = self._flip(session)
            if flip is None:
                session.message = "Choose one of your symbol-down tiles to flip."
            else:
                session.act(flip)
        elif cmd == "pass":
            session.act(Pass())
        elif cmd == "answer-draw":
            session.act(AnswerDraw(event.get("accept") == "yes"))
        elif event.get("cell") is not None:
            cell = parse_key(event.get("cell"))
            if cell is not None:
                self._cell(session, cell)

    def _cell(self, session: PlaySession, cell: Cell) -> None:
        state: EspState = session.table.state
        game: ESP = session.game
        sel: EspSelection = session.selection
        target = self._targets(session).get(cell)
        if target is not None:
            session.act(target)
            return
        if state.placing:
            if sel.tray is None:
                session.message = "Choose a tile from your tray first, then a cell."
            else:
                problem = game.placement_problem(state, cell)
                session.message = problem or "That is not a legal placement."
            return
        tile = state.board.get(cell)
        if tile is None:
            session.message = (
                "That cell cannot be reached from the chosen tile."
                if sel.cell
                else "Choose one of your tiles first."
            )
            return
        if tile.owner != session.viewer:
            session.message = f"That is {state.name(tile.owner)}'s tile."
            return
        sel.cell = cell
        problem = game.pin_problem(state, cell)
        if problem:
            session.message = problem
        elif tile.up and not self._targets(session):
            session.message = "That tile has no tile beside it to jump over."
