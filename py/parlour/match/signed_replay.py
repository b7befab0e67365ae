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

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from parlour.errors import MalformedInput
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
class Signatures:
    """Every device's key and one proof per move, as the replay document's `signed` part."""

    keys: Mapping[str, DeviceKey]
    proofs: tuple[MoveProof, ...]

    def to_json(self) -> dict[str, Json]:
        return {
            "keys": {name: key.to_json() for name, key in sorted(self.keys.items())},
            "proofs": [[p.device, p.seq, p.after, b64(p.signature)] for p in self.proofs],
        }

    @classmethod
    def from_json(cls, value: object, moves: int) -> Signatures:
        """The `signed` part read back: known keys, and exactly one proof per move."""
        if not isinstance(value, dict) or set(value) != {"keys", "proofs"}:
            raise MalformedInput("its signatures are not keys and proofs.")
        keys, proofs = value["keys"], value["proofs"]
        if not isinstance(keys, dict) or not 0 < len(keys) <= 64:
            raise MalformedInput("its signatures name no device's key.")
        if not isinstance(proofs, list) or len(proofs) != moves:
            raise MalformedInput("its signatures are not one for each move.")
        read_keys = {_device(name): DeviceKey.from_json(key) for name, key in keys.items()}
        return cls(read_keys, tuple(_proof(item) for item in proofs))


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


def of_proofs(keys: Mapping[str, DeviceKey], proofs: Sequence[Signed]) -> Signatures | None:
    """A signed session's proofs (one per log entry) as a replay keeps them; None if any is
    missing its signature (nothing half-signed is shared)."""
    kept = []
    for proof in proofs:
        after = proof.body.get("after")
        if proof.signature is None or type(after) is not int:
            return None
        kept.append(MoveProof(proof.device, proof.seq, after, proof.signature))
    return Signatures(dict(keys), tuple(kept))


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
) -> SignatureReport:
    """Check every move's signature; the first that fails is named (by move and seat)."""
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
    return SignatureReport("signed", (*lines, CAVEAT))


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
    signatures: Signatures | None, match_id: str, moves: Sequence[tuple[int, Json]]
) -> list[tuple[str, bytes, bytes, bytes]]:
    """Every check a replay's signatures need, for the page to run with WebCrypto (which
    answers later) before the call that opens it."""
    if signatures is None:
        return []
    found = (
        _wanted(signatures, match_id, seat, action, proof)
        for (seat, action), proof in zip(moves, signatures.proofs, strict=True)
    )
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
