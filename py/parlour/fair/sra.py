"""Dealing from one deck to players on different devices, so that nobody learns another's card.

When two seats on two devices must each draw a different card from the same small deck (two
Telepathic colour cards, say), neither device may deal both: it would see the other's card. This
is the commutative-encryption deal of Shamir, Rivest and Adleman ("mental poker"):

1. The deck's cards are encoded as squares modulo a safe prime p: card i of the deal labelled L
   in match M is H(M, L, i)^2, where H is SHA-256 stretched to the size of p. Nobody knows a
   multiplicative relation between two such numbers (as they would for (i + 2)^2, where card 2
   is card 0 squared): a relation survives every lock, and would let anyone holding the public
   transcript pick cards out of a locked row.
2. Each recipient in turn raises every number to its own secret exponent k (odd, below p - 1)
   and shuffles them with a private permutation: after everyone, the deck is locked by all the
   exponents and in an order nobody knows.
   The last recipient publishes only the first n cards of its locked and shuffled row, n the
   number of recipients (`dealt_row`): the others are never dealt, and leaving them out
   shortens the deal by a quarter to a half of its numbers (a link holds about seven). This is
   the full deal with the unused places of its last row unpublished, so every player sees less
   than before and nothing more; the last recipient chose the order of its row before as well,
   blind to the cards under the earlier locks. The audit checks that the published cards are
   the locked images of distinct cards of the row before (`check_deal`).
3. Recipient j takes locked card j. Every other recipient in turn removes its lock from that card
   (raises it to its inverse exponent) and publishes the result; the recipient removes its own
   lock last, in private, and reads its card.
Exponentiation commutes, so the locks come off in any order. Everything sent is public. Each
exponent is committed in its owner's store before its first lock, and that commitment is
published with the seat's seed commitment, before the seed is drawn (only one odd exponent
below p - 1 maps a locked row onto the next, so the transcript binds it as well); at
the end every recipient opens its exponent and anyone can replay the deal and check every step
and every card claimed (`check_deal`).

Working with squares keeps the one thing a power map would leak, whether a number is a square,
the same for every card. So every value a seat sends is checked to be a square on arrival
(`is_square`): a non-square would be a tag (a card multiplied by -1) that its sender could
follow through the public transcript to its recipient.

The group is the 1536-bit MODP group of RFC 3526 (a safe prime).
"""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.errors import CommitmentMismatch, MalformedInput
from parlour.fair.encoding import Json

P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879"
    "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B"
    "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA4836"
    "1C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804"
    "F1746C08CA237327FFFFFFFFFFFFFFFF",
    16,
)
ORDER = P - 1
Q = ORDER // 2  # prime: the squares modulo P are the subgroup of order Q
ENCODING_TAG = b"psi-parlour/sra-card/2"
# SHA-256 blocks for 64 bits more than P, so that H mod P is as good as uniform
_BLOCKS = (P.bit_length() + 64) // 256 + 1


def encode(index: int, match_id: str, label: str) -> int:
    """Card number `index` of the deal `label` in match `match_id`, as a square modulo P.

    The square of a hash of the three, stretched to the size of P: no product, power or ratio
    of two cards' numbers is known to be another's, in this deal or across deals."""
    stem = b"".join(
        len(part).to_bytes(4, "big") + part
        for part in (ENCODING_TAG, match_id.encode(), label.encode(), str(index).encode())
    )
    stretched = b"".join(
        hashlib.sha256(stem + block.to_bytes(4, "big")).digest() for block in range(_BLOCKS)
    )
    value = pow(int.from_bytes(stretched, "big") % P, 2, P)
    if value in (0, 1):  # a chance of about 2^-1535; a card's number must still be usable
        raise ValueError("that card's number is degenerate")
    return value


def encodings(size: int, match_id: str, label: str) -> list[int]:
    """The numbers of a whole deck, in card order."""
    return [encode(i, match_id, label) for i in range(size)]


def is_square(value: int) -> bool:
    """Is `value` (0 < value < P) in the subgroup of squares modulo P? P is prime, so this is
    its Legendre symbol, computed as a Jacobi symbol by quadratic reciprocity: a hundred times
    quicker than Euler's criterion, value^Q mod P, a full-size power (tests check they agree)."""
    return 0 < value < P and _jacobi(value, P) == 1


