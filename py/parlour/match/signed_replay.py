"""A signed game's signatures as its replay keeps them (pure): written, read back, and made.

Signed play (issue 26) keeps, with each log entry, the signed proposal it was appended from.
A replay carries what is needed to check those again, compactly: every device's key, and per
move only what cannot be recomputed from the move itself (the signing device, its sequence
number, the step the proposal was made after, and the 64-byte signature); the signed bytes are
rebuilt from the match id and the move (`Signed.payload`). A signature proves that a device
signed a move, never who held the device.

A game played by link (match/by_link/, issue 39) keeps the same, from its own records: every
device's first record whole (the creator's invite, each player's join: the key and the seats it
holds, signed with that key), and per move the record it came from (an `act`, or a `claim` of
time), of which the replay writes only what the move and the log before it do not give (its
number, the step it was sealed after, its time and its signature: the head it names is
recomputed from the moves); and each device's signed openings at the end.

The viewer checks them (match/signature_check.py); this module is what a replay keeps of them,
written (`Signatures.to_json`) and read back with every field checked (`Signatures.from_json`),
and made from a signed session's proofs (`of_proofs`) or a game by link's records (`of_link`).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from parlour.errors import MalformedInput
from parlour.fair.encoding import Json
from parlour.fair.signing import (
    DIGEST_BYTES,
    SIGNATURE_BYTES,
    DeviceKey,
    Signed,
    b64,
    proof_from_b64,
    proof_parts,
    unb64,
)
from parlour.match.match import forfeited_seat
from parlour.words import and_list

HOST = "host"


@dataclass(frozen=True)
class MoveProof:
    """What a replay keeps of one move's signed proposal (by link: of its `act` or `claim`,
    with the record's time)."""

    device: str
    seq: int
    after: int
    signature: bytes
    time: int | None = None  # by link: the record's `t`


@dataclass(frozen=True)
class OpeningsProof:
    """The signature on one seat's openings at the end (signed by the device of that seat, over
    exactly the openings the replay lists for it, in that order). By link a device signs the
    openings of every seat it holds in one record: `seat` is the lowest of them."""

    seat: int
    seq: int
    signature: bytes


@dataclass(frozen=True)
class VerdictProof:
    """One device's signed verdict on the whole game (signed over the final step and head,
    which the viewer recomputes from the moves)."""

    seat: int  # the first seat of the device that gave it
    verdict: str
    text: str
    seq: int
    signature: bytes


