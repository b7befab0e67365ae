"""One tap to a game against the computer (pure): the home card's "Play vs computer".

It starts at once: one person (the first seat) against bots, at the level, seats, variant and
decks the person chose last time they played alone against bots (remembered in the browser's
storage), else at the game's own defaults with medium bots. What is remembered is read back
through the one bounded JSON parser (`fair.encoding.parse_json`) and every field is checked
against the game's declaration (`games/<game>/options.py`): a damaged, foreign or out-of-date
record falls back to the defaults, field by field, and never stops a game from starting.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from parlour.errors import ParlourError
from parlour.fair.encoding import Json, parse_json
from parlour.games.declared import options_for
from parlour.games.options import BOT_LEVELS, Options

KEY = "psi-parlour:{game}:vs-computer"
LEVEL = "medium"  # the bots' level until the person chooses another
PERSON_SEAT = 0  # the person plays the first seat: they move first


@dataclass(frozen=True)
class SoloChoice:
    """What a person alone against bots chose: the bots' level, how many seats, the variant
    (options with choices only) and each seat's deck as the set-up form names it."""

    level: str
    seats: int
    variant: dict[str, Json] = field(default_factory=dict)
    decks: tuple[str, ...] = ()

    def to_text(self) -> str:
        data = {"level": self.level, "seats": self.seats, "variant": self.variant}
        return json.dumps({**data, "decks": list(self.decks)}, sort_keys=True)


def default_choice(game_id: str) -> SoloChoice:
    """The game's usual seats and defaults, medium bots."""
    options = options_for(game_id)
    return SoloChoice(LEVEL, options.seats.default, {}, _default_decks(options))


def _default_decks(options: Options) -> tuple[str, ...]:
    return tuple(str(v) for o in options.options for v in o.seat_defaults)


def read_choice(game_id: str, raw: object) -> SoloChoice:
    """The remembered choice, each field checked; whatever is missing or wrong is the
    default's (the text is from storage: anything may be there)."""
    fallback = default_choice(game_id)
    if not isinstance(raw, str):
        return fallback
    try:
        data = parse_json(raw, "The remembered game against the computer")
    except ParlourError:
        return fallback
    if not isinstance(data, dict):
        return fallback
    options = options_for(game_id)
    level = data.get("level")
    seats = data.get("seats")
    chosen = SoloChoice(
        level if isinstance(level, str) and level in BOT_LEVELS else fallback.level,
        seats if isinstance(seats, int) and seats in options.seats.counts else fallback.seats,
        _variant(options, data.get("variant")),
        _decks(options, data.get("decks"), fallback.decks),
    )
    try:
        options.check(chosen.variant, chosen.seats)
    except ParlourError:
        return SoloChoice(chosen.level, fallback.seats, {}, chosen.decks)
    return chosen


def _variant(options: Options, found: object) -> dict[str, Json]:
    """The remembered options the game declares with a fixed set of choices, at a value it
    offers; the rest is left out (and so plays at its default)."""
    if not isinstance(found, dict):
        return {}
    kept: dict[str, Json] = {}
    for option in options.options:
        value = found.get(option.key)
        if option.choices and option.choice(value) is not None:
            kept[option.key] = value
    return kept


def _decks(options: Options, found: object, fallback: tuple[str, ...]) -> tuple[str, ...]:
    """Each seat's deck as the form names it ("starter:mindwall", "saved:My deck"); the app
    resolves a saved deck that is gone to the seat's default."""
    if not fallback or not isinstance(found, list) or len(found) != len(fallback):
        return fallback
    if not all(isinstance(d, str) and 0 < len(d) <= 80 for d in found):
        return fallback
    return tuple(str(d) for d in found)


def seat_count(game_id: str, choice: SoloChoice) -> int:
    """The seats of the game: an arrangement that fixes them (Telepathic) says how many."""
    options = options_for(game_id)
    counted_by = options.seats.counted_by
    if counted_by is not None:
        fixed = options.choice_of(choice.variant, counted_by).seats
        if fixed is not None:
            return fixed
    return choice.seats


def seats_of(game_id: str, choice: SoloChoice) -> tuple[tuple[str, ...], dict[int, str]]:
    """The seats' names (as an empty set-up form gives them) and the bots among them."""
    options = options_for(game_id)
    count = seat_count(game_id, choice)
    names = tuple(options.seats.placeholder(seat) for seat in range(count))
    bots = {seat: choice.level for seat in range(count) if seat != PERSON_SEAT}
    return names, bots


def remembered(
    game_id: str, bots: dict[int, str], seats: int, variant: dict[str, Json], decks: list[str]
) -> SoloChoice | None:
    """A set-up worth remembering for next time: one person, every other seat a bot (the
    level the most seats have, the first such in seat order on a tie). None otherwise. The
    person's deck comes first, as "Play vs computer" seats the person first."""
    people = [s for s in range(seats) if s not in bots]
    if len(people) != 1 or not bots:
        return None
    levels = [bots[s] for s in sorted(bots)]
    level = max(levels, key=levels.count)
    options = options_for(game_id)
    person = people[0]
    if 0 <= person < len(decks):
        decks = [decks[person]] + [d for s, d in enumerate(decks) if s != person]
    return SoloChoice(
        level, seats, _variant(options, variant), _decks(options, decks, _default_decks(options))
    )
