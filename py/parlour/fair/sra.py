"""Dealing from one deck to players on different devices, so that nobody learns another's card.

When two seats on two devices must each draw a different card from the same small deck (two
Telepathic colour cards, say), neither device may deal both: it would see the other's card. This
is the commutative-encryption deal of Shamir, Rivest and Adleman ("mental poker"):

1. The deck's cards are encoded as numbers that are squares modulo a safe prime p.
2. Each recipient in turn raises every number to its own secret exponent k (odd, below p - 1)
   and shuffles them with a private permutation: after everyone, the deck is locked by all the
   exponents and in an order nobody knows.
3. Recipient j takes locked card j. Every other recipient in turn removes its lock from that card
   (raises it to its inverse exponent) and publishes the result; the recipient removes its own
   lock last, in private, and reads its card.
Exponentiation commutes, so the locks come off in any order. Everything sent is public; at the end
every recipient opens its exponent (committed before the deal began) and anyone can replay the
deal and check every step and every card claimed (`check_deal`). Working with squares avoids the
one thing that would leak (whether a locked number is a square).

The group is the 1536-bit MODP group of RFC 3526 (a safe prime).
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.errors import CommitmentMismatch, MalformedInput

P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879"
    "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B"
    "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA4836"
    "1C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804"
    "F1746C08CA237327FFFFFFFFFFFFFFFF",
    16,
)
ORDER = P - 1


def encode(index: int) -> int:
    """Card number `index` of a deck as a square modulo P (never 0 or 1)."""
    return pow(index + 2, 2, P)


def new_exponent() -> int:
    """A secret lock: odd, so it is invertible modulo P - 1 = 2q (q prime)."""
    while True:
        k = secrets.randbelow(ORDER - 3) + 3
        if k % 2 == 1 and k % ((P - 1) // 2) != 0:
            return k


def unlock_exponent(k: int) -> int:
    return pow(k, -1, ORDER)


def lock(values: Sequence[int], k: int) -> list[int]:
    """Lock every value with `k` and shuffle them (a private permutation from `secrets`)."""
    locked = [pow(v, k, P) for v in values]
    for i in range(len(locked) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        locked[i], locked[j] = locked[j], locked[i]
    return locked


def unlock(value: int, k: int) -> int:
    return pow(value, unlock_exponent(k), P)


def read(value: int, deck_size: int) -> int | None:
    """The card index a fully unlocked value stands for, or None."""
    for index in range(deck_size):
        if encode(index) == value:
            return index
    return None


@dataclass(frozen=True)
class DealRecord:
    """The public transcript of one shared deal.

    locks[r]: the deck as recipient r left it (after its lock and shuffle), in recipient order.
    unlocks[j][i]: card j after recipient i removed its lock, for every i other than j, in
    recipient order skipping j (each applied to the previous, starting from the final deck).
    """

    deck: tuple[str, ...]
    seats: tuple[int, ...]
    locks: tuple[tuple[int, ...], ...]
    unlocks: tuple[tuple[int, ...], ...]


def check_deal(
    record: DealRecord, exponents: dict[int, int], claimed: dict[int, str], names: Sequence[str]
) -> None:
    """Replay a deal with the opened exponents; name the first seat whose step or card is false.

    `exponents` and `claimed` may lack a seat that did not open (its steps are then unchecked)."""
    n = len(record.seats)
    previous = [encode(i) for i in range(len(record.deck))]
    for r, seat in enumerate(record.seats):
        k = exponents.get(seat)
        locked = record.locks[r]
        if k is not None and Counter(pow(v, k, P) for v in previous) != Counter(locked):
            raise CommitmentMismatch(f"{names[seat]} locked the shared deck falsely.", seat)
        previous = list(locked)
    final = previous
    for j, seat in enumerate(record.seats):
        value = final[j]
        others = [record.seats[i] for i in range(n) if i != j]
        for step, other in enumerate(others):
            k = exponents.get(other)
            shown = record.unlocks[j][step]
            if k is not None and unlock(value, k) != shown:
                raise CommitmentMismatch(
                    f"{names[other]} unlocked {names[seat]}'s card falsely.", other
                )
            value = shown
        k = exponents.get(seat)
        if k is None or seat not in claimed:
            continue
        index = read(unlock(value, k), len(record.deck))
        if index is None or record.deck[index] != claimed[seat]:
            raise CommitmentMismatch(f"{names[seat]} holds a card they were not dealt.", seat)


def record_to_json(record: DealRecord) -> dict:
    return {
        "deck": list(record.deck),
        "seats": list(record.seats),
        "locks": [[format(v, "x") for v in row] for row in record.locks],
        "unlocks": [[format(v, "x") for v in row] for row in record.unlocks],
    }


def record_from_json(data: object) -> DealRecord:
    """A transcript from a set-up: every number a hex residue below P, every row the right size."""
    if not isinstance(data, dict) or set(data) != {"deck", "seats", "locks", "unlocks"}:
        raise MalformedInput("A shared deal's record is not in its form.")
    deck, seats = data["deck"], data["seats"]
    if not (
        isinstance(deck, list) and 1 < len(deck) <= 16 and all(isinstance(c, str) for c in deck)
    ):
        raise MalformedInput("A shared deal's deck is not a list of cards.")
    if not (isinstance(seats, list) and 1 < len(seats) <= len(deck)):
        raise MalformedInput("A shared deal's seats are not a list of seats.")
    if not all(type(s) is int and 0 <= s < 8 for s in seats) or len(set(seats)) != len(seats):
        raise MalformedInput("A shared deal's seats are not a list of seats.")
    locks = _rows(data["locks"], len(seats), len(deck))
    unlocks = _rows(data["unlocks"], len(seats), len(seats) - 1)
    return DealRecord(tuple(deck), tuple(seats), locks, unlocks)


def number(text: object) -> int:
    """A group element as sent: hex, strictly between 1 and P."""
    if not isinstance(text, str) or not 0 < len(text) <= 400:
        raise MalformedInput("A shared deal's number is not hex.")
    try:
        value = int(text, 16)
    except ValueError:
        raise MalformedInput("A shared deal's number is not hex.") from None
    if not 1 < value < P:
        raise MalformedInput("A shared deal's number is out of range.")
    return value


def _rows(raw: object, count: int, size: int) -> tuple[tuple[int, ...], ...]:
    if not isinstance(raw, list) or len(raw) != count:
        raise MalformedInput("A shared deal's record has the wrong number of steps.")
    rows = []
    for row in raw:
        if not isinstance(row, list) or len(row) != size:
            raise MalformedInput("A shared deal's step has the wrong number of cards.")
        rows.append(tuple(number(v) for v in row))
    return tuple(rows)
