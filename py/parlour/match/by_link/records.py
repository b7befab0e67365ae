"""The kinds of signed record a device appends when playing by link, and their exact shapes.

Every record is a `fair.signing.Signed`: the device, its own sequence number (1, 2, 3, ... with
no gap and never reused), a kind and a body, signed over the match id. A body is checked for its
exact keys and types before anything reads it; anything else is `MalformedInput`.

- `open` (the creator's record 1): g game, n seat names, v variant, b bots {seat: level},
  h seats held, k key, l seconds per move (0: none), t time; and c, where a shared deck's
  recipients are all seats held (a deal at one device, `fair.sealed_deal`): {label: the
  commitments to its recipients' locks} (an invite before it has no c);
- `join` (every other player's record 1): s seat, n name, k key, t;
- `commit`: s seat, c seed commitment, d dealt commitments {label: hash};
- `lock` / `unlock`: a shared deal's step (match/dealing.py: label, seat, values / card, value);
- `reveal`: s seat, o opening, t (once every commitment is in);
- `act`: s seat, a action, at the step it was sealed after, h the head then (16 hex), t;
- `claim`: s the seat out of time, by the claimant's seat, at the step, t;
- `seen`: s seat, at the step, t: when this device first held a turn of its seat that came
  late (signed more than `SLACK` before it arrived): that seat's time per move counts from here;
- `due`: s seat, on another seat, t: with a time per move, when this device first held everything
  `on` needed to read its shared cards while its commitment was not here (a claim against a
  commitment kept back counts from it);
- `openings`: o {seat: [openings]} (at the end, every device for its seats);
- `carry` (the live host's record 1, carrying.py): n the step carried on from, h its head
  (64 hex), e the entries another device may lack, each [entry, its live proof], t;
- `carried` (every other live device's record 1): n, h (the same as the carry's), t;
- `head`: have {device: last record held}, n step, h head (16 hex; n 0 and h "lost" from a
  device that lost records it signed: keeping.LOST): the sender's word on what it holds,
  signed with each link and not kept.
"""

from __future__ import annotations

from collections.abc import Mapping

from parlour.errors import MalformedInput
from parlour.fair.encoding import Json
from parlour.fair.signing import Signed

SHAPES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "open": {"g": str, "n": list, "v": dict, "b": dict, "h": list, "k": list, "l": int, "t": int},
    "join": {"s": int, "n": str, "k": list, "t": int},
    "commit": {"s": int, "c": str, "d": dict},
    "lock": {"label": str, "seat": int, "values": list},
    "unlock": {"label": str, "seat": int, "card": int, "value": str},
    "reveal": {"s": int, "o": dict, "t": int},
    "act": {"s": int, "a": (dict, list, str, int, bool), "at": int, "h": str, "t": int},
    "claim": {"s": int, "by": int, "at": int, "t": int},
    "seen": {"s": int, "at": int, "t": int},
    "due": {"s": int, "on": int, "t": int},
    "openings": {"o": dict},
    "head": {"have": dict, "n": int, "h": str},
    "carry": {"n": int, "h": str, "e": list, "t": int},
    "carried": {"n": int, "h": str, "t": int},
}
# Keys a record may lack (a record of a page before them)
OPTIONAL: dict[str, dict[str, type | tuple[type, ...]]] = {"open": {"c": dict}}


def check_body(kind: str, body: Mapping[str, Json]) -> None:
    """A record's body has exactly its kind's keys, each of its type (no bool for an int)."""
    shape = SHAPES.get(kind)
    if shape is None:
        raise MalformedInput(f"A record of an unknown kind ({kind[:16]!r}) came in a link.")
    optional = OPTIONAL.get(kind, {})
    if not set(shape) <= set(body) <= set(shape) | set(optional):
        raise MalformedInput(f"A {kind} record does not have its fields.")
    for key, types in {**shape, **optional}.items():
        if key not in body:
            continue
        value = body[key]
        wanted = types if isinstance(types, tuple) else (types,)
        if isinstance(value, bool) and bool not in wanted:
            raise MalformedInput(f"A {kind} record's {key} is not of its type.")
        if not isinstance(value, wanted):
            raise MalformedInput(f"A {kind} record's {key} is not of its type.")
        if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value < 2**42:
            raise MalformedInput(f"A {kind} record's {key} is out of range.")


def seat_of(kind: str, body: Mapping[str, Json]) -> int | None:
    """The seat a record speaks for (its device must hold it); None for a claim or openings."""
    if kind in ("lock", "unlock"):
        seat = body["seat"]
    elif kind in ("commit", "reveal", "act", "join", "seen", "due"):
        seat = body["s"]
    elif kind == "claim":
        seat = body["by"]
    else:
        return None
    return seat if isinstance(seat, int) else None


def number_in(record: Signed, key: str) -> int:
    """A whole-number field of a record whose shape was checked (`check_body`)."""
    value = record.body[key]
    if type(value) is not int:
        raise MalformedInput(f"A {record.kind} record's {key} is not a whole number.")
    return value
