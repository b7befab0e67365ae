"""A match's configuration: which game, which variant, which seats, under which match id."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from parlour.bots.base import LEVELS
from parlour.errors import MalformedInput
from parlour.fair.commit import is_commitment
from parlour.fair.encoding import Json, canonical_json, check_text
from parlour.fair.sealed_deal import check_mix, read
from parlour.games.base import Setup
from parlour.numbers import whole

MAX_SEATS = 8
MAX_NAME = 24
MATCH_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


# Characters a name never shows: controls, and the marks that turn or hide text (a name with a
# right-to-left override could make "Ada wins" read otherwise). Listed, so no Unicode database is
# needed in the page.
_HIDDEN = [*range(0x20), *range(0x7F, 0xA0), 0x61C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F]
_HIDDEN += [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029, 0xFEFF]
_UNSHOWN = dict.fromkeys(_HIDDEN, " ")
BOT_MARK = "(bot)"  # the words only a bot seat's name ends with


def clean_name(name: object, fallback: str) -> str:
    """A seat name as shown to everyone: trimmed, single-spaced, short, with no control or
    direction-changing character; text only, never HTML."""
    if not isinstance(name, str):
        return fallback
    whole = name.encode("utf-8", "surrogatepass").decode("utf-8", "ignore")  # no lone halves
    text = " ".join(whole.translate(_UNSHOWN).split())[:MAX_NAME]
    return text or fallback


def name_refusal(name: object) -> str:
    """Why a person's typed name cannot be used as typed (a sentence), or "": "(bot)" marks
    the computer's seats only, and a name shows no control or direction-changing character."""
    if not isinstance(name, str):
        return ""
    if any(ord(c) in _UNSHOWN for c in name):
        return "A name cannot hold control or direction-changing characters: type it again."
    if " ".join(name.split()).casefold().endswith(BOT_MARK):
        return "A person's name cannot end in “(bot)”: that mark is for the computer's seats."
    return ""


def person_name(name: object, fallback: str) -> str:
    """A person's name: clean, and never ending as a bot's does ("Zed (bot)" is "Zed")."""
    text = clean_name(name, fallback)
    while text.casefold().endswith(BOT_MARK):
        text = text[: -len(BOT_MARK)].rstrip()
    return text or fallback


@dataclass(frozen=True)
class MatchConfig:
    game: str
    match_id: str
    seats: tuple[str, ...]
    variant: dict[str, Json] = field(default_factory=dict)
    # Online only: each seat's commitments to its dealt values, made before the seed was drawn
    # (seat as text -> label -> commitment). Part of the genesis hash, so of every entry's.
    dealt: dict[str, dict[str, str]] = field(default_factory=dict)
    # Online only: the transcripts of the decks dealt across devices (label -> record).
    shared: dict[str, Json] = field(default_factory=dict)
    # The seats a bot plays, and at which level (seat as text -> level): part of the record, so
    # everyone, and the audit, knows who was a bot.
    bots: dict[str, str] = field(default_factory=dict)
    # A game played on from a replay's position (`match/play_on.py`): the original game's seat
    # names and how many of the log's first moves are the original's, so the log names who
    # really made them (the seats' names now are the players of the new game).
    original: dict[str, Json] = field(default_factory=dict)

    @property
    def bot_levels(self) -> dict[int, str]:
        return {int(seat): level for seat, level in self.bots.items()}

    def setup(self) -> Setup:
        dealt = {int(seat): dict(labels) for seat, labels in self.dealt.items()}
        return Setup(self.match_id, self.seats, dict(self.variant), dealt, dict(self.shared))

    def to_json(self) -> dict[str, Json]:
        data: dict[str, Json] = {
            "game": self.game,
            "match_id": self.match_id,
            "seats": list(self.seats),
            "variant": dict(self.variant),
        }
        if self.dealt:
            data["dealt"] = {seat: dict(labels) for seat, labels in self.dealt.items()}
        if self.shared:
            data["shared"] = dict(self.shared)
        if self.bots:
            data["bots"] = dict(self.bots)
        if self.original:
            data["original"] = dict(self.original)
        return data

    @classmethod
    def from_json(cls, data: object) -> MatchConfig:
        keys = {"game", "match_id", "seats", "variant"}
        optional = {"dealt", "shared", "bots", "original"}
        check_text(data)
        if not isinstance(data, dict) or not keys <= set(data) <= keys | optional:
            raise MalformedInput("That match set-up is not in a form Psi Parlour reads.")
        game, match_id, seats, variant = (data[k] for k in ("game", "match_id", "seats", "variant"))
        if (
            not isinstance(game, str)
            or not isinstance(match_id, str)
            or not MATCH_ID.match(match_id)
        ):
            raise MalformedInput("That match set-up has no proper game or match id.")
        if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
            raise MalformedInput(f"A match has 1 to {MAX_SEATS} seats.")
        if not all(isinstance(s, str) and s == clean_name(s, "") for s in seats):
            raise MalformedInput("A seat name must be short text.")
        if not isinstance(variant, dict):
            raise MalformedInput("A match variant must be a set of options.")
        canonical_json(variant)
        dealt = data.get("dealt", {})
        if not _is_dealt(dealt, len(seats)):
            raise MalformedInput("A match's dealt commitments must be hashes by seat and label.")
        shared = data.get("shared", {})
        if not isinstance(shared, dict) or len(shared) > 4:
            raise MalformedInput("A match's shared deals must be records by label.")
        for label, record in shared.items():
            if not isinstance(label, str) or len(label) > 32:
                raise MalformedInput("A shared deal's label must be short text.")
            read(record)
        check_mix(shared)
        bots = data.get("bots", {})
        if not _is_bots(bots, len(seats)):
            raise MalformedInput("A match's bots must be levels by seat.")
        original = data.get("original", {})
        if original and not _is_original(original, len(seats)):
            raise MalformedInput("A played-on match's original game must name its seats.")
        return cls(game, match_id, tuple(seats), variant, dealt, shared, bots, original)

    def original_names(self, seq: int) -> tuple[str, ...] | None:
        """The original game's seat names if the log's move number `seq` (from 1) is one of
        the original's (a played-on game), else None."""
        names, moves = self.original.get("seats"), self.original.get("moves")
        if isinstance(names, list) and isinstance(moves, int) and seq <= moves:
            return tuple(str(name) for name in names)
        return None


def _is_original(original: object, seats: int) -> bool:
    return (
        isinstance(original, dict)
        and set(original) == {"seats", "moves"}
        and isinstance(names := original["seats"], list)
        and len(names) == seats
        and all(isinstance(s, str) and s == clean_name(s, "") and s for s in names)
        and isinstance(moves := original["moves"], int)
        and not isinstance(moves, bool)
        and 0 <= moves <= 10**6
    )


def _is_bots(bots: object, seats: int) -> bool:
    return isinstance(bots, dict) and all(
        isinstance(seat, str)
        and (n := whole(seat)) is not None
        and n < seats
        and str(n) == seat
        and level in LEVELS
        for seat, level in bots.items()
    )


def _is_dealt(dealt: object, seats: int) -> bool:
    return isinstance(dealt, dict) and all(
        (n := whole(seat)) is not None
        and n < seats
        and isinstance(labels, dict)
        and 0 < len(labels) <= 8
        and all(
            isinstance(label, str) and 0 < len(label) <= 64 and is_commitment(c)
            for label, c in labels.items()
        )
        for seat, labels in dealt.items()
    )
