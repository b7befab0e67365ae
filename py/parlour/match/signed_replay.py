"""A signed game's signatures in its replay (pure): who signed each move, checked by the viewer.

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
from parlour.match.log import entry_hash
from parlour.match.match import forfeited_seat, timed_out_seat
from parlour.words import and_list

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
                "moves": b64(_pack_moves(self.proofs, timed=True)),
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
        if version == 4:
            return cls._from_link_json(value, moves, seats)
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
        cls, value: object, moves: Sequence[tuple[int, Json]], seats: int | None
    ) -> Signatures:
        if not isinstance(value, dict) or set(value) != {"start", "moves", "openings"}:
            raise MalformedInput("its signatures are not the devices' first entries and proofs.")
        start = _link_start(value["start"], seats)
        keys = {r.device: DeviceKey.from_json(r.body["k"]) for r in start}
        bare = cls(keys, (), (), (), start)
        proofs = _unpack_moves(value["moves"], moves, bare.device_of_move, timed=True)
        openings = tuple(_openings_proof(item) for item in _list(value["openings"]))
        return cls(keys, proofs, openings, (), start)


def device_of_move(keys: Mapping[str, DeviceKey], seat: int, action: Json) -> str:
    """The device that signs a move: its seat's guest device, if the keys name one; else the
    host's (its own seats, its bots', and every forfeit it declares)."""
    device = f"seat-{seat}"
    return device if device in keys and forfeited_seat(action) is None else HOST


def device_of_seat(keys: Mapping[str, DeviceKey], seat: int) -> str:
    device = f"seat-{seat}"
    return device if device in keys else HOST


def _pack_moves(proofs: Sequence[MoveProof], timed: bool = False) -> bytes:
    """Per move: its number on its device, how many steps before its move it was sealed (0 for
    the step just before), and (`timed`, by link) its record's time, as varints, then its
    64-byte signature."""
    out = bytearray()
    for number, proof in enumerate(proofs, start=1):
        out += _varint(proof.seq) + _varint(number - 1 - proof.after)
        if timed:
            out += _varint(proof.time or 0)
        out += proof.signature
    return bytes(out)


def _unpack_moves(
    value: object,
    moves: Sequence[tuple[int, Json]],
    signer_of: Callable[[int, Json], str],
    timed: bool = False,
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
        signature, at = data[at : at + SIGNATURE_BYTES], at + SIGNATURE_BYTES
        if not 0 < seq < 2**31 or back > number - 1 or len(signature) != SIGNATURE_BYTES:
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
) -> SignatureReport:
    """Check the devices' first records (by link), every move's signature, then the openings'
    and the verdicts' (on the final step and head of the log the moves make from `genesis`);
    the first that fails is named."""
    if signatures is None:
        return SignatureReport("unsigned", (UNSIGNED,))
    heads = _heads(match_id, genesis, moves)
    unchecked = False
    for what, wanted in _start_checks(signatures, match_id, names):
        held = False if wanted is None else check_one(*wanted)
        if held is False:
            return SignatureReport("failed", (_changed(what),))
        unchecked = unchecked or held is None
    signed_by: dict[str, list[int]] = {}
    for number, ((seat, action), proof) in enumerate(
        zip(moves, signatures.proofs, strict=True), start=1
    ):
        wanted = _wanted(signatures, match_id, seat, action, proof, heads)
        held = False if wanted is None else check_one(*wanted)
        if held is False:
            return SignatureReport("failed", (_failed(number, seat, proof, signatures, names),))
        unchecked = unchecked or held is None
        signed_by.setdefault(proof.device, []).append(number)
    for what, wanted in _end_checks(signatures, match_id, names, openings or {}, heads):
        held = False if wanted is None else check_one(*wanted)
        if held is False:
            return SignatureReport("failed", (_changed(what),))
        unchecked = unchecked or held is None
    if unchecked:
        return SignatureReport("unchecked", (UNCHECKED,))
    code = table_code(match_id, genesis, signatures.keys, signatures.terms())
    lines = [
        f"Signed: every move carries the signature of the device that made it. Table code "
        f"{code} (the code the players compared)."
    ]
    for device, numbers in sorted(signed_by.items(), key=lambda item: item[1][0]):
        key = signatures.keys[device]
        lines.append(
            f"{_moves_words(numbers)} signed by {signatures.device_words(device, names)} "
            f"({key.algorithm} key {fingerprint(key)})."
        )
    return SignatureReport("signed", (*lines, *_end_lines(signatures, names), CAVEAT))


Wanted = tuple[str, bytes, bytes, bytes]  # a check: algorithm, public key, signed bytes, signature


def _heads(match_id: str, genesis: str, moves: Sequence[tuple[int, Json]]) -> list[str]:
    """The log's hash after each number of moves, from the genesis hash (after none) on."""
    heads = [genesis]
    for seq, (seat, action) in enumerate(moves, start=1):
        heads.append(entry_hash(match_id, seq, seat, action, heads[-1]))
    return heads


