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

Each type's body is written down in match/wire_bodies.py, as a `TypedDict` the session's handlers
read and as the checks (`SHAPES`) `decode` runs on it: nothing reaches a handler that `decode` has
not checked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from parlour.errors import MalformedInput
from parlour.fair.commit import is_commitment
from parlour.fair.encoding import MAX_DEPTH, Json, load_json, lone_surrogate, too_deep
from parlour.fair.signing import SIGNATURE_BYTES, Signed, b64, unb64
from parlour.match.wire_bodies import (
    MAX_SEATS,
    OPTIONAL,
    SEED_STEPS,
    SHAPES,
    SHAPES_SIGNED,
    SeedStep,
    is_count,
)

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


@dataclass(frozen=True)
class Message:
    type: str
    n: int
    body: dict[str, Any]  # checked against SHAPES[type]: read it as that type's TypedDict
    signed: Signed | None = None  # signed play: its sender's signed record (type and body too)
    acks: tuple[Signed, ...] = ()  # signed play: the acks it carries (envelope field `a`)

    def encode(self) -> str:
        return encode(self.type, self.n, **self.body)


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
        if (
            type(seq) is not int
            or not 0 < seq < 2**31
            or not is_count(step)
            or not is_commitment(head)
        ):
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
