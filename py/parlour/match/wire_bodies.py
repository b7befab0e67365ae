"""Each peer-to-peer message type's body, written down twice: as a `TypedDict` (`Welcome`,
`SeedCommit` ...), the typed fields the session's handlers read, and as `SHAPES`, the checks
`wire.decode` runs on every field before anything reads it (exactly those keys; a test holds the
two together). The envelope around a body (version, type, number, signature) is match/wire.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NotRequired, TypedDict

from parlour.errors import MalformedInput
from parlour.fair.commit import is_commitment
from parlour.fair.encoding import Json, canonical_json
from parlour.fair.signing import DeviceKey, Signed
from parlour.numbers import whole

MAX_ENTRIES = 64  # log entries in one message (a resync sends several)
MAX_TEXT = 400
MAX_SEATS = 8


# -- the bodies, by type (the envelope's v, t and n aside) ---------------------------------------


class Resume(TypedDict):
    """Where a returning guest's log stands: its match, seat, last step and that step's hash."""

    match: str
    seat: int
    step: int
    head: str


class Hello(TypedDict):
    """A guest greets the host on a new connection (`resume` is None the first time)."""

    resume: Resume | None
    key: NotRequired[list[str]]  # version 2: the guest device's key (fair/signing.py)
    name: NotRequired[str]  # the name the player chose on the join screen (may be left out)


class Limits(TypedDict):
    """The time allowed, in seconds, for a step a seat's own device takes by itself."""

    reveal: int


class Welcome(TypedDict):
    """The host's answer: the set-up, the guest's seat, the time allowed, the host's seats."""

    config: dict[str, Json]
    seat: int
    limits: Limits
    host: list[int]
    keys: NotRequired[dict[str, list[str]]]  # version 2: every device's key known so far


class SeedCommit(TypedDict):
    """A seat's commitment to its part of the seed, binding what was dealt to it (`dealt`)."""

    seat: int
    commitment: str
    dealt: dict[str, str]


class SeedReveal(TypedDict):
    """A seat opens its part of the seed, once every commitment is in."""

    seat: int
    opening: dict[str, Json]


class SeedForfeit(TypedDict):
    """The host: these seats did not reveal in time, and forfeit."""

    seats: list[int]


class DealLock(TypedDict):
    """A recipient of a shared deal locks the whole deck (`values`, hex) in its turn."""

    label: str
    seat: int
    values: list[str]


class DealUnlock(TypedDict):
    """A recipient takes its lock off another recipient's card (`card`, by index)."""

    label: str
    seat: int
    card: int
    value: str


class Propose(TypedDict):
    """A guest's move, sealed on its own device after log step `after`."""

    seat: int
    action: Json
    after: int


class Entries(TypedDict):
    """New log entries, from the host."""

    entries: list[dict[str, Json]]
    proofs: NotRequired[list[dict[str, Json]]]  # version 2: each entry's signed proposal


class Reject(TypedDict):
    """The other side refused a message, and says why."""

    reason: str


class Openings(TypedDict):
    """At the end, everything a seat committed to, opened."""

    seat: int
    openings: list[dict[str, Json]]


class Verdict(TypedDict):
    """What a device's audit said."""

    seat: int
    verdict: Literal["verified", "cheat", "unverified"]
    text: str
    step: NotRequired[int]  # version 2: the position the audit was made on
    head: NotRequired[str]


class Status(TypedDict):
    """The host's word on who is connected, by seat."""

    links: dict[str, str]
    keys: NotRequired[dict[str, list[str]]]  # version 2: every device's key known so far


class Ack(TypedDict):
    """Signed play: a device's signed word on where its log stands (its step and that step's
    hash), made whenever it changes and carried by the next message on each connection (`a`);
    the host relays every device's to every other, so a device shown another game than the
    others is caught."""

    step: int
    head: str


class Ping(TypedDict):
    """The heartbeat: `at` is the sender's clock, in milliseconds."""

    at: int


class Pong(TypedDict):
    """The answer to a ping, with its `at`."""

    at: int


# The steps of drawing the seed and dealing shared decks, as a device keeps them to replay to a
# device that joins late: tagged with their type, so reading one tells which body it is.
DealStep = tuple[Literal["deal-lock"], DealLock] | tuple[Literal["deal-unlock"], DealUnlock]
SeedStep = (
    tuple[Literal["seed-commit"], SeedCommit] | tuple[Literal["seed-reveal"], SeedReveal] | DealStep
)
SEED_STEPS = ("seed-commit", "seed-reveal", "deal-lock", "deal-unlock")


# -- field checks: each returns True for an acceptable value -------------------------------------


def _seat(v: object) -> bool:
    return type(v) is int and 0 <= v < MAX_SEATS


def is_count(v: object) -> bool:
    return type(v) is int and 0 <= v < 2**31


def _text(v: object) -> bool:
    return isinstance(v, str) and len(v) <= MAX_TEXT


def _player_name(v: object) -> bool:
    return isinstance(v, str) and 0 < len(v) <= MAX_PLAYER_NAME


def _hash(v: object) -> bool:
    return is_commitment(v)


