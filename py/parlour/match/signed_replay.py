"""An online game's signatures in its replay (pure): who signed each move, checked by the viewer.

Signed play (issue 26) keeps, with each log entry, the signed proposal it was appended from.
A replay carries what is needed to check those again, compactly: every device's key, and per
move only what cannot be recomputed from the move itself (the signing device, its sequence
number, the step the proposal was made after, and the 64-byte signature); the signed bytes are
rebuilt from the match id and the move (`Signed.payload`). A signature proves that a device
signed a move, never who held the device.

`check` takes a `Check`: like fair/signing.py's `Verify`, but it may answer None, "this browser
cannot check this signature" (no WebCrypto, or not that algorithm), which is never taken for a
forgery.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from parlour.errors import MalformedInput
from parlour.fair.commit import Opening
from parlour.fair.encoding import Json
from parlour.fair.signing import (
    SIGNATURE_BYTES,
    DeviceKey,
    Signed,
    b64,
    short_code,
    table_code,
    unb64,
)
from parlour.match.match import forfeited_seat

HOST = "host"
# (algorithm, public key, signed bytes, signature) -> holds, fails, or None: cannot check here
Check = Callable[[str, bytes, bytes, bytes], bool | None]
CAVEAT = "A signature proves which device made a move, not which person held it."
UNSIGNED = "This replay is not signed: nothing in it shows which device made which move."
UNCHECKED = (
    "This replay is signed, but this browser cannot check its signatures (it lacks WebCrypto "
    "or the key's algorithm): open it in a current browser to check who made which move."
)


@dataclass(frozen=True)
class MoveProof:
    """What a replay keeps of one move's signed proposal."""

    device: str
    seq: int
    after: int
    signature: bytes


@dataclass(frozen=True)
class OpeningsProof:
    """The signature on one seat's openings at the end (signed by the device of that seat, over
    exactly the openings the replay lists for it, in that order)."""

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

    def to_json(self) -> dict[str, Json]:
        """Format 3, compact: what the viewer can recompute is left out (each move's device, from
        its seat and the keys; a proposal's step, as how far before its move it was sealed; the
        openings' and verdicts' bodies), and the moves' signatures are packed as bytes."""
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
        cls, value: object, moves: Sequence[tuple[int, Json]], version: int = 3
    ) -> Signatures:
        """The `signed` part read back: known keys, and exactly one proof per move (format 2:
        each move's proof written out whole; format 3: `to_json`'s)."""
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
            _unpack_moves(value["moves"], moves, read_keys),
            tuple(_openings_proof(item) for item in _list(value["openings"])),
            tuple(_verdict_proof(item) for item in _list(value["verdicts"])),
        )


def device_of_move(keys: Mapping[str, DeviceKey], seat: int, action: Json) -> str:
    """The device that signs a move: its seat's guest device, if the keys name one; else the
    host's (its own seats, its bots', and every forfeit it declares)."""
    device = f"seat-{seat}"
    return device if device in keys and forfeited_seat(action) is None else HOST


def device_of_seat(keys: Mapping[str, DeviceKey], seat: int) -> str:
    device = f"seat-{seat}"
    return device if device in keys else HOST


def _pack_moves(proofs: Sequence[MoveProof]) -> bytes:
    """Per move: its number on its device, how many steps before its move it was sealed (0 for
    the step just before), both as varints, then its 64-byte signature."""
    out = bytearray()
    for number, proof in enumerate(proofs, start=1):
        out += _varint(proof.seq) + _varint(number - 1 - proof.after) + proof.signature
    return bytes(out)