def _start_checks(
    signatures: Signatures, match_id: str, names: Sequence[str]
) -> list[tuple[str, Wanted | None]]:
    """By link: each device's first record (its key and seats), checked with its own key."""
    found: list[tuple[str, Wanted | None]] = []
    for record in signatures.start:
        what = f"The seats and key of {signatures.device_words(record.device, names)}"
        key = signatures.keys.get(record.device)
        found.append((what, _signed_check(key, record, match_id)))
    return found


def _signed_check(key: DeviceKey | None, record: Signed, match_id: str) -> Wanted | None:
    """The check a record needs under `key` (None: it cannot hold: no key, or no bytes)."""
    if key is None or record.signature is None:
        return None
    try:
        data = record.payload(match_id)
    except MalformedInput:
        return None
    return key.algorithm, key.public, data, record.signature


def _end_checks(
    signatures: Signatures,
    match_id: str,
    names: Sequence[str],
    openings: Mapping[int, Sequence[Opening] | None],
    heads: Sequence[str],
) -> list[tuple[str, Wanted | None]]:
    """Each signed openings and verdict, in words, with the check it needs (None: it cannot
    hold: its seat opened nothing here, or its device has no key in the replay). Verdicts are
    signed on the last step and its hash, the last of `heads`."""
    found: list[tuple[str, Wanted | None]] = []
    for opened in signatures.openings:
        seats = _opened_seats(signatures, opened)
        what = f"{and_list([_seat_name(s, names) for s in seats])}'s openings"
        held = {s: openings.get(s) for s in seats}
        listed = {str(s): [o.to_json() for o in ops or ()] for s, ops in held.items()}
        body: dict[str, Json] = (
            {"o": dict(listed)}
            if signatures.start
            else {"seat": opened.seat, "openings": listed[str(opened.seat)]}
        )
        wanted = _record_check(signatures, match_id, opened.seat, "openings", body, opened)
        found.append((what, wanted if None not in held.values() else None))
    final = {"step": len(heads) - 1, "head": heads[-1]}
    for said in signatures.verdicts:
        device = signatures.device_of_seat(said.seat)
        what = f"The verdict of {signatures.device_words(device, names)}"
        body = {"seat": said.seat, "verdict": said.verdict, "text": said.text, **final}
        found.append((what, _record_check(signatures, match_id, said.seat, "verdict", body, said)))
    return found


def _opened_seats(signatures: Signatures, opened: OpeningsProof) -> list[int]:
    """The seats one signed openings covers: online, its seat's; by link, every seat of the
    device that holds its seat (one record opens them all)."""
    if not signatures.start:
        return [opened.seat]
    device = signatures.device_of_seat(opened.seat)
    return sorted(s for s, d in signatures.holders().items() if d == device) or [opened.seat]


