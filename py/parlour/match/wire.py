"""The peer-to-peer messages: their one JSON form, and the checks every message passes first.

A message is a JSON object `{"v": 1, "t": type, "n": number, ...body}` of at most 64 KB. In
version 2 (signed play) every message a device originates (`SIGNED`) also carries its sender's
device `d`, that device's sequence number `q` and its signature `s` over fair/signing.py's
`signed_bytes`; the host relays it unchanged, with its own `n`. Version 3 (signed play, its
acknowledgements carried) is version 2 with every device's signed word on where its log stands
(an `ack` record: step and head) riding in an envelope field `a` of whatever message goes next
on the connection (a proposal, log entries, a heartbeat), instead of in messages of its own. `n`
counts the messages one side sent over one connection (1, 2, 3 ...), so a replayed or dropped
message is noticed. Every peer's message is untrusted input: `decode` checks size, JSON, version,
type and the exact shape and types of the body before anything reads it, and raises
`MalformedInput` with a sentence a player can read. What the body *means* (is that seat yours,
is that move legal, does that reveal match) is `OnlineSession`'s and the engine's business.

Each type's body is also written down as a `TypedDict` below (`Welcome`, `SeedCommit` ...), so the
session's handlers read typed fields: `SHAPES` checks exactly those keys (a test holds the two
together), and nothing reaches a handler that `decode` has not checked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict, cast

from parlour.errors import MalformedInput
from parlour.fair.commit import is_commitment
from parlour.fair.encoding import (
    MAX_DEPTH,
    Json,
    canonical_json,
    load_json,
    lone_surrogate,
    too_deep,
)
from parlour.fair.signing import SIGNATURE_BYTES, DeviceKey, Signed, b64, unb64
from parlour.numbers import whole

VERSION = 1  # unsigned: the page's protocol until every device signs
SIGNED_VERSION = 3  # every message a device originates is signed (fair/signing.py), acks carried
# The types a device originates, and signs in signed play; the others (hello, entries, reject,
# status, ping, pong) belong to one connection, or carry signed records inside (entries).
SIGNED = frozenset(
    (
        "welcome",
        "seed-commit",
        "seed-reveal",
        "seed-forfeit",
        "deal-lock",
        "deal-unlock",
        "propose",
        "openings",
        "verdict",
    )
)
ACK = "ack"  # the signed record of a device's position (`Ack`), carried in an envelope's `a`
ACK_FIELDS = ("d", "q", "step", "head", "s")  # a carried ack, as a list in this order
MAX_MESSAGE_BYTES = 65_536
MAX_ENTRIES = 64  # log entries in one message (a resync sends several)
MAX_TEXT = 400
MAX_SEATS = 8


@dataclass(frozen=True)
class Message:
    type: str
    n: int
    body: dict[str, Any]  # checked against SHAPES[type]: read it as that type's TypedDict
    signed: Signed | None = None  # signed play: its sender's signed record (type and body too)
    acks: tuple[Signed, ...] = ()  # signed play: the acks it carries (envelope field `a`)

    def encode(self) -> str:
        return encode(self.type, self.n, **self.body)


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


def _count(v: object) -> bool:
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
        and _count(v["step"])
        and _hash(v["head"])
    )


def _limits(v: object) -> bool:
    return isinstance(v, dict) and set(v) == {"reveal"} and _count(v["reveal"])


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
    "propose": {"seat": _seat, "action": _json, "after": _count},
    "entries": {"entries": _entries},
    "reject": {"reason": _text},
    "openings": {"seat": _seat, "openings": _openings},
    "verdict": {"seat": _seat, "verdict": _verdict, "text": _text},
    "status": {"links": _links},
    "ping": {"at": _count},
    "pong": {"at": _count},
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
    "verdict": {**SHAPES["verdict"], "step": _count, "head": _hash},
}
# Fields a message may leave out: a guest's chosen name came later than the greeting itself, and
# a guest with nothing chosen sends none (so a hello from a page before it is still read).
OPTIONAL: dict[str, frozenset[str]] = {"hello": frozenset({"name"})}
ENVELOPE = ("v", "t", "n", "d", "q", "s", "a")


def shapes(version: int) -> dict[str, dict[str, Callable[[object], bool]]]:
    return SHAPES_SIGNED if version == SIGNED_VERSION else SHAPES


def encode(type_: str, n: int, **body: object) -> str:
    """A message as sent: compact JSON, keys sorted (so a recording reads the same everywhere)."""
    if set(ENVELOPE) & set(body):
        raise ValueError("a message body cannot use the envelope's keys v, t, n, d, q, s and a")
    return json.dumps(
        {"v": VERSION, "t": type_, "n": n, **body},
        sort_keys=True,
        separators=(",", ":"),
        default=_signed_json,
    )


def encode_signed(
    type_: str, n: int, body: dict[str, Any], signed: Signed | None, acks: Sequence[Signed] = ()
) -> str:
    """A signed-play message: its body, and, for a type a device originates, its signed record's
    device, number and signature (the record's own type and body are the message's); and the
    acks it carries, each signed by its own device (`a`)."""
    if set(ENVELOPE) & set(body):
        raise ValueError("a message body cannot use the envelope's keys v, t, n, d, q, s and a")
    envelope: dict[str, object] = {"v": SIGNED_VERSION, "t": type_, "n": n, **body}
    if signed is not None:
        if signed.signature is None:
            raise ValueError("a message is sent once it is signed")
        envelope |= {"d": signed.device, "q": signed.seq, "s": b64(signed.signature)}
    if acks:
        envelope["a"] = [_ack_json(ack) for ack in acks]
    return json.dumps(envelope, sort_keys=True, separators=(",", ":"), default=_signed_json)


def _ack_json(ack: Signed) -> list[Json]:
    """A carried ack, compact: [device, number, step, head, signature]."""
    if ack.kind != ACK or ack.signature is None:
        raise ValueError("only a signed ack is carried")
    return [ack.device, ack.seq, ack.body["step"], ack.body["head"], b64(ack.signature)]


def _acks(value: object) -> tuple[Signed, ...]:
    """The acks a message carries (`a`): each [device, number, step, head, signature]."""
    if not isinstance(value, list) or not 0 < len(value) <= 2 * MAX_SEATS:
        raise MalformedInput("A message carried acknowledgements that are not a list of them.")
    acks = []
    for item in value:
        if not isinstance(item, list) or len(item) != len(ACK_FIELDS):
            raise MalformedInput("A message carried an acknowledgement that is not one.")
        device, seq, step, head, sig = item
        if not isinstance(device, str) or not 0 < len(device) <= 16:
            raise MalformedInput("A carried acknowledgement named no device.")
        if type(seq) is not int or not 0 < seq < 2**31 or not _count(step) or not _hash(head):
            raise MalformedInput("A carried acknowledgement had a bad number, step or head.")
        signature = unb64(sig, SIGNATURE_BYTES, "The signature on a carried acknowledgement")
        acks.append(Signed(device, seq, ACK, {"step": step, "head": head}, signature))
    return tuple(acks)


def _signed_json(value: object) -> object:
    """A signed record inside a body (a log entry's proof) is written when the message is."""
    if isinstance(value, Signed):
        return value.to_json()
    raise TypeError(f"{type(value).__name__} is not JSON")


def decode(text: object, version: int = VERSION) -> Message:
    """Check everything about a received message's form; never trust what is inside first."""
    if not isinstance(text, str):
        raise MalformedInput("A message that was not text arrived and was ignored.")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise MalformedInput(
            f"A message of {-(-size // 1024)} KB arrived; the limit is "
            f"{MAX_MESSAGE_BYTES // 1024} KB. It was ignored."
        )
    if too_deep(text):
        raise MalformedInput(
            f"A message nested more than {MAX_DEPTH} levels deep arrived and was ignored."
        )
    try:
        data = load_json(text)
    except ValueError:
        raise MalformedInput("A message that is not valid JSON arrived and was ignored.") from None
    if lone_surrogate(text):
        raise MalformedInput(
            "A message holding a character that is not one (a lone surrogate) was ignored."
        )
    if not isinstance(data, dict) or not {"v", "t", "n"} <= set(data):
        raise MalformedInput("A message without a version, type and number was ignored.")
    if data["v"] != version:
        raise MalformedInput(
            f"A message in protocol version {_version(data['v'])} arrived; this Psi Parlour "
            f"speaks version {version}. Both players need the same version of the page."
        )
    kind, n = data["t"], data["n"]
    shape = shapes(version).get(kind) if isinstance(kind, str) else None
    if shape is None:
        if not isinstance(kind, str):
            raise MalformedInput("A message whose type is not a word was ignored.")
        raise MalformedInput(f"A message of unknown type {kind[:20]!r} was ignored.")
    if type(n) is not int or n < 1:
        raise MalformedInput("A message without a proper number was ignored.")
    body = {k: v for k, v in data.items() if k not in ENVELOPE}
    check_body(kind, body, version)
    if version != SIGNED_VERSION:
        if {"d", "q", "s", "a"} & set(data):
            raise MalformedInput(f"A {kind!r} message had fields it must not have.")
        return Message(kind, n, body)
    acks = _acks(data["a"]) if "a" in data else ()
    return Message(kind, n, body, _signature(kind, data, body), acks)


def _signature(kind: str, data: dict[str, Any], body: dict[str, Any]) -> Signed | None:
    """Version 2: the signed record a message of a type a device originates must carry."""
    if kind not in SIGNED:
        if {"d", "q", "s"} & set(data):
            raise MalformedInput(f"A {kind!r} message had fields it must not have.")
        return None
    if not {"d", "q", "s"} <= set(data):
        raise MalformedInput(
            f"A {kind!r} message came without its sender's signature: refused. (An older "
            "version of the page does not sign: both players need the same version.)"
        )
    device, seq = data["d"], data["q"]
    if not isinstance(device, str) or not 0 < len(device) <= 16:
        raise MalformedInput(f"A {kind!r} message named no device for its signature.")
    if type(seq) is not int or not 0 < seq < 2**31:
        raise MalformedInput(f"A {kind!r} message had no proper sequence number.")
    signature = unb64(data["s"], SIGNATURE_BYTES, f"The signature on a {kind!r} message")
    return Signed(device, seq, kind, body, signature)


def _version(v: object) -> str:
    return str(v) if type(v) is int else repr(str(v)[:8])


def check_body(kind: str, body: dict[str, object], version: int = VERSION) -> None:
    """Exactly the fields of `kind`'s shape, each passing its check (a message's body, or a seed
    step kept in a save); else `MalformedInput`."""
    shape = shapes(version)[kind]
    optional = OPTIONAL.get(kind, frozenset())
    if not set(shape) - optional <= set(body) <= set(shape):
        raise MalformedInput(f"A {kind!r} message did not have the fields it must have.")
    for key, check in shape.items():
        if key in body and not check(body[key]):
            raise MalformedInput(f"A {kind!r} message had a bad {key!r}; it was ignored.")


def seed_step(kind: object, body: object, version: int = VERSION) -> SeedStep:
    """A step of the seed read back (from a save), checked as its message was when it came."""
    if not isinstance(kind, str) or kind not in SEED_STEPS or not isinstance(body, dict):
        raise MalformedInput("A saved step of the seed is not one.")
    try:
        check_body(kind, body, version)
    except MalformedInput:
        raise MalformedInput(f"A saved {kind!r} step of the seed is damaged.") from None
    return cast(SeedStep, (kind, body))  # its type's exact shape: checked just above
