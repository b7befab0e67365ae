"""Second Sight's actions and their JSON, as the match log writes them."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.errors import MalformedInput
from parlour.fair.commit import Opening, is_commitment
from parlour.fair.encoding import Json
from parlour.games.zener import Symbol


@dataclass(frozen=True)
class Choose:
    """A seat's private choice of its symbol; `seal` turns it into `Seal` on its own device."""

    symbol: Symbol


@dataclass(frozen=True)
class Seal:
    commitment: str


@dataclass(frozen=True)
class Guess:
    symbol: Symbol  # the other seat's symbol, guessed


@dataclass(frozen=True)
class Reveal:
    opening: Opening  # the seat's own seal, opened


Action = Choose | Seal | Guess | Reveal


def parse_action(data: Json) -> Action:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedInput("A Second Sight action must be an object with a type.")
    kind, keys = data["type"], set(data)
    if kind == "seal" and keys == {"type", "commitment"} and is_commitment(data["commitment"]):
        return Seal(data["commitment"])
    symbol = Symbol.parse(data.get("symbol"))
    if kind == "guess" and keys == {"type", "symbol"} and symbol is not None:
        return Guess(symbol)
    if kind == "reveal" and keys == {"type", "opening"}:
        return Reveal(Opening.from_json(data["opening"]))
    raise MalformedInput("That is not a Second Sight action.")


def action_to_json(action: Action) -> Json:
    if isinstance(action, Seal):
        return {"type": "seal", "commitment": action.commitment}
    if isinstance(action, Guess):
        return {"type": "guess", "symbol": action.symbol.value}
    if isinstance(action, Reveal):
        return {"type": "reveal", "opening": action.opening.to_json()}
    raise ValueError("a chosen symbol must be sealed before it is written down")
