"""Who belongs to a game by link, and which records of a link are this game's at all.

Every link shows its match id, so anyone who sees one can sign records for it with a key of
their own. Only the game's own devices may change or stop a game: the creator (its `open`) and
one device per seat left open by the set-up (its `join`, the first to come for that seat). A
record from any other key is a stranger's: it is dropped before anything reads it (never kept,
never saved, never sent on in a link) and the player is told once that a link from someone not
in the game was ignored. What still stops a game is listed in docs/links.md, "What can stop a
game": each is a record signed by one of the game's own devices.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from parlour.errors import MalformedInput, ProtocolError
from parlour.fair.signing import DeviceKey, Fork, Signed
from parlour.match.by_link.records import check_body, seat_of
from parlour.match.by_link.state import CARRY_KINDS, LinkState, seats_in

IGNORED = "A link from someone not in this game was ignored: nothing changed."
FIRST_KINDS = ("open", "join", *CARRY_KINDS)


@dataclass
class Checked:
    """What a link's records came to: those new here (checked), a fork proven by them, whether
    the sender's head counts, and how many records were a stranger's (dropped)."""

    fresh: list[Signed] = field(default_factory=list)
    fork: Fork | None = None
    head_ok: bool = True
    ignored: int = 0


class Admission(LinkState):
    """Reading a link's records: the game's devices' checked, strangers' dropped."""

    def _check_packet(self, records: list[Signed], head: Signed | None) -> Checked:
        """The records new to this device, each checked; a second, different first record of a
        device signed by its own key is a fork (kept as proof by the caller). Bad input raises
        (`MalformedInput`, `ProtocolError`) and the whole link changes nothing."""
        for record in records:
            check_body(record.kind, record.body)
        keys, held = dict(self.keys), dict(self.held)
        checked = Checked()
        strangers = self._admit(records, head, keys, held, checked)
        if checked.fork is not None:
            return checked
        for record in [*records, *([head] if head is not None else [])]:
            if record.device in strangers and not self._own(record, keys, head):
                checked.ignored += 1
                checked.head_ok = checked.head_ok and record is not head
                continue
            self._check_record(record, keys, held, head)
            if record.kind == "head":
                continue
            known = self.records.get((record.device, record.seq))
            if known is None:
                checked.fresh.append(record)
            elif not known.same_content(record):
                checked.fork = Fork(record.device, known, record)
                return checked
        return checked

    def _admit(
        self,
        records: list[Signed],
        head: Signed | None,
        keys: dict[str, DeviceKey],
        held: dict[str, tuple[int, ...]],
        checked: Checked,
    ) -> set[str]:
        """Take the keys and seats of the new devices a link's first records name (the set-up
        first of all), and return the names of the devices that are strangers: a first record
        no seat of this game is open to, or any record of a device unknown once every seat is
        taken."""
        strangers: set[str] = set()
        for record in sorted(records, key=lambda r: r.kind != "open"):
            if record.seq != 1 or record.kind not in FIRST_KINDS:
                continue
            if record.device in keys:
                earlier = self.records.get((record.device, 1))
                if earlier is None or earlier.same_content(record):
                    continue
                if self._holds(record, keys[record.device], head):
                    checked.fork = Fork(record.device, earlier, record)
                    return strangers
                strangers.add(record.device)  # another key under a device's name
                continue
            if not self._seat_open(record, held, records):
                strangers.add(record.device)
                continue
            key = DeviceKey.from_json(record.body["k"])
            if not self._holds(record, key, head):
                raise ProtocolError(_forged(record.device))
            keys[record.device] = key
            held[record.device] = seats_in(record)
        if self._seats_full(held, records):
            strangers |= {r.device for r in records if r.device not in keys}
            if head is not None and head.device not in keys:
                strangers.add(head.device)
        return strangers

    def _seat_open(
        self, record: Signed, held: Mapping[str, tuple[int, ...]], records: list[Signed]
    ) -> bool:
        """May this first record (of a device not known yet) enter the game? The set-up, when
        there is none yet; a join, for a seat of the set-up that no device holds, under the name
        that seat gives its device."""
        if record.kind == "open":
            return not held
        if record.kind in CARRY_KINDS:
            return False  # a carried game's devices all come from the live save
        if not held:
            return True  # no set-up known yet: the join waits for it (`_on_join`)
        try:
            (seat,) = seats_in(record)
        except MalformedInput:
            return False
        seats = self._seat_count(records)
        taken = any(seat in s for s in held.values())
        in_game = seats is None or seat < seats
        return in_game and not taken and record.device == f"s{seat}"

    def _seat_count(self, records: list[Signed]) -> int | None:
        """The number of seats the set-up names, held here or in the link (None before it is
        known)."""
        if self.names:
            return len(self.names)
        kept = [r for (_, q), r in self.records.items() if q == 1]
        opening = next((r for r in [*kept, *records] if r.kind == "open" and r.seq == 1), None)
        names = opening.body.get("n") if opening is not None else None
        return len(names) if isinstance(names, list) else None

    def _seats_full(self, held: Mapping[str, tuple[int, ...]], records: list[Signed]) -> bool:
        seats = self._seat_count(records)
        return seats is not None and sum(len(s) for s in held.values()) >= seats

    def _own(self, record: Signed, keys: Mapping[str, DeviceKey], head: Signed | None) -> bool:
        """A record under a name a stranger also used, signed by that name's real key."""
        key = keys.get(record.device)
        return key is not None and self._holds(record, key, head)

    def _check_record(
        self,
        record: Signed,
        keys: Mapping[str, DeviceKey],
        held: Mapping[str, tuple[int, ...]],
        head: Signed | None,
    ) -> None:
        """One record of a known device: its signature, its place and the seat it speaks for."""
        found = keys.get(record.device)
        if found is None:
            raise ProtocolError(
                "That link carries entries of a device this game does not know yet: "
                "open the links before it first (the invite, then each player's join)."
            )
        if not self._holds(record, found, head):
            raise ProtocolError(_forged(record.device))
        if record.kind == "head":
            return
        if (record.seq == 1) != (record.kind in FIRST_KINDS):
            raise ProtocolError(
                "That link has a device's join that is not its first entry, or a first "
                "entry that is not a join: refused."
            )
        live = self.live
        if live is not None and record.seq == 1 and record.kind != live.first_kind(record.device):
            raise ProtocolError(
                f"That link carries a first entry of {record.device} that is not its carrying "
                "on of the live game: refused, nothing changed."
            )
        seat = seat_of(record.kind, record.body)
        if seat is not None and seat not in held.get(record.device, ()):
            holder = next((d for d, s in held.items() if seat in s), None)
            where = "another device" if holder else "no device"
            raise ProtocolError(
                f"That link carries an entry of {record.device} for seat {seat + 1}, which "
                f"{where} holds: refused."
            )

    def _holds(self, record: Signed, key: DeviceKey, head: Signed | None) -> bool:
        """A record's signature holds; or, read back from our own save (no head), it is one of
        ours still waiting for the page's signature."""
        if head is None and record.device == self.me and record.signature is None:
            return True
        return record.verified_by(key, self.match_id, self.verify)


def _forged(device: str) -> str:
    return (
        f"That link carries an entry that {device}'s key did not sign (forged or changed on "
        "the way): refused, nothing changed."
    )
