"""ESP's actions and their JSON, as the match log writes them (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.errors import MalformedInput
from parlour.fair.commit import Opening, is_commitment
from parlour.fair.encoding import Json
from parlour.games.esp.hexgrid import DIRECTIONS, Cell, parse_cell
from parlour.games.zener import Symbol


@dataclass(frozen=True)
class Place:
    """Put a tile on `cell`. Symbol-up: `symbol`. Symbol-down as sent: `commitment` only.

    A seat's own choice of a symbol-down tile (from `legal_actions`) has `hidden=True` and the
    `symbol`; `ESP.seal` turns it into the public action before it leaves the seat's device.
    """

    cell: Cell
    symbol: Symbol | None = None
    hidden: bool = False
    commitment: str | None = None

    @property
    def sealed(self) -> bool:
        if self.symbol is None:  # symbol-down: only its commitment goes on the board
            return self.commitment is not None
        return not self.hidden


@dataclass(frozen=True)
class Flip:
    cell: Cell
    opening: Opening | None = None  # None only in a view without the owner's store


@dataclass(frozen=True)
class Move:
    cell: Cell
    direction: int  # index into hexgrid.DIRECTIONS


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class ProposeDraw:
    pass


@dataclass(frozen=True)
class AnswerDraw:
    accept: bool


Action = Place | Flip | Move | Pass | ProposeDraw | AnswerDraw


def action_to_json(action: Action) -> Json:
    if isinstance(action, Place):
        if not action.sealed:
            raise ValueError("a symbol-down choice must be sealed before it is written down")
        if action.symbol is not None:
            return {"type": "place", "cell": list(action.cell), "symbol": action.symbol.value}
        return {"type": "place", "cell": list(action.cell), "commitment": action.commitment}
    if isinstance(action, Flip):
        if action.opening is None:
            raise ValueError("a flip carries its opening")
        return {"type": "flip", "cell": list(action.cell), "opening": action.opening.to_json()}
    if isinstance(action, Move):
        return {"type": "move", "cell": list(action.cell), "direction": action.direction}
    if isinstance(action, AnswerDraw):
        return {"type": "answer-draw", "accept": action.accept}
    if isinstance(action, Pass):
        return {"type": "pass"}
    if isinstance(action, ProposeDraw):
        return {"type": "propose-draw"}
    raise ValueError(f"not an ESP action: {action!r}")


def parse_action(data: Json) -> Action:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedInput("An ESP action must be an object with a type.")
    kind, keys = data["type"], set(data)
    cell = parse_cell(data.get("cell"))
    if kind == "place" and cell is not None:
        if keys == {"type", "cell", "symbol"} and Symbol.parse(data["symbol"]):
            return Place(cell, Symbol(data["symbol"]))
        if keys == {"type", "cell", "commitment"} and is_commitment(data["commitment"]):
            return Place(cell, None, True, data["commitment"])
    if kind == "flip" and cell is not None and keys == {"type", "cell", "opening"}:
        return Flip(cell, Opening.from_json(data["opening"]))
    if kind == "move" and cell is not None and keys == {"type", "cell", "direction"}:
        direction = data["direction"]
        if type(direction) is int and 0 <= direction < len(DIRECTIONS):
            return Move(cell, direction)
    if kind == "pass" and keys == {"type"}:
        return Pass()
    if kind == "propose-draw" and keys == {"type"}:
        return ProposeDraw()
    if kind == "answer-draw" and keys == {"type", "accept"} and type(data["accept"]) is bool:
        return AnswerDraw(data["accept"])
    raise MalformedInput("That is not an ESP action.")