def _record_check(
    signatures: Signatures,
    match_id: str,
    seat: int,
    kind: str,
    body: dict[str, Json],
    proof: OpeningsProof | VerdictProof,
) -> Wanted | None:
    device = signatures.device_of_seat(seat)
    record = Signed(device, proof.seq, kind, body, proof.signature)
    return _signed_check(signatures.keys.get(device), record, match_id)


def _end_lines(signatures: Signatures, names: Sequence[str]) -> list[str]:
    lines = []
    if signatures.openings:
        seats = ", ".join(
            _seat_name(s, names) for p in signatures.openings for s in _opened_seats(signatures, p)
        )
        lines.append(
            f"The secrets opened at the end carry the signature of the device that held them "
            f"({seats})."
        )
    if signatures.verdicts:
        words = "; ".join(
            f"{signatures.device_words(signatures.device_of_seat(p.seat), names)}: {p.verdict}"
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


def _wanted(
    signatures: Signatures,
    match_id: str,
    seat: int,
    action: Json,
    proof: MoveProof,
    heads: Sequence[str],
) -> Wanted | None:
    """The check one move's proof needs, if it can hold at all: from the device that plays its
    seat (online, the host's for a forfeit it declared), by a key the replay carries; the signed
    bytes are rebuilt from the move (`Signed.payload`): online its proposal, by link its
    record."""
    record: Signed | None = None
    if signatures.start:
        record = _link_record(signatures, seat, action, proof, heads)
    elif proof.device == HOST or (
        proof.device == f"seat-{seat}" and forfeited_seat(action) is None
    ):
        body: dict[str, Json] = {"seat": seat, "action": action, "after": proof.after}
        record = Signed(proof.device, proof.seq, "propose", body, proof.signature)
    if record is None:
        return None
    return _signed_check(signatures.keys.get(record.device), record, match_id)


def _link_record(
    signatures: Signatures, seat: int, action: Json, proof: MoveProof, heads: Sequence[str]
) -> Signed | None:
    """The record by link a move came from, rebuilt from the move, the log before it and its
    proof: for a time-out (`{"timeout": seat}`, the claimant's seat's entry) the `claim`, else
    the seat's `act`, which names the head it was sealed on. None if the proof is not from the
    device that holds the seat, or has no time."""
    if (
        proof.device != signatures.device_of_seat(seat)
        or proof.time is None
        or not 0 <= proof.after < len(heads)
    ):
        return None
    timed_out = timed_out_seat(action)
    body: dict[str, Json]
    if timed_out is not None:
        if type(timed_out) is not int:
            return None
        body = {"s": timed_out, "by": seat, "at": proof.after, "t": proof.time}
        return Signed(proof.device, proof.seq, "claim", body, proof.signature)
    head = heads[proof.after][:16]
    body = {"s": seat, "a": action, "at": proof.after, "h": head, "t": proof.time}
    return Signed(proof.device, proof.seq, "act", body, proof.signature)


def signature_checks(
    signatures: Signatures | None,
    match_id: str,
    moves: Sequence[tuple[int, Json]],
    genesis: str,
    openings: Mapping[int, Sequence[Opening] | None] | None = None,
) -> list[Wanted]:
    """Every check a replay's signatures need, for the page to run with WebCrypto (which
    answers later) before the call that opens it."""
    if signatures is None:
        return []
    heads = _heads(match_id, genesis, moves)
    found = [w for _, w in _start_checks(signatures, match_id, ())]
    found += [
        _wanted(signatures, match_id, seat, action, proof, heads)
        for (seat, action), proof in zip(moves, signatures.proofs, strict=True)
    ]
    found += [w for _, w in _end_checks(signatures, match_id, (), openings or {}, heads)]
    return [wanted for wanted in found if wanted is not None]


def _failed(
    number: int, seat: int, proof: MoveProof, signatures: Signatures, names: Sequence[str]
) -> str:
    return (
        f"Move {number} ({_seat_name(seat, names)}'s) does not carry a valid signature of "
        f"{signatures.device_words(proof.device, names)}: this replay was changed after the "
        "game, or made up. The moves are still shown, but not who made them."
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