def _unpack_moves(
    value: object, moves: Sequence[tuple[int, Json]], keys: Mapping[str, DeviceKey]
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
        signature, at = data[at : at + SIGNATURE_BYTES], at + SIGNATURE_BYTES
        if not 0 < seq < 2**31 or back > number - 1 or len(signature) != SIGNATURE_BYTES:
            raise MalformedInput("its signatures are not one for each move.")
        device = device_of_move(keys, seat, action)
        proofs.append(MoveProof(device, seq, number - 1 - back, signature))
    if at != len(data):
        raise MalformedInput("its signatures are not one for each move.")
    return tuple(proofs)


MAX_PACKED = 20_000 * 80  # bytes: every move of the longest replay, signed


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    for shift in range(0, 35, 7):
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


def _openings_proof(item: object) -> OpeningsProof:
    if not isinstance(item, list) or len(item) != 3:
        raise MalformedInput(
            "the signature on a seat's openings is not a seat, a number and bytes."
        )
    seat, seq, signature = item
    return OpeningsProof(
        _seat_number(seat), _seq(seq), unb64(signature, SIGNATURE_BYTES, "A signature")
    )


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


@dataclass(frozen=True)
class SignatureReport:
    """What the viewer says about a replay's signatures: one summary, and the details."""

    state: str  # "unsigned", "unchecked", "failed" or "signed"
    sentences: tuple[str, ...]


def check(
    signatures: Signatures | None,
    match_id: str,
    names: Sequence[str],
    moves: Sequence[tuple[int, Json]],
    genesis: str,
    check_one: Check,
    openings: Mapping[int, Sequence[Opening] | None] | None = None,
    final: tuple[int, str] | None = None,
) -> SignatureReport:
    """Check every move's signature, then the openings' and the verdicts' (on the `final`
    step and head of the replayed log); the first that fails is named."""
    if signatures is None:
        return SignatureReport("unsigned", (UNSIGNED,))
    signed_by: dict[str, list[int]] = {}
    unchecked = False
    for number, ((seat, action), proof) in enumerate(
        zip(moves, signatures.proofs, strict=True), start=1
    ):
        held = _holds(signatures, match_id, seat, action, proof, check_one)
        if held is False:
            return SignatureReport("failed", (_failed(number, names[seat], proof, names),))
        unchecked = unchecked or held is None
        signed_by.setdefault(proof.device, []).append(number)
    for what, wanted in _end_checks(signatures, match_id, names, openings or {}, final):
        held = False if wanted is None else check_one(*wanted)
        if held is False:
            return SignatureReport("failed", (_changed(what),))
        unchecked = unchecked or held is None
    if unchecked:
        return SignatureReport("unchecked", (UNCHECKED,))
    code = table_code(match_id, genesis, signatures.keys)
    lines = [
        f"Signed: every move carries the signature of the device that made it. Table code "
        f"{code} (the code the players compared)."
    ]
    for device, numbers in sorted(signed_by.items(), key=lambda item: item[1][0]):
        key = signatures.keys[device]
        lines.append(
            f"{_moves_words(numbers)} signed by {device_words(device, names)} "
            f"({key.algorithm} key {fingerprint(key)})."
        )
    return SignatureReport("signed", (*lines, *_end_lines(signatures, names), CAVEAT))


def _end_checks(
    signatures: Signatures,
    match_id: str,
    names: Sequence[str],
    openings: Mapping[int, Sequence[Opening] | None],
    final: tuple[int, str] | None,
) -> list[tuple[str, tuple[str, bytes, bytes, bytes] | None]]:
    """Each signed openings and verdict, in words, with the check it needs (None: it cannot
    hold: its seat opened nothing here, or its device has no key in the replay)."""
    found: list[tuple[str, tuple[str, bytes, bytes, bytes] | None]] = []
    for opened in signatures.openings:
        what = f"{_seat_name(opened.seat, names)}'s openings"
        held = openings.get(opened.seat)
        body: dict[str, Json] = {
            "seat": opened.seat,
            "openings": [o.to_json() for o in held or ()],
        }
        wanted = _record_check(signatures, match_id, opened.seat, "openings", body, opened)
        found.append((what, wanted if held is not None else None))
    for said in signatures.verdicts:
        what = f"The verdict of {device_words(device_of_seat(signatures.keys, said.seat), names)}"
        if final is None:
            found.append((what, None))
            continue
        body = {"seat": said.seat, "verdict": said.verdict, "text": said.text}
        body |= {"step": final[0], "head": final[1]}
        found.append((what, _record_check(signatures, match_id, said.seat, "verdict", body, said)))
    return found


def _record_check(
    signatures: Signatures,
    match_id: str,
    seat: int,
    kind: str,
    body: dict[str, Json],
    proof: OpeningsProof | VerdictProof,
) -> tuple[str, bytes, bytes, bytes] | None:
    device = device_of_seat(signatures.keys, seat)
    key = signatures.keys.get(device)
    if key is None:
        return None
    try:
        data = Signed(device, proof.seq, kind, body, proof.signature).payload(match_id)
    except MalformedInput:
        return None
    return key.algorithm, key.public, data, proof.signature


def _end_lines(signatures: Signatures, names: Sequence[str]) -> list[str]:
    lines = []
    if signatures.openings:
        seats = ", ".join(_seat_name(p.seat, names) for p in signatures.openings)
        lines.append(
            f"The secrets opened at the end carry the signature of the device that held them "
            f"({seats})."
        )
    if signatures.verdicts:
        words = "; ".join(
            f"{device_words(device_of_seat(signatures.keys, p.seat), names)}: {p.verdict}"
            for p in signatures.verdicts
        )
        lines.append(f"Each device signed its verdict on this whole game: {words}.")
    return lines


def _seat_name(seat: int, names: Sequence[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _changed(what: str) -> str:
    return (
        f"{what} do not carry a valid signature of the device that gave them: this replay was "
        "changed after the game, or made up. The moves are still shown."
    )


def _holds(
    signatures: Signatures,
    match_id: str,
    seat: int,
    action: Json,
    proof: MoveProof,
    check_one: Check,
) -> bool | None:
    """Whether one move's proof holds (None: cannot be checked here)."""
    wanted = _wanted(signatures, match_id, seat, action, proof)
    return False if wanted is None else check_one(*wanted)


def _wanted(
    signatures: Signatures, match_id: str, seat: int, action: Json, proof: MoveProof
) -> tuple[str, bytes, bytes, bytes] | None:
    """The check one move's proof needs, if it can hold at all: from the device that plays its
    seat (the host's, for a forfeit it declared), by a key the replay carries; the signed bytes
    are rebuilt from the move (`Signed.payload`)."""
    device_ok = proof.device == HOST or (
        proof.device == f"seat-{seat}" and forfeited_seat(action) is None
    )
    key = signatures.keys.get(proof.device)
    if not device_ok or key is None:
        return None
    body: dict[str, Json] = {"seat": seat, "action": action, "after": proof.after}
    record = Signed(proof.device, proof.seq, "propose", body, proof.signature)
    try:
        data = record.payload(match_id)
    except MalformedInput:
        return None
    return key.algorithm, key.public, data, proof.signature


def signature_checks(
    signatures: Signatures | None,
    match_id: str,
    moves: Sequence[tuple[int, Json]],
    openings: Mapping[int, Sequence[Opening] | None] | None = None,
    final: tuple[int, str] | None = None,
) -> list[tuple[str, bytes, bytes, bytes]]:
    """Every check a replay's signatures need, for the page to run with WebCrypto (which
    answers later) before the call that opens it."""
    if signatures is None:
        return []
    found = [
        _wanted(signatures, match_id, seat, action, proof)
        for (seat, action), proof in zip(moves, signatures.proofs, strict=True)
    ]
    found += [w for _, w in _end_checks(signatures, match_id, (), openings or {}, final)]
    return [wanted for wanted in found if wanted is not None]


def _failed(number: int, name: str, proof: MoveProof, names: Sequence[str]) -> str:
    return (
        f"Move {number} ({name}'s) does not carry a valid signature of "
        f"{device_words(proof.device, names)}: this replay was changed after the game, or "
        "made up. The moves are still shown, but not who made them."
    )


def device_words(device: str, names: Sequence[str]) -> str:
    """A device in words: "the host's device", "Bo's device"."""
    if device == HOST:
        return "the host's device"
    seat = device.removeprefix("seat-")
    if seat.isdigit() and str(int(seat)) == seat and int(seat) < len(names):
        return f"{names[int(seat)]}'s device"
    return "a device not in this game"


def fingerprint(key: DeviceKey) -> str:
    """A key in eight characters of the table code's alphabet, to tell keys apart by eye."""
    return short_code(hashlib.sha256(key.public).digest())


def _moves_words(numbers: list[int]) -> str:
    """Move numbers as ranges ("Moves 1-3, 5"), at most eight ranges then how many more."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    words = [str(a) if a == b else f"{a}-{b}" for a, b in runs[:8]]
    more = f" and {len(numbers) - sum(b - a + 1 for a, b in runs[:8])} more" if runs[8:] else ""
    label = "Move" if len(numbers) == 1 else "Moves"
    return f"{label} {', '.join(words)}{more}"