@dataclass(frozen=True)
class Signatures:
    """Every device's key, one proof per move, and the signatures on the openings and verdicts,
    as the replay document's `signed` part."""

    keys: Mapping[str, DeviceKey]
    proofs: tuple[MoveProof, ...]
    openings: tuple[OpeningsProof, ...] = ()
    verdicts: tuple[VerdictProof, ...] = ()
    start: tuple[Signed, ...] = ()  # by link: every device's first record (its key and seats)

    # -- who signs what ------------------------------------------------------------------------

    def holders(self) -> dict[int, str]:
        """By link: each seat's device, as the devices' first records say (the invite's seats
        for the creator, its seat for each player who joined); empty for an online game."""
        return {seat: r.device for r in self.start for seat in _link_seats(r)}

    def device_of_seat(self, seat: int) -> str:
        """The device that holds a seat: by link, as its first record says; online, its seat's
        guest device, if the keys name one, else the host's."""
        if self.start:
            return self.holders().get(seat, "")
        return device_of_seat(self.keys, seat)

    def device_of_move(self, seat: int, action: Json) -> str:
        """The device that signs a move: by link, the device of its seat (a claim of time is the
        claimant's: its entry is the claimant's seat's); online, `device_of_move`."""
        if self.start:
            return self.device_of_seat(seat)
        return device_of_move(self.keys, seat, action)

    def device_words(self, device: str, names: Sequence[str]) -> str:
        """A device in words: online, `device_words`; by link, by the people whose seats it
        holds ("Ada's device", for Ada's seat and her bots')."""
        if not self.start:
            return device_words(device, names)
        seats = [s for s, d in sorted(self.holders().items()) if d == device and s < len(names)]
        if not seats:
            return "a device not in this game"
        bots = next((r.body.get("b") for r in self.start if r.kind == "open"), None)
        people = [s for s in seats if not isinstance(bots, dict) or str(s) not in bots]
        return f"{and_list([names[s] for s in people or seats])}'s device"

    def terms(self) -> dict[str, str] | None:
        """What the table code holds besides the keys and the start: by link, the time per move
        the invite set (as `LinkPlay.table_code`); online, nothing."""
        invite = next((r for r in self.start if r.kind == "open"), None)
        return None if invite is None else {"limit": str(invite.body.get("l"))}

    @property
    def batched(self) -> bool:
        """By link: does a proof here hold its batch's digests (format 5), or is every one a
        plain signature (format 4, which older pages read too)?"""
        proofs = [p.signature for p in self.proofs] + [p.signature for p in self.openings]
        return any(len(p) != SIGNATURE_BYTES for p in proofs) or any(
            r.signature is not None and len(r.signature) != SIGNATURE_BYTES for r in self.start
        )

    # -- the document ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Json]:
        """Format 3, compact: what the viewer can recompute is left out (each move's device, from
        its seat and the keys; a proposal's step, as how far before its move it was sealed; the
        openings' and verdicts' bodies), and the moves' signatures are packed as bytes. By link
        (format 4): the devices' first records whole (the keys are in them), each move's record's
        time packed with its number and step, and no verdicts (none is signed by link)."""
        if self.start:
            return {
                "start": [r.to_json() for r in sorted(self.start, key=lambda r: r.device)],
                "moves": b64(_pack_moves(self.proofs, timed=True, batched=self.batched)),
                "openings": [[p.seat, p.seq, b64(p.signature)] for p in self.openings],
            }
        return {
            "keys": {name: key.to_json() for name, key in sorted(self.keys.items())},
            "moves": b64(_pack_moves(self.proofs)),
            "openings": [[p.seat, p.seq, b64(p.signature)] for p in self.openings],
            "verdicts": [
                [p.seat, p.verdict, p.text, p.seq, b64(p.signature)] for p in self.verdicts
            ],
        }

    @classmethod
    def from_json(
        cls,
        value: object,
        moves: Sequence[tuple[int, Json]],
        version: int = 3,
        seats: int | None = None,
    ) -> Signatures:
        """The `signed` part read back: known keys, and exactly one proof per move (format 2:
        each move's proof written out whole; format 3: `to_json`'s; format 4, a game by link:
        `to_json`'s, its first records holding the game's `seats` between them)."""
        if version in (4, 5):
            return cls._from_link_json(value, moves, seats, batched=version == 5)
        fields = {"keys", "proofs"} if version == 2 else {"keys", "moves", "openings", "verdicts"}
        if not isinstance(value, dict) or set(value) != fields:
            raise MalformedInput("its signatures are not keys and proofs.")
        keys = value["keys"]
        if not isinstance(keys, dict) or not 0 < len(keys) <= 64:
            raise MalformedInput("its signatures name no device's key.")
        read_keys = {_device(name): DeviceKey.from_json(key) for name, key in keys.items()}
        if version == 2:
            proofs = value["proofs"]
            if not isinstance(proofs, list) or len(proofs) != len(moves):
                raise MalformedInput("its signatures are not one for each move.")
            return cls(read_keys, tuple(_proof(item) for item in proofs))
        return cls(
            read_keys,
            _unpack_moves(value["moves"], moves, lambda s, a: device_of_move(read_keys, s, a)),
            tuple(_openings_proof(item) for item in _list(value["openings"])),
            tuple(_verdict_proof(item) for item in _list(value["verdicts"])),
        )

    @classmethod
    def _from_link_json(
        cls,
        value: object,
        moves: Sequence[tuple[int, Json]],
        seats: int | None,
        batched: bool = False,
    ) -> Signatures:
        if not isinstance(value, dict) or set(value) != {"start", "moves", "openings"}:
            raise MalformedInput("its signatures are not the devices' first entries and proofs.")
        start = _link_start(value["start"], seats)
        if not batched and any(r.signature and len(r.signature) != SIGNATURE_BYTES for r in start):
            raise MalformedInput("its signatures' first entries are not plain signatures.")
        keys = {r.device: DeviceKey.from_json(r.body["k"]) for r in start}
        bare = cls(keys, (), (), (), start)
        proofs = _unpack_moves(
            value["moves"], moves, bare.device_of_move, timed=True, batched=batched
        )
        openings = tuple(_openings_proof(item, batched) for item in _list(value["openings"]))
        return cls(keys, proofs, openings, (), start)


def device_of_move(keys: Mapping[str, DeviceKey], seat: int, action: Json) -> str:
    """The device that signs a move: its seat's guest device, if the keys name one; else the
    host's (its own seats, its bots', and every forfeit it declares)."""
    device = f"seat-{seat}"
    return device if device in keys and forfeited_seat(action) is None else HOST


def device_of_seat(keys: Mapping[str, DeviceKey], seat: int) -> str:
    device = f"seat-{seat}"
    return device if device in keys else HOST


