"""ESPEERS's actions and their JSON, as the match log writes them (pure).

The actions are the vocabulary every other part speaks: the rules apply them, the screen and
the bots choose among them, the log, the wire and the audit carry them as JSON. They live apart
from the rules so that a reader of the log, a bot or the screen imports what a move is without
the rules, and so that the log's format is read and written in one place (`action_to_json` and
`parse_action` are each other's inverse; anything else is refused as `MalformedInput`).

Secrets never enter an action that is written down: a barrier's card is sealed into a
commitment on its owner's device first (`Espeers.seal`), and a card shown later travels as the
opening of its commitment.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.errors import MalformedInput
from parlour.fair.commit import Opening, is_commitment
from parlour.fair.encoding import Json
from parlour.games.espeers.cards import CARDS, DECK_SIZE
from parlour.games.zener import Symbol


@dataclass(frozen=True)
class SealDeck:
    commitment: str


@dataclass(frozen=True)
class Mulligan:
    keep: bool


@dataclass(frozen=True)
class Play:
    card: str


@dataclass(frozen=True)
class Cycle:
    card: str


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class PlaceBarrier:
    """Own choice: `card` (private) until sealed into `commitment` by the owner's device."""

    card: str | None = None
    commitment: str | None = None


@dataclass(frozen=True)
class Predict:
    symbol: str | None  # None: no prediction


@dataclass(frozen=True)
class AnswerPrediction:
    right: bool
    opening: Opening | None = None  # shown when the prediction is right


@dataclass(frozen=True)
class BarrierAttack:
    opening: Opening


@dataclass(frozen=True)
class RevealBarrier:
    opening: Opening  # a barrier that absorbed damage is discarded face up


@dataclass(frozen=True)
class AssignDamage:
    from_pool: int
    from_spent: int


@dataclass(frozen=True)
class Discard:
    cards: tuple[str, ...]


Action = (
    SealDeck
    | Mulligan
    | Play
    | Cycle
    | Pass
    | PlaceBarrier
    | Predict
    | AnswerPrediction
    | BarrierAttack
    | RevealBarrier
    | AssignDamage
    | Discard
)


def action_to_json(action: Action) -> Json:
    if isinstance(action, SealDeck):
        return {"type": "seal", "commitment": action.commitment}
    if isinstance(action, Mulligan):
        return {"type": "mulligan", "keep": action.keep}
    if isinstance(action, (Play, Cycle)):
        return {"type": type(action).__name__.lower(), "card": action.card}
    if isinstance(action, Pass):
        return {"type": "pass"}
    if isinstance(action, PlaceBarrier):
        if action.commitment is None:
            raise ValueError("a barrier card must be sealed before it is written down")
        return {"type": "barrier", "commitment": action.commitment}
    if isinstance(action, Predict):
        return {"type": "predict", "symbol": action.symbol}
    if isinstance(action, AnswerPrediction):
        opening = action.opening.to_json() if action.opening else None
        return {"type": "answer", "right": action.right, "opening": opening}
    if isinstance(action, (BarrierAttack, RevealBarrier)):
        kind = "attack" if isinstance(action, BarrierAttack) else "show-barrier"
        return {"type": kind, "opening": action.opening.to_json()}
    if isinstance(action, AssignDamage):
        return {"type": "assign", "pool": action.from_pool, "spent": action.from_spent}
    return {"type": "discard", "cards": list(action.cards)}


def parse_action(data: Json) -> Action:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedInput("An ESPEERS action must be an object with a type.")
    kind, keys = data["type"], set(data)
    card = data["card"] if isinstance(data.get("card"), str) else None
    if kind == "seal" and keys == {"type", "commitment"} and is_commitment(data["commitment"]):
        return SealDeck(data["commitment"])
    if kind == "mulligan" and keys == {"type", "keep"} and type(data["keep"]) is bool:
        return Mulligan(data["keep"])
    if kind in ("play", "cycle") and keys == {"type", "card"} and card in CARDS:
        return Play(card) if kind == "play" else Cycle(card)
    if kind == "pass" and keys == {"type"}:
        return Pass()
    if kind == "barrier" and keys == {"type", "commitment"} and is_commitment(data["commitment"]):
        return PlaceBarrier(None, data["commitment"])
    symbol = data.get("symbol")
    if (
        kind == "predict"
        and keys == {"type", "symbol"}
        and (symbol is None or Symbol.parse(symbol) is not None)
    ):
        return Predict(symbol)
    if kind == "answer" and keys == {"type", "right", "opening"} and type(data["right"]) is bool:
        opening = None if data["opening"] is None else Opening.from_json(data["opening"])
        return AnswerPrediction(data["right"], opening)
    if kind in ("attack", "show-barrier") and keys == {"type", "opening"}:
        opening = Opening.from_json(data["opening"])
        return BarrierAttack(opening) if kind == "attack" else RevealBarrier(opening)
    pool, spent = data.get("pool"), data.get("spent")
    if (
        kind == "assign"
        and keys == {"type", "pool", "spent"}
        and type(pool) is int
        and type(spent) is int
    ):
        return AssignDamage(pool, spent)
    cards = data.get("cards")
    if (
        kind == "discard"
        and keys == {"type", "cards"}
        and isinstance(cards, list)
        and len(cards) <= DECK_SIZE
        and all(isinstance(c, str) and c in CARDS for c in cards)
    ):
        return Discard(tuple(cards))
    raise MalformedInput("That is not an ESPEERS action.")
