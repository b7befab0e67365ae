"""A shared deck whose recipients all sit on one device: dealt from a secret sealed in advance
and mixed with other devices' locks, so that device reads its seats' cards but cannot choose them.

A deck dealt by commutative encryption (`fair.sra`) to seats on different devices is fair
because its last shuffler is blind: it orders a row locked by another device's exponent. When
every recipient sits on one device (Telepathic's shape deck with two bots on the creator's
device), that device holds every exponent and could order the deck as it liked; and its whole
deal (issue 38: eight 1536-bit numbers) made its invite two link parts. Here instead:

1. Each recipient's secret is its lock (`sra:<label>` in its private store, as for a deal
   across devices). The device publishes the commitments to those secrets in its first record
   (by link: the invite's `open`), before any other device has sent anything.
2. The mix is every row of the game's other shared deals locked by a seat of another device
   (`SealedProgress.mixed`): numbers that depend on that device's fresh secret exponent, which the
   sealing device cannot foresee when it seals, and which the other device chooses without
   knowing the secrets (so it cannot steer the cards either, nor read them).
3. The deck's order is `Rng(SHA-256(tag, match, label, each secret, the mix))`: recipient j takes
   the j-th card of `sample` (`cards`). The seats' commitments (`commit`, before the seed) must
   bind the secrets sealed in step 1: a device that changed its secret after seeing the mix is
   refused on arrival and named by the audit.
4. At the end the secrets are opened with everything else; the audit checks them against the
   sealed commitments and deals the deck again (`check`).

Nothing of the deal is public but the commitments: other devices learn no card before the end.
The sealing device could still stop the game once it sees its cards (a start abandoned, as a
seat can always refuse to reveal); it cannot pick them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from parlour.errors import CommitmentMismatch, MalformedInput
from parlour.fair.commit import is_commitment
from parlour.fair.encoding import Json, digest
from parlour.fair.rng import Rng
from parlour.fair.sra import DealRecord, deck_and_seats, record_from_json, record_to_json

TAG = "psi-parlour/sealed-deal"
VERSION = "1"


@dataclass(frozen=True)
class SealedRecord:
    """The public record of a deal at one device: the deck, its recipients, the commitments to
    their secrets (in recipient order) and the rows of other deals mixed in, as (label, index
    of the row in that deal's `locks`)."""

    deck: tuple[str, ...]
    seats: tuple[int, ...]
    sealed: tuple[str, ...]
    mixed: tuple[tuple[str, int], ...]


def cards(
    deck: Sequence[str],
    recipients: int,
    match_id: str,
    label: str,
    secrets: Sequence[str],
    rows: Sequence[Sequence[int]],
) -> list[str]:
    """The cards of recipients 0, 1, ... in order: distinct cards of `deck`."""
    fields: list[bytes | str] = [TAG, VERSION, match_id, label, str(len(secrets)), *secrets]
    for row in rows:
        fields += [str(len(row)), *(format(v, "x") for v in row)]
    return Rng(digest(fields)).sample(deck, recipients)


def check(
    record: SealedRecord,
    secrets: Mapping[int, Json],
    committed: Mapping[int, str | None],
    claimed: Mapping[int, str],
    names: Sequence[str],
    context: tuple[str, str, Sequence[Sequence[int]]],
) -> None:
    """Deal the deck again with the opened secrets; name the first seat whose secret is not the
    one it sealed, or whose card is not the one dealt. `committed`: each recipient's commitment
    to its lock before the seed (the match's `dealt`); `context`: match id, label, mixed rows.

    A seat that did not open leaves the cards unchecked (its refusal is the audit's finding)."""
    match_id, label, rows = context
    for seat, sealed in zip(record.seats, record.sealed, strict=True):
        if committed.get(seat) != sealed:
            raise CommitmentMismatch(
                f"{names[seat]}'s lock on the {label} deck is not the one sealed at the start.",
                seat,
            )
    if not all(seat in secrets for seat in record.seats):
        return
    for seat in record.seats:
        if not isinstance(secrets[seat], str):
            raise CommitmentMismatch(f"{names[seat]}'s lock on the {label} deck is damaged.", seat)
    opened = [str(secrets[seat]) for seat in record.seats]
    dealt = cards(record.deck, len(record.seats), match_id, label, opened, rows)
    for seat, card in zip(record.seats, dealt, strict=True):
        if seat in claimed and claimed[seat] != card:
            raise CommitmentMismatch(f"{names[seat]} holds a card they were not dealt.", seat)


def to_json(record: SealedRecord) -> dict[str, Json]:
    return {
        "deck": list(record.deck),
        "seats": list(record.seats),
        "sealed": list(record.sealed),
        "mixed": [[label, index] for label, index in record.mixed],
    }


def from_json(data: object) -> SealedRecord:
    """A deal at one device from a set-up, in its form (its rows are checked by `check_mix`)."""
    if not isinstance(data, dict) or set(data) != {"deck", "seats", "sealed", "mixed"}:
        raise MalformedInput("A shared deal's record is not in its form.")
    deck, seats = deck_and_seats(data)
    sealed, mixed = data["sealed"], data["mixed"]
    if not isinstance(sealed, list) or len(sealed) != len(seats):
        raise MalformedInput("A sealed deal's commitments are not one for each recipient.")
    if not all(is_commitment(c) for c in sealed):
        raise MalformedInput("A sealed deal's commitments are not hashes.")
    if not isinstance(mixed, list) or len(mixed) > 16 or not all(_reference(m) for m in mixed):
        raise MalformedInput("A sealed deal's mixed rows are not rows of other deals.")
    return SealedRecord(deck, seats, tuple(sealed), tuple((str(m[0]), int(m[1])) for m in mixed))


def _reference(item: object) -> bool:
    return (
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], str)
        and 0 < len(item[0]) <= 32
        and type(item[1]) is int
        and 0 <= item[1] < 8
    )


def read(data: object) -> DealRecord | SealedRecord:
    """A shared deal's record of either kind: dealt across devices, or at one device."""
    return (
        from_json(data) if isinstance(data, dict) and "sealed" in data else record_from_json(data)
    )


def write(record: DealRecord | SealedRecord) -> dict[str, Json]:
    return to_json(record) if isinstance(record, SealedRecord) else record_to_json(record)


def mixed_rows(record: SealedRecord, shared: Mapping[str, Json]) -> list[tuple[int, ...]]:
    """The rows a deal at one device mixed in, from the other deals of the same set-up; a
    reference to no such row is a set-up in no form (`MalformedInput`)."""
    rows = []
    for label, index in record.mixed:
        other = read(shared[label]) if label in shared else None
        if not isinstance(other, DealRecord) or not index < len(other.locks):
            raise MalformedInput("A sealed deal mixes in a row no other deal holds.")
        rows.append(other.locks[index])
    return rows


def check_mix(shared: Mapping[str, Json]) -> None:
    """Every deal at one device in a set-up mixes in rows its other deals hold."""
    for raw in shared.values():
        record = read(raw)
        if isinstance(record, SealedRecord):
            mixed_rows(record, shared)