def _pack_moves(proofs: Sequence[MoveProof], timed: bool = False, batched: bool = False) -> bytes:
    """Per move: its number on its device, how many steps before its move it was sealed (0 for
    the step just before), and (`timed`, by link) its record's time, as varints, then its
    64-byte signature; `batched` (format 5), the count of its batch's digests (0: a plain
    signature) before the signature, and the digests after it."""
    out = bytearray()
    for number, proof in enumerate(proofs, start=1):
        out += _varint(proof.seq) + _varint(number - 1 - proof.after)
        if timed:
            out += _varint(proof.time or 0)
        if batched:
            out += _varint((len(proof.signature) - SIGNATURE_BYTES) // DIGEST_BYTES)
        out += proof.signature
    return bytes(out)


def _unpack_moves(
    value: object,
    moves: Sequence[tuple[int, Json]],
    signer_of: Callable[[int, Json], str],
    timed: bool = False,
    batched: bool = False,
) -> tuple[MoveProof, ...]:
    if not isinstance(value, str) or len(value) > 4 * MAX_PACKED // 3 + 4:
        raise MalformedInput("its moves' signatures are not packed bytes.")
    try:
        data = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise MalformedInput("its moves' signatures are not packed bytes.") from None
    proofs, at = [], 0
    for number, (seat, action) in enumerate(moves, start=1):
        seq, at = _read_varint(data, at)
        back, at = _read_varint(data, at)
        time = None
        if timed:
            time, at = _read_varint(data, at, TIME_BITS)
        digests = 0
        if batched:
            digests, at = _read_varint(data, at)
        size = SIGNATURE_BYTES + digests * DIGEST_BYTES
        signature, at = data[at : at + size], at + size
        if (
            not 0 < seq < 2**31
            or back > number - 1
            or len(signature) != size
            or proof_parts(signature) is None
        ):
            raise MalformedInput("its signatures are not one for each move.")
        device = signer_of(seat, action)
        proofs.append(MoveProof(device, seq, number - 1 - back, signature, time))
    if at != len(data):
        raise MalformedInput("its signatures are not one for each move.")
    return tuple(proofs)


MAX_PACKED = 20_000 * 80  # bytes: every move of the longest replay, signed
TIME_BITS = 42  # a record's time by link is below 2**42 (by_link/records.py)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_varint(data: bytes, at: int, bits: int = 35) -> tuple[int, int]:
    value = 0
    for shift in range(0, bits, 7):
        if at >= len(data):
            break
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
    raise MalformedInput("its signatures are not one for each move.")


def _list(value: object) -> list[object]:
    if not isinstance(value, list) or len(value) > 64:
        raise MalformedInput("its signatures on the openings and verdicts are not lists.")
    return value


def _seq(value: object) -> int:
    if type(value) is not int or not 0 < value < 2**31:
        raise MalformedInput("a signature in it has no sequence number.")
    return value


def _seat_number(value: object) -> int:
    if type(value) is not int or not 0 <= value < 64:
        raise MalformedInput("a signature in it names a seat that is not one.")
    return value


def _openings_proof(item: object, batched: bool = False) -> OpeningsProof:
    if not isinstance(item, list) or len(item) != 3:
        raise MalformedInput(
            "the signature on a seat's openings is not a seat, a number and bytes."
        )
    seat, seq, signature = item
    proof = (
        proof_from_b64(signature) if batched else unb64(signature, SIGNATURE_BYTES, "A signature")
    )
    return OpeningsProof(_seat_number(seat), _seq(seq), proof)


def _verdict_proof(item: object) -> VerdictProof:
    if not isinstance(item, list) or len(item) != 5:
        raise MalformedInput(
            "a signed verdict is not a seat, a word, a sentence, a number and bytes."
        )
    seat, verdict, text, seq, signature = item
    if verdict not in ("verified", "cheat", "unverified") or not isinstance(text, str):
        raise MalformedInput("a signed verdict is not a word and a sentence.")
    if len(text) > 400:
        raise MalformedInput("a signed verdict's sentence is too long.")
    return VerdictProof(
        _seat_number(seat),
        str(verdict),
        text,
        _seq(seq),
        unb64(signature, SIGNATURE_BYTES, "A signature"),
    )


def _device(value: object) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 16:
        raise MalformedInput("its signatures name a device that is not one.")
    return value


def _proof(item: object) -> MoveProof:
    if not isinstance(item, list) or len(item) != 4:
        raise MalformedInput("a move's signature is not a device, a number, a step and bytes.")
    device, seq, after, signature = item
    if type(seq) is not int or not 0 < seq < 2**31 or type(after) is not int or after < 0:
        raise MalformedInput("a move's signature has no sequence number.")
    return MoveProof(_device(device), seq, after, unb64(signature, SIGNATURE_BYTES, "A signature"))


def _link_seats(record: Signed) -> tuple[int, ...]:
    """The seats a device's first record by link says it holds (as by_link/state.py's
    `seats_in`): the invite's `h`, a join's `s`; none if it names none clearly."""
    held = record.body.get("h") if record.kind == "open" else [record.body.get("s")]
    if not isinstance(held, list) or not all(type(s) is int and 0 <= s < 64 for s in held):
        return ()
    return tuple(sorted(set(held)))


def _link_start(value: object, seats: int | None) -> tuple[Signed, ...]:
    """The devices' first records by link, read back: one invite and the players' joins, each
    signed, naming its key, its device named after the lowest seat it holds, and between them
    every seat of the game held once (as by_link/admission.py admits devices)."""
    wrong = "its signatures' first entries are not one invite and a join for each other seat."
    records = tuple(Signed.from_json(item) for item in _list(value))
    held: list[int] = []
    for record in records:
        body, seats_here = record.body, _link_seats(record)
        invite = record.kind == "open"
        if (
            record.seq != 1
            or record.kind not in ("open", "join")
            or record.signature is None
            or not seats_here
            or record.device != f"s{seats_here[0]}"
            or (invite and (type(body.get("l")) is not int or not isinstance(body.get("b"), dict)))
        ):
            raise MalformedInput(wrong)
        DeviceKey.from_json(body.get("k"))
        held += seats_here
    count = len(held) if seats is None else seats
    if sum(r.kind == "open" for r in records) != 1 or sorted(held) != list(range(count)):
        raise MalformedInput(wrong)
    return records


def of_proofs(
    keys: Mapping[str, DeviceKey],
    proofs: Sequence[Signed],
    openings: Sequence[Signed] = (),
    verdicts: Sequence[Signed] = (),
) -> Signatures | None:
    """A signed session's proofs (one per log entry), and the signed openings and verdicts it
    has, as a replay keeps them; None if any proof is missing its signature (nothing
    half-signed is shared)."""
    kept = []
    for proof in proofs:
        after = proof.body.get("after")
        if proof.signature is None or type(after) is not int:
            return None
        kept.append(MoveProof(proof.device, proof.seq, after, proof.signature))
    return Signatures(
        dict(keys),
        tuple(kept),
        tuple(
            OpeningsProof(int(str(r.body["seat"])), r.seq, r.signature)
            for r in openings
            if r.signature is not None
        ),
        tuple(
            VerdictProof(
                int(str(r.body["seat"])),
                str(r.body["verdict"]),
                str(r.body["text"]),
                r.seq,
                r.signature,
            )
            for r in verdicts
            if r.signature is not None
        ),
    )


def of_link(
    start: Sequence[Signed], moves: Sequence[Signed], openings: Sequence[Signed] = ()
) -> Signatures | None:
    """A game by link's records as its replay keeps them: every device's first record (its key
    and seats), the record each log entry came from (an `act`, or the `claim` of time that ended
    the game) and the devices' openings at the end (those over every seat of their device: the
    viewer rebuilds them so); None if any of them still waits for its signature."""
    if any(r.signature is None for r in start):
        return None
    keys = {r.device: DeviceKey.from_json(r.body["k"]) for r in start}
    proofs = []
    for record in moves:
        at, time = record.body.get("at"), record.body.get("t")
        if record.signature is None or type(at) is not int or type(time) is not int:
            return None
        proofs.append(MoveProof(record.device, record.seq, at, record.signature, time))
    holders = Signatures(keys, (), start=tuple(start)).holders()
    kept = []
    for record in openings:
        seats = sorted(s for s, d in holders.items() if d == record.device)
        opened = record.body.get("o")
        if record.signature is None or not isinstance(opened, dict):
            continue
        if seats and set(opened) == {str(s) for s in seats}:
            kept.append(OpeningsProof(seats[0], record.seq, record.signature))
    return Signatures(keys, tuple(proofs), tuple(kept), (), tuple(start))


def device_words(device: str, names: Sequence[str]) -> str:
    """A device in words: "the host's device", "Bo's device"."""
    if device == HOST:
        return "the host's device"
    seat = device.removeprefix("seat-")
    if seat.isdigit() and str(int(seat)) == seat and int(seat) < len(names):
        return f"{names[int(seat)]}'s device"
    return "a device not in this game"