def _jacobi(a: int, n: int) -> int:
    result = 1
    a %= n
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def new_exponent() -> int:
    """A secret lock: odd, so it is invertible modulo P - 1 = 2q (q prime)."""
    while True:
        k = secrets.randbelow(ORDER - 3) + 3
        if k % 2 == 1 and k % ((P - 1) // 2) != 0:
            return k


def is_exponent(k: object) -> bool:
    """A lock as `new_exponent` makes them: odd, 1 < k < P - 1, invertible modulo P - 1. (An
    even one locks the squares as well, but has no inverse modulo P - 1: refused, not a crash.)"""
    return type(k) is int and 1 < k < ORDER and k % 2 == 1 and k % Q != 0


def unlock_exponent(k: int) -> int:
    return pow(k, -1, ORDER)


def lock(values: Sequence[int], k: int) -> list[int]:
    """Lock every value with `k` and shuffle them (a private permutation from `secrets`)."""
    locked = [pow(v, k, P) for v in values]
    for i in range(len(locked) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        locked[i], locked[j] = locked[j], locked[i]
    return locked


def dealt_row(values: Sequence[int], k: int, recipients: int, last: bool) -> list[int]:
    """A recipient's step: the row locked with `k` and shuffled (`lock`); the last recipient's
    cut to the `recipients` cards dealt, the first place of the shuffled row to recipient 0 and
    so on (the undealt places are never published)."""
    locked = lock(values, k)
    return locked[:recipients] if last else locked


def row_sizes(deck_size: int, recipients: int, last: bool) -> tuple[int, ...]:
    """The sizes a recipient's published row may have: the whole deck, or for the last
    recipient the cards dealt (a deal recorded before rows were cut has the whole deck)."""
    return (deck_size, recipients) if last else (deck_size,)


def unlock(value: int, k: int) -> int:
    return pow(value, unlock_exponent(k), P)


def read(value: int, deck_size: int, match_id: str, label: str) -> int | None:
    """The card index a fully unlocked value stands for, or None."""
    for index, number in enumerate(encodings(deck_size, match_id, label)):
        if number == value:
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
    record: DealRecord,
    exponents: dict[int, int],
    claimed: dict[int, str],
    names: Sequence[str],
    match_id: str,
    label: str,
) -> None:
    """Replay the deal `label` of match `match_id` with the opened exponents; name the first
    seat whose step or card is false.

    `exponents` and `claimed` may lack a seat that did not open (its steps are then unchecked)."""
    n = len(record.seats)
    for seat, exponent in exponents.items():
        if not is_exponent(exponent):
            raise CommitmentMismatch(
                f"{names[seat]}'s lock on the shared deck is not a lock this deal allows "
                "(an exponent must be odd and below the group's order).",
                seat,
            )
    previous = encodings(len(record.deck), match_id, label)
    for r, seat in enumerate(record.seats):
        k = exponents.get(seat)
        locked = record.locks[r]
        if k is not None and Counter(locked) - Counter(pow(v, k, P) for v in previous):
            # every published card the image of a distinct card of the row before (the last
            # row may hold only the cards dealt: `dealt_row`)
            raise CommitmentMismatch(f"{names[seat]} locked the shared deck falsely.", seat)
        if len(locked) != len(previous) and r != n - 1:
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
        index = read(unlock(value, k), len(record.deck), match_id, label)
        if index is None or record.deck[index] != claimed[seat]:
            raise CommitmentMismatch(f"{names[seat]} holds a card they were not dealt.", seat)


def record_to_json(record: DealRecord) -> dict[str, Json]:
    return {
        "deck": list(record.deck),
        "seats": list(record.seats),
        "locks": [[format(v, "x") for v in row] for row in record.locks],
        "unlocks": [[format(v, "x") for v in row] for row in record.unlocks],
    }


def record_from_json(data: object) -> DealRecord:
    """A transcript from a set-up: every number a square below P, every row the right size."""
    if not isinstance(data, dict) or set(data) != {"deck", "seats", "locks", "unlocks"}:
        raise MalformedInput("A shared deal's record is not in its form.")
    deck, seats = deck_and_seats(data)
    locks = _rows(data["locks"], len(seats), len(deck), last=(len(deck), len(seats)))
    unlocks = _rows(data["unlocks"], len(seats), len(seats) - 1)
    return DealRecord(deck, seats, locks, unlocks)


def deck_and_seats(data: dict[str, object]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """A shared deal's deck (2 to 16 cards) and its recipients (distinct seats, at most one
    for each card), from a record of either kind."""
    deck, seats = data["deck"], data["seats"]
    if not (
        isinstance(deck, list) and 1 < len(deck) <= 16 and all(isinstance(c, str) for c in deck)
    ):
        raise MalformedInput("A shared deal's deck is not a list of cards.")
    if not (isinstance(seats, list) and 1 < len(seats) <= len(deck)):
        raise MalformedInput("A shared deal's seats are not a list of seats.")
    if not all(type(s) is int and 0 <= s < 8 for s in seats) or len(set(seats)) != len(seats):
        raise MalformedInput("A shared deal's seats are not a list of seats.")
    return tuple(deck), tuple(seats)


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


def element(text: object) -> int:
    """A deal value as sent: a number (`number`) that is also a square modulo P."""
    value = number(text)
    if not is_square(value):
        raise MalformedInput("A shared deal's number is not a square, as every card's must be.")
    return value


def _rows(
    raw: object, count: int, size: int, last: tuple[int, ...] = ()
) -> tuple[tuple[int, ...], ...]:
    """`count` rows of `size` numbers each (the last row: of a size in `last`, if given)."""
    if not isinstance(raw, list) or len(raw) != count:
        raise MalformedInput("A shared deal's record has the wrong number of steps.")
    rows = []
    for i, row in enumerate(raw):
        sizes = last if last and i == count - 1 else (size,)
        if not isinstance(row, list) or len(row) not in sizes:
            raise MalformedInput("A shared deal's step has the wrong number of cards.")
        rows.append(tuple(element(v) for v in row))
    return tuple(rows)
