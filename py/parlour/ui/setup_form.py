"""A set-up form as the page sends it (pure): its fields as plain records, read into a match.

The set-up forms are plain HTML, usable before any Python runs. When a game starts, the page's
main thread sends the form's fields as they stand (`Field` records: tag, type, name, value,
checked, placeholder and the data-* attributes); these functions read the seats, names and
variant from them, so the main thread knows nothing of games. A start (pass and play, online,
by link) reads the form once, at the edge, into a `SetUp` (`read`), which everything after it
takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.numbers import whole_or

Field = dict[str, Any]


def _fields(form: object) -> list[Field]:
    if not isinstance(form, list):
        return []
    return [f for f in form if isinstance(f, dict) and isinstance(f.get("data", {}), dict)]


def _data(field: Field, name: str) -> str | None:
    found = field.get("data", {}).get(name)
    return found if isinstance(found, str) else None


def _text(field: Field, name: str) -> str:
    found = field.get(name)
    return found if isinstance(found, str) else ""


def whole(text: object, default: int) -> int:
    """A whole number typed or chosen in the page ("3"), else `default` (`parlour.numbers`)."""
    return whole_or(text, default)


def seat_count(form: object, default: int = 2) -> int:
    """The seats chosen: a "-seats" radio, or the chosen option's data-seats (an arrangement)."""
    fields = _fields(form)
    for field in fields:
        if field.get("checked") and _data(field, "seats") is not None:
            return whole(_data(field, "seats"), default)
    for field in fields:
        if field.get("checked") and _text(field, "name").endswith("-seats"):
            return whole(_text(field, "value"), default)
    return default


def seat_names(form: object) -> tuple[str, ...]:
    """The names typed, one per seat chosen; an empty field plays under its placeholder."""
    from parlour.match.config import person_name  # here: it brings the engines, not wanted at start

    by_seat = {whole(_data(f, "seat-name"), -1): f for f in _fields(form) if _data(f, "seat-name")}
    names = []
    for seat in range(seat_count(form)):
        field = by_seat.get(seat)
        fallback = _text(field, "placeholder") if field else ""
        names.append(
            person_name(_text(field, "value") if field else "", fallback or f"Seat {seat + 1}")
        )
    return tuple(names)


def names_refusal(form: object) -> str:
    """Why a person's name typed in the form cannot be used as typed (`name_refusal`), or ""."""
    from parlour.match.config import name_refusal  # here: it brings the engines

    bots = seat_kinds(form)
    for field in _fields(form):
        seat = whole(_data(field, "seat-name"), -1)
        if seat >= 0 and seat not in bots:
            refused = name_refusal(_text(field, "value"))
            if refused:
                return refused
    return ""


def seat_kinds(form: object) -> dict[int, str]:
    """The seats the form gives to a bot, with the bot's level (a person's seat is absent)."""
    from parlour.bots.base import LEVELS

    kinds = {}
    seats = seat_count(form)
    for field in _fields(form):
        seat = whole(_data(field, "seat-kind"), -1)
        level = _text(field, "value")
        if 0 <= seat < seats and level in LEVELS:
            kinds[seat] = level
    return kinds


def variant(form: object, game_id: str) -> dict[str, Any]:
    """The variant options: checked inputs carrying data-variant, as the game declares them
    ("4" is the number 4 for Psi Squad's length); a key the game does not declare is kept, so
    the engine refuses it with a sentence."""
    from parlour.games.declared import options_for

    options = options_for(game_id)
    declared = {o.key for o in options.options}
    chosen: dict[str, Any] = {}
    for field in _fields(form):
        key = _data(field, "variant")
        if key is not None and field.get("checked"):
            text = _text(field, "value")
            chosen[key] = options.parse(key, text) if key in declared else text
    return chosen


def deck_choices(form: object) -> list[tuple[str, str]]:
    """The ESPEERS deck selects, in seat order: (value chosen, data-default)."""
    decks = [f for f in _fields(form) if _data(f, "deck-seat") is not None]
    decks.sort(key=lambda f: whole(_data(f, "deck-seat"), 0))
    return [(_text(f, "value"), _data(f, "default") or "") for f in decks]


def here_seats(form: object, seats: int) -> tuple[int, ...]:
    """Online: the seats ticked as played on this device."""
    ticked = (
        whole(_data(f, "here-seat"), -1)
        for f in _fields(form)
        if _data(f, "here-seat") is not None and f.get("checked")
    )
    return tuple(s for s in ticked if 0 <= s < seats)


def online_limit(form: object, default: int = 120) -> int:
    for field in _fields(form):
        if _data(field, "online-limit") is not None:
            return whole(_text(field, "value"), default)
    return default


def link_hours(form: object) -> int:
    """Play by link: the time per move chosen, in hours (0, the default: none); at most 30
    days, whatever the page sends."""
    for field in _fields(form):
        if _data(field, "link-limit") is not None:
            return min(max(whole(_text(field, "value"), 0), 0), 30 * 24)
    return 0


def network(form: object) -> str | None:
    """Online: where the other players are, as chosen ("local" or "internet"; None: the form has
    no such choice)."""
    for field in _fields(form):
        if _data(field, "network") is not None and field.get("checked"):
            return _text(field, "value")
    return None


def stun_text(form: object) -> str | None:
    for field in _fields(form):
        if _data(field, "stun") is not None:
            return _text(field, "value")
    return None


@dataclass(frozen=True)
class SetUp:
    """A set-up form as read once when a game starts: the seats' names (as typed, or their
    placeholders), the bots by seat, the variant, ESPEERS' deck choices, and the online and
    by-link parts (this device's seats, the reveal limit, the time per move, the network)."""

    game: str
    names: tuple[str, ...]
    bots: dict[int, str]
    variant: dict[str, Any]
    decks: list[tuple[str, str]]
    refusal: str  # why a name typed for a person cannot be used as typed, or ""
    here: tuple[int, ...]  # online: the seats ticked as played on this device
    online_limit: int
    link_hours: int
    network: str | None
    stun_text: str | None

    def bot_named(self) -> tuple[str, ...]:
        """The names with each bot's marked as a bot's ("Bo (bot)")."""
        from parlour.match.bot_seats import bot_name  # here: it brings the engines

        return tuple(bot_name(n) if s in self.bots else n for s, n in enumerate(self.names))


def read(form: object, game_id: str) -> SetUp:
    """The whole set-up of a start, from the page's fields (each read once)."""
    names = seat_names(form)
    return SetUp(
        game=game_id,
        names=names,
        bots=seat_kinds(form),
        variant=variant(form, game_id),
        decks=deck_choices(form),
        refusal=names_refusal(form),
        here=here_seats(form, len(names)),
        online_limit=online_limit(form),
        link_hours=link_hours(form),
        network=network(form),
        stun_text=stun_text(form),
    )