def _json(v: object) -> bool:
    try:
        return len(canonical_json(v)) <= 16_384
    except MalformedInput:
        return False


def _opening(v: object) -> bool:
    return isinstance(v, dict) and set(v) == {"label", "value", "nonce"} and _json(v)


def _openings(v: object) -> bool:
    return isinstance(v, list) and len(v) <= 64 and all(_opening(o) for o in v)


def _entries(v: object) -> bool:
    return isinstance(v, list) and 0 < len(v) <= MAX_ENTRIES and all(_entry(e) for e in v)


def _entry(v: object) -> bool:
    return isinstance(v, dict) and set(v) == {"seq", "seat", "action", "prev", "hash"}


def _labels(v: object) -> bool:
    return (
        isinstance(v, dict)
        and len(v) <= 8
        and all(isinstance(k, str) and 0 < len(k) <= 64 and _hash(c) for k, c in v.items())
    )


def _resume(v: object) -> bool:
    if v is None:
        return True
    return (
        isinstance(v, dict)
        and set(v) == {"match", "seat", "step", "head"}
        and isinstance(v["match"], str)
        and len(v["match"]) <= 64
        and _seat(v["seat"])
        and is_count(v["step"])
        and _hash(v["head"])
    )


def _limits(v: object) -> bool:
    return isinstance(v, dict) and set(v) == {"reveal"} and is_count(v["reveal"])


def _config(v: object) -> bool:
    return isinstance(v, dict) and _json(v)


def _seats(v: object) -> bool:
    return isinstance(v, list) and len(v) <= MAX_SEATS and all(_seat(s) for s in v)


def _links(v: object) -> bool:
    return (
        isinstance(v, dict)
        and len(v) <= MAX_SEATS
        and all(whole(k) is not None and v[k] in LINK_STATES for k in v)
    )


def _verdict(v: object) -> bool:
    return v in ("verified", "cheat", "unverified")


def _label(v: object) -> bool:
    return isinstance(v, str) and 0 < len(v) <= 32


def _number(v: object) -> bool:
    return isinstance(v, str) and 0 < len(v) <= 400 and all(c in "0123456789abcdef" for c in v)


def _numbers(v: object) -> bool:
    return isinstance(v, list) and 0 < len(v) <= 16 and all(_number(x) for x in v)


def _key(v: object) -> bool:
    try:
        DeviceKey.from_json(v)
    except MalformedInput:
        return False
    return True


def _keys(v: object) -> bool:
    return (
        isinstance(v, dict)
        and len(v) <= MAX_SEATS
        and all(isinstance(k, str) and len(k) <= 16 and _key(key) for k, key in v.items())
    )


def _record(v: object) -> bool:
    try:
        record = Signed.from_json(v)
    except MalformedInput:
        return False
    return record.signature is not None and _json(v)


def _proofs(v: object) -> bool:
    return isinstance(v, list) and 0 < len(v) <= MAX_ENTRIES and all(_record(p) for p in v)


LINK_STATES = ("here", "invited", "connected", "lost")
MAX_PLAYER_NAME = 64  # characters: the host keeps a clean name of at most MatchConfig's 24

# type -> the body's fields and their checks (exactly these keys)
SHAPES: dict[str, dict[str, Callable[[object], bool]]] = {
    "hello": {"resume": _resume, "name": _player_name},
    "welcome": {"config": _config, "seat": _seat, "limits": _limits, "host": _seats},
    "seed-commit": {"seat": _seat, "commitment": _hash, "dealt": _labels},
    "seed-reveal": {"seat": _seat, "opening": _opening},
    "seed-forfeit": {"seats": _seats},
    "deal-lock": {"label": _label, "seat": _seat, "values": _numbers},
    "deal-unlock": {"label": _label, "seat": _seat, "card": _seat, "value": _number},
    "propose": {"seat": _seat, "action": _json, "after": is_count},
    "entries": {"entries": _entries},
    "reject": {"reason": _text},
    "openings": {"seat": _seat, "openings": _openings},
    "verdict": {"seat": _seat, "verdict": _verdict, "text": _text},
    "status": {"links": _links},
    "ping": {"at": is_count},
    "pong": {"at": is_count},
}
# Version 2: the keys go with the greetings and the host's word on who is here; each log entry
# comes with its proof (the signed proposal it was appended from); and a verdict says which
# position it was reached on. Acks ride in the envelope (`a`), on any message.
SHAPES_SIGNED: dict[str, dict[str, Callable[[object], bool]]] = {
    **SHAPES,
    "hello": {**SHAPES["hello"], "key": _key},
    "welcome": {**SHAPES["welcome"], "keys": _keys},
    "status": {**SHAPES["status"], "keys": _keys},
    "entries": {**SHAPES["entries"], "proofs": _proofs},
    "verdict": {**SHAPES["verdict"], "step": is_count, "head": _hash},
}
# Fields a message may leave out: a guest's chosen name came later than the greeting itself, and
# a guest with nothing chosen sends none (so a hello from a page before it is still read).
OPTIONAL: dict[str, frozenset[str]] = {"hello": frozenset({"name"})}
