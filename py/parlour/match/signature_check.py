"""The viewer's check of a signed replay's signatures (pure), and what it says of them.

Every device's first record (by link), each move's signature, then the openings' and the
verdicts' are checked against the keys the replay carries (match/signed_replay.py: what a replay
keeps of its signatures); the first that fails is named, and a replay whose signatures all hold
is told move by move: which device signed which moves, under the table code the players compared.

`check` takes a `Check`: like fair/signing.py's `Verify`, but it may answer None, "this browser
cannot check this signature" (no WebCrypto, or not that algorithm), which is never taken for a
forgery.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from parlour.fair.commit import Opening
from parlour.fair.encoding import Json
from parlour.fair.signing import DeviceKey, Signed, short_code, table_code
from parlour.match.log import entry_hash
from parlour.match.match import forfeited_seat, timed_out_seat
from parlour.match.signed_replay import HOST, MoveProof, OpeningsProof, Signatures, VerdictProof
from parlour.words import and_list

# (algorithm, public key, signed bytes, signature) -> holds, fails, or None: cannot check here
Check = Callable[[str, bytes, bytes, bytes], bool | None]
CAVEAT = "A signature proves which device made a move, not which person held it."
UNSIGNED = "This replay is not signed: nothing in it shows which device made which move."
UNCHECKED = (
    "This replay is signed, but this browser cannot check its signatures (it lacks WebCrypto "
    "or the key's algorithm): open it in a current browser to check who made which move."
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
    found = record.signed_data(match_id) if key is not None else None
    if key is None or found is None:
        return None
    return key.algorithm, key.public, found[0], found[1]


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
