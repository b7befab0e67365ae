"""Telepathic's actions and their JSON, as the match log writes them (pure)."""

from __future__ import annotations

from dataclasses import dataclass

from parlour.errors import MalformedInput
from parlour.fair.commit import Opening, is_commitment
from parlour.fair.encoding import Json
from parlour.games.telepathic.grid import COLOURS, SHAPES
from parlour.games.telepathic.state import ROW_SIZE


@dataclass(frozen=True)
class SealConditions:
    commitment: str


@dataclass(frozen=True)
class HandCard:
    slot: int  # which face-up card of the row (0-3)


@dataclass(frozen=True)
class Perform:
    set_index: int  # which of the card's four sets (0-3)


@dataclass(frozen=True)
class PlayOn:
    """A lose-condition holder's "my lose condition is not met" after an action."""


@dataclass(frozen=True)
class DeclareLost:
    opening: Opening


@dataclass(frozen=True)
class Announce:
    claims: tuple[tuple[int, str], ...]  # (seat, the win condition named for that seat)


@dataclass(frozen=True)
class Continue:
    """Teams: the performer lets the moment to announce pass."""


@dataclass(frozen=True)
class Respond:
    name: str  # the announcer's win condition, as the responder names it


@dataclass(frozen=True)
class Reveal:
    opening: Opening


Action = (
    SealConditions
    | HandCard
    | Perform
    | PlayOn
    | DeclareLost
    | Announce
    | Continue
    | Respond
    | Reveal
)


def action_to_json(action: Action) -> Json:
    if isinstance(action, SealConditions):
        return {"type": "seal", "commitment": action.commitment}
    if isinstance(action, HandCard):
        return {"type": "hand", "slot": action.slot}
    if isinstance(action, Perform):
        return {"type": "perform", "set": action.set_index}
    if isinstance(action, PlayOn):
        return {"type": "play-on"}
    if isinstance(action, DeclareLost):
        return {"type": "lost", "opening": action.opening.to_json()}
    if isinstance(action, Announce):
        return {"type": "announce", "claims": [[s, n] for s, n in action.claims]}
    if isinstance(action, Continue):
        return {"type": "continue"}
    if isinstance(action, Respond):
        return {"type": "respond", "name": action.name}
    return {"type": "reveal", "opening": action.opening.to_json()}


def _small(value: object, limit: int) -> bool:
    return type(value) is int and 0 <= value < limit


def parse_action(data: Json) -> Action:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedInput("A Telepathic action must be an object with a type.")
    kind, keys = data["type"], set(data)
    names = (*COLOURS, *SHAPES)  # a tuple: `in` on it never hashes (a list from a peer would)
    if kind == "seal" and keys == {"type", "commitment"} and is_commitment(data["commitment"]):
        return SealConditions(data["commitment"])
    if kind == "hand" and keys == {"type", "slot"} and _small(data["slot"], ROW_SIZE):
        return HandCard(data["slot"])
    if kind == "perform" and keys == {"type", "set"} and _small(data["set"], 4):
        return Perform(data["set"])
    if kind in ("play-on", "continue") and keys == {"type"}:
        return PlayOn() if kind == "play-on" else Continue()
    if kind in ("lost", "reveal") and keys == {"type", "opening"}:
        opening = Opening.from_json(data["opening"])
        return DeclareLost(opening) if kind == "lost" else Reveal(opening)
    if kind == "respond" and keys == {"type", "name"} and data["name"] in names:
        return Respond(data["name"])
    if kind == "announce" and keys == {"type", "claims"} and isinstance(data["claims"], list):
        claims = data["claims"]
        if 1 <= len(claims) <= 2 and all(
            isinstance(c, list) and len(c) == 2 and _small(c[0], 4) and c[1] in names
            for c in claims
        ):
            return Announce(tuple((c[0], c[1]) for c in claims))
    raise MalformedInput("That is not a Telepathic action.")
