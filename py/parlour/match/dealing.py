"""The progress of a game's shared deals on one device, online (see `fair.sra` for the method).

Each shared deal's recipients lock the deck in turn (the last one publishing only the cards dealt:
`sra.dealt_row`), then unlock each other's cards in turn; the
device takes every step that falls to a seat it holds as soon as it is that seat's turn, and
reads a card once all the other locks are off it. Steps arrive as `deal-lock` and `deal-unlock`
messages (checked here for order and form) and become, once complete, the public records put in
the match's set-up.

A deal whose recipients all sit on one device is sealed instead (`fair.sealed_deal`, by link
only): no steps, its cards drawn from the secrets that device sealed in its invite and the rows
other devices locked in the other deals (`mixed`).

Each kind is a type of its own (`Progress`, `SealedProgress`) that answers the same questions,
so `Dealing` asks a deal rather than its kind; only a step's arrival tells them apart (a sealed
deal takes none).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from parlour.errors import MalformedInput, ProtocolError
from parlour.fair import sealed_deal, sra
from parlour.fair.commit import commitment_of
from parlour.fair.encoding import Json
from parlour.fair.store import PrivateStore
from parlour.games.base import SharedDeal
from parlour.match.wire_bodies import DealLock, DealStep, DealUnlock


def lock_label(deal: str) -> str:
    return f"sra:{deal}"


def _key(stores: dict[int, PrivateStore], seat: int, label: str) -> int:
    return int(stores[seat].value(lock_label(label)), 16)


@dataclass
class Progress:
    """A deal across devices (`fair.sra`): the locks and unlocks taken so far."""

    deal: SharedDeal
    locks: dict[int, tuple[int, ...]] = field(default_factory=dict)  # recipient index -> deck
    unlocks: dict[int, list[int]] = field(default_factory=dict)  # card index -> chain so far

    def others(self, card: int) -> list[int]:
        return [s for i, s in enumerate(self.deal.seats) if i != card]

    def locked(self) -> bool:
        return len(self.locks) == len(self.deal.seats)

    def complete(self) -> bool:
        return self.locked() and all(
            len(self.unlocks.get(j, [])) == len(self.deal.seats) - 1
            for j in range(len(self.deal.seats))
        )

    def record(self) -> sra.DealRecord:
        n = len(self.deal.seats)
        return sra.DealRecord(
            self.deal.cards,
            self.deal.seats,
            tuple(self.locks[r] for r in range(n)),
            tuple(tuple(self.unlocks[j]) for j in range(n)),
        )

    def my_steps(self, stores: dict[int, PrivateStore], dealing: Dealing) -> list[DealStep]:
        """The steps now due from seats held here, each taken by `dealing` (checked as another
        device's would be) before the next is looked for: a seat's turn may follow one just
        taken."""
        steps: list[DealStep] = []
        label, n = self.deal.label, len(self.deal.seats)
        for r, seat in enumerate(self.deal.seats):
            if seat in stores and r not in self.locks and all(q in self.locks for q in range(r)):
                before = (
                    self.locks[r - 1]
                    if r
                    else sra.encodings(len(self.deal.cards), dealing.match_id, label)
                )
                values = sra.dealt_row(before, _key(stores, seat, label), n, r == n - 1)
                lock: DealLock = {
                    "label": label,
                    "seat": seat,
                    "values": [format(v, "x") for v in values],
                }
                dealing.take_lock(lock)
                steps.append(("deal-lock", lock))
        if not self.locked():
            return steps
        for j in range(n):
            chain = self.unlocks.setdefault(j, [])
            others = self.others(j)
            if len(chain) < len(others) and others[len(chain)] in stores:
                seat = others[len(chain)]
                value = chain[-1] if chain else self.locks[n - 1][j]
                opened = sra.unlock(value, _key(stores, seat, label))
                unlock: DealUnlock = {
                    "label": label,
                    "seat": seat,
                    "card": j,
                    "value": format(opened, "x"),
                }
                dealing.take_unlock(unlock)
                steps.append(("deal-unlock", unlock))
        return steps

    def read_cards(
        self, stores: dict[int, PrivateStore], match_id: str, cards: dict[int, dict[str, str]]
    ) -> bool:
        """Read the cards of the seats held here into `cards`; False while one is still locked
        for us."""
        label, n = self.deal.label, len(self.deal.seats)
        for j, seat in enumerate(self.deal.seats):
            if seat not in stores:
                continue
            if not self._open(j):
                return False
            chain = self.unlocks.get(j, [])
            value = chain[-1] if chain else self.locks[n - 1][j]
            index = sra.read(
                sra.unlock(value, _key(stores, seat, label)), len(self.deal.cards), match_id, label
            )
            if index is None:
                raise ProtocolError(
                    f"The deal of the {label} deck came out as no card: a lock was false."
                )
            cards[seat][label] = self.deal.cards[index]
        return True

    def readable(self, seat: int) -> bool:
        """Is every lock in, and every other recipient's unlock of `seat`'s card (if it draws)?"""
        return seat not in self.deal.seats or self._open(self.deal.seats.index(seat))

    def _open(self, card: int) -> bool:
        """Is every lock in, and every other recipient's unlock of `card`?"""
        return self.locked() and len(self.unlocks.get(card, [])) >= len(self.deal.seats) - 1

    def waiting_for(self) -> list[int]:
        """The seats whose step this deal waits on: the next locker, or each card's next
        unlocker."""
        if not self.locked():
            return [self.deal.seats[len(self.locks)]]
        seats: list[int] = []
        for j in range(len(self.deal.seats)):
            chain, others = self.unlocks.get(j, []), self.others(j)
            if len(chain) < len(others):
                seats.append(others[len(chain)])
        return seats


@dataclass
class SealedProgress:
    """A deal at one device (`fair.sealed_deal`): its recipients' sealed commitments, and the
    rows of the deals across devices it mixes in (label, row index), read from `across` as they
    are locked. It takes no steps: it is ready once every row it mixes in is."""

    deal: SharedDeal
    sealed: tuple[str, ...]
    mixed: tuple[tuple[str, int], ...]
    across: Mapping[str, Progress] = field(repr=False)

    def mix(self) -> list[tuple[int, ...]] | None:
        """The rows this deal mixes in, once every one is here; else None."""
        rows = []
        for label, r in self.mixed:
            row = self.across[label].locks.get(r)
            if row is None:
                return None
            rows.append(row)
        return rows

    def complete(self) -> bool:
        return self.mix() is not None

    def record(self) -> sealed_deal.SealedRecord:
        return sealed_deal.SealedRecord(self.deal.cards, self.deal.seats, self.sealed, self.mixed)

    def my_steps(self, stores: dict[int, PrivateStore], dealing: Dealing) -> list[DealStep]:
        return []  # nothing to send: `read_cards` deals it here

    def read_cards(
        self, stores: dict[int, PrivateStore], match_id: str, cards: dict[int, dict[str, str]]
    ) -> bool:
        """Deal the deck into `cards` (if its seats are held here); False while the rows it
        mixes in are not all here."""
        rows = self.mix()
        if not all(seat in stores for seat in self.deal.seats):
            return True
        if rows is None:
            return False
        deal = self.deal
        keys = [str(stores[seat].value(lock_label(deal.label))) for seat in deal.seats]
        dealt = sealed_deal.cards(deal.cards, len(deal.seats), match_id, deal.label, keys, rows)
        for seat, card in zip(deal.seats, dealt, strict=True):
            cards[seat][deal.label] = card
        return True

    def readable(self, seat: int) -> bool:
        return seat not in self.deal.seats or self.mix() is not None

    def waiting_for(self) -> list[int]:
        return []  # it waits on the other deals' locks, named there


DealProgress = Progress | SealedProgress  # a shared deal of either kind, asked alike


class Dealing:
    """Every shared deal of a game, as one device sees and takes part in it."""

    def __init__(
        self,
        deals: list[SharedDeal],
        names: tuple[str, ...],
        match_id: str,
        sealed: Mapping[str, Sequence[str]] | None = None,
        held: Sequence[int] = (),
    ) -> None:
        """`sealed`: the deals at one device, the commitments its invite sealed for each;
        `held`: that device's seats (whose rows of the other deals are no mix: it could choose
        them)."""
        sealed = sealed or {}
        across = {d.label: Progress(d) for d in deals if not sealed.get(d.label)}
        mixed = tuple(
            (d.label, r)
            for d in deals
            if d.label not in sealed
            for r, seat in enumerate(d.seats)
            if seat not in held
        )
        self.progress: dict[str, DealProgress] = {
            d.label: (
                across[d.label]
                if d.label in across
                else SealedProgress(d, tuple(sealed[d.label]), mixed, across)
            )
            for d in deals
        }
        self.names = names
        self.match_id = match_id  # a deal's cards are numbered for this match and its label

    # -- taking part ---------------------------------------------------------------------

    def my_steps(self, stores: dict[int, PrivateStore]) -> list[DealStep]:
        """The steps now due from seats held here (message type and body), already taken."""
        return [step for p in self.progress.values() for step in p.my_steps(stores, self)]

    def my_cards(self, stores: dict[int, PrivateStore]) -> dict[int, dict[str, str]] | None:
        """Every card drawn by seats held here, once all are unlocked for us; else None."""
        cards: dict[int, dict[str, str]] = {seat: {} for seat in stores}
        for p in self.progress.values():
            if not p.read_cards(stores, self.match_id, cards):
                return None
        return cards

    def complete(self) -> bool:
        return all(p.complete() for p in self.progress.values())

    def readable(self, seat: int) -> bool:
        """Could `seat`'s device read every card dealt to it from the steps taken here (every
        lock in, and every other recipient's unlock of its card)? Then it owes its commitment."""
        return all(p.readable(seat) for p in self.progress.values())

    def records(self) -> dict[str, Json]:
        return {label: sealed_deal.write(p.record()) for label, p in self.progress.items()}

    def waiting_for(self) -> list[int]:
        """The seats whose step the deals wait on."""
        return sorted({seat for p in self.progress.values() for seat in p.waiting_for()})

    # -- steps from other devices ----------------------------------------------------------

    def _deal(self, body: DealLock | DealUnlock) -> Progress:
        p = self.progress.get(body["label"])
        if p is None or body["seat"] not in p.deal.seats:
            raise ProtocolError("A step of a deal that is not part of this game arrived.")
        if isinstance(p, SealedProgress):
            raise ProtocolError(
                f"{self.names[body['seat']]} sent a step of the {p.deal.label} deck, which is "
                "dealt at one device (sealed at the start): refused."
            )
        return p

    def take_lock(self, body: DealLock) -> bool:
        """Record a recipient's lock; False if we had it. Refuses one out of turn or changed."""
        p = self._deal(body)
        r = p.deal.seats.index(body["seat"])
        values = body["values"]
        n = len(p.deal.seats)
        sizes = sra.row_sizes(len(p.deal.cards), n, r == n - 1)
        if not isinstance(values, list) or len(values) not in sizes:
            raise ProtocolError("A locked deck came with the wrong number of cards.")
        deck = tuple(self._element(body["seat"], v) for v in values)
        self._check_distinct(body["seat"], deck)
        if r in p.locks:
            if p.locks[r] != deck:
                raise ProtocolError(
                    f"{self.names[body['seat']]} locked the deck twice, differently."
                )
            return False
        if any(q not in p.locks for q in range(r)):
            raise ProtocolError(f"{self.names[body['seat']]} locked the deck before their turn.")
        p.locks[r] = deck
        return True

    def _element(self, seat: int, text: object) -> int:
        """A value `seat` sent: a number in the group and a square, as every honest lock and
        unlock of a card is. A non-square would tag a card its sender could follow through the
        public transcript (and strip again when unlocking)."""
        try:
            return sra.element(text)
        except MalformedInput as problem:
            raise ProtocolError(
                f"{self.names[seat]} sent a deal value that is not a card's: "
                f"{problem.sentence} Refused.",
                seat,
            ) from None

    def _check_distinct(self, seat: int, deck: tuple[int, ...]) -> None:
        """An honest lock maps distinct cards to distinct values (a power map is one to one):
        a repeat would put another recipient's card in a place the last locker reads."""
        if len(set(deck)) != len(deck):
            raise ProtocolError(
                f"{self.names[seat]} locked the deck with a card repeated: refused (it would "
                "let them read another player's card)."
            )

    def take_unlock(self, body: DealUnlock) -> bool:
        p = self._deal(body)
        j, seat = body["card"], body["seat"]
        if not p.locked() or not 0 <= j < len(p.deal.seats):
            raise ProtocolError(f"{self.names[seat]} unlocked a card before the deck was locked.")
        chain, others = p.unlocks.setdefault(j, []), p.others(j)
        value = self._element(seat, body["value"])
        if seat in others and others.index(seat) < len(chain):
            if chain[others.index(seat)] != value:
                raise ProtocolError(f"{self.names[seat]} unlocked a card twice, differently.")
            return False
        if len(chain) >= len(others) or others[len(chain)] != seat:
            raise ProtocolError(f"{self.names[seat]} unlocked a card out of turn.")
        chain.append(value)
        return True


def sealed_commitments(deals: list[SharedDeal], stores: dict[int, PrivateStore]) -> dict[str, Json]:
    """The commitments to the locks of every deal whose recipients are all held here (a deal at
    one device: `fair.sealed_deal`), by label, in recipient order: the invite publishes them
    before any other device sends anything. Call after `new_locks`."""
    return {
        d.label: [
            commitment_of(stores[s].context, stores[s].opening(lock_label(d.label)))
            for s in d.seats
        ]
        for d in deals
        if all(s in stores for s in d.seats)
    }


def new_locks(deals: list[SharedDeal], stores: dict[int, PrivateStore], seal: bool = False) -> None:
    """Every seat held here that draws in a shared deal commits to a fresh secret lock first.
    With `seal` (a creator by link), a deal whose recipients are all held here is sealed
    (`fair.sealed_deal`): its locks are 32 random bytes, not exponents, since nothing is locked
    with them and each is opened at the end (a 1536-bit one split the last link in two)."""
    for deal in deals:
        at_one_device = seal and all(seat in stores for seat in deal.seats)
        for seat in deal.seats:
            if seat in stores and lock_label(deal.label) not in stores[seat]:
                value = secrets.token_hex(32) if at_one_device else format(sra.new_exponent(), "x")
                stores[seat].commit(lock_label(deal.label), value)
