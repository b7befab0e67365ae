"""A live game carried on by link (issue 38): when a live game's connection is lost for good, its
devices go on from the same position by links, with the same seats, secrets and keys.

In live play the host holds the log (online.md, "Shape: a star"), so the host's device makes
the carry. Its record 1, `carry`, names the step and head the game goes on from, with the log
entries another device may not have had yet (those after the lowest position any other device
signed an ack for), each with the signed proposal live play appended it from. Every other
device opens that link with its own live save: it has the match, its seats' secrets and every
device's key from there; it takes the entries it lacked, each checked as live play checks one
(signed by the seat's device with its live key, exactly that move, sealed before it), and its
record 1, `carried`, names the same step and head. From there on it is a game by link like any
other: moves, openings and the audit, signed by the same keys.

Nobody but the live game's devices can carry it on: each device's key and seats come from its
own live save, never from a link, so a stranger's `carry` or `carried` is a stranger's record
(admission.py). Carried games have no time per move (live play's time allowed does not carry
over to days): a player who stops answering is named, and no claim ends the game.
"""

from __future__ import annotations

from typing import Any

from parlour.errors import MalformedInput, ProtocolError
from parlour.fair.encoding import Json
from parlour.fair.signing import DeviceKey, Signed
from parlour.match.by_link.live import CATCH_UP_MOST, HOST, Live, carry_proof_checks
from parlour.match.by_link.packing import Check
from parlour.match.by_link.records import number_in
from parlour.match.by_link.state import DONE, WAIT, LinkState
from parlour.match.log import LogEntry
from parlour.match.match import Match, forfeited_seat, timed_out_seat
from parlour.match.table import Table


class Carrying(LinkState):
    """A carried game's first records: the host's `carry`, every other device's `carried`."""

    def _carry_from(self, live: Live) -> None:
        """Every device's key and seats, from the live save (never from a link), and this
        device's secrets."""
        self.live = live
        for device, seats in live.seats.items():
            name = live.link_name(device)
            self.keys[name] = live.keys[device]
            self.held[name] = seats
        self.stores = dict(live.stores)
        self.private = dict(live.private)

    def _on_carry(self, record: Signed) -> str:
        live = self.live
        if live is None:
            raise ProtocolError("This device did not play that live game.")
        match: Any = Match.from_json(live.match)
        self.names = list(match.config.seats)  # the players named in what the catch-up says
        self._catch_up(match, record)
        step, head = number_in(record, "n"), record.body["h"]
        if match.step != step or match.head() != head:
            who = self._device_name(record.device, self.held)
            raise ProtocolError(
                f"{who} carried the live game on from another position than this device had "
                f"(move {step}, this device's {match.step})."
            )
        config = match.config
        self.game, self.variant = match.game, dict(config.variant)
        self.names = list(config.seats)
        self.bots = dict(config.bots)
        self.limit, self.creator = 0, record.device
        self.table = Table(match, self.stores)
        self.sources = [(record.device, record.seq)] * step
        self.times = [number_in(record, "t")] * (step + 1)
        return DONE

    def _on_carried(self, record: Signed) -> str:
        match = self.match
        if match is None:
            return WAIT
        carry = self.records[(self.creator, 1)]
        if (record.body["n"], record.body["h"]) != (carry.body["n"], carry.body["h"]):
            who = self._device_name(record.device, self.held)
            raise ProtocolError(
                f"{who} carried the live game on from another position than "
                f"{self._device_name(self.creator, self.held)}."
            )
        return DONE

    def _catch_up(self, match: Any, record: Signed) -> None:
        """The host's entries this device lacked, each checked against its live proof."""
        items = record.body["e"]
        if not isinstance(items, list) or len(items) > CATCH_UP_MOST:
            raise MalformedInput("A carried game's moves are not a list of moves.")
        assert self.live is not None
        used = set(self.live.used)  # the proposals this device's live log was appended from
        pending = self.live.pending
        on_its_way = dict(pending) if pending is not None else None  # our moves sent, not had
        for item in items:
            if not isinstance(item, list) or len(item) != 2:
                raise MalformedInput("A carried game's move is not a move with its proof.")
            entry = LogEntry.from_json(item[0])
            if entry.seq <= match.step:
                if match.entries[entry.seq - 1].hash != entry.hash:
                    who = self._device_name(record.device, self.held)
                    raise ProtocolError(
                        f"{who} carried the live game on with a move {entry.seq} that differs "
                        "from this device's log."
                    )
                continue
            self._check_live_proof(entry, Signed.from_json(item[1]), used)
            self._check_own(entry, on_its_way)
            match.receive(item[0])

    def _check_own(self, entry: LogEntry, on_its_way: dict[int, Json] | None) -> None:
        """As live play takes an entry of this device's own seat (online/moves.py
        `_on_entries`, `_check_forfeit`): a move of ours only as we sent it (our move on its
        way), and no forfeit of a seat whose step we sent (on its way still: the host had it,
        or will see it again by link). `on_its_way` is None for a save made before it was
        kept: nothing to check it by."""
        live = self.live
        assert live is not None
        victim = forfeited_seat(entry.action)
        seat = victim if victim is not None else entry.seat
        if on_its_way is None or seat not in live.seats[live.me]:
            return
        if victim is not None and seat in on_its_way:
            raise ProtocolError(
                f"The host declared {self.name(entry.seat)} forfeit, but this device sent that "
                "step at once: refused as forged."
            )
        if victim is None and on_its_way.pop(seat, None) != entry.action:
            raise ProtocolError(
                f"The host sent a move for {self.name(entry.seat)} that this device never "
                "made: refused as forged."
            )

    def _check_live_proof(self, entry: LogEntry, proof: Signed, used: set[tuple[str, int]]) -> None:
        """As live play checks an entry (online/moves.py `_check_proof`): the proposal signed
        by the seat's device (the host's for a forfeit it declared), exactly this move, sealed
        before it, and not used for another entry."""
        live = self.live
        assert live is not None
        if timed_out_seat(entry.action) is not None:
            raise ProtocolError(f"Move {entry.seq} is a time-out, which live play never has.")
        forfeit = forfeited_seat(entry.action) is not None
        device = HOST if forfeit else _live_device(live, entry.seat)
        body, after = proof.body, proof.body.get("after")
        move = f"Move {entry.seq} ({self.name(entry.seat)}'s)"
        key = live.keys.get(device)
        if (
            proof.kind != "propose"
            or proof.device != device
            or key is None
            or set(body) != {"seat", "action", "after"}
            or body["seat"] != entry.seat
            or body["action"] != entry.action
            or type(after) is not int
            or not 0 <= after < entry.seq
            or not self._live_signed(proof, key)
        ):
            raise ProtocolError(f"{move} is not the move its device signed: refused as forged.")
        if (proof.device, proof.seq) in used:
            raise ProtocolError(f"{move} reuses a proposal signed for another move: refused.")
        used.add((proof.device, proof.seq))

    def _live_signed(self, proof: Signed, key: DeviceKey) -> bool:
        """A live proof's signature holds under the live key: checked once, when its link or
        save was read (the page answers only the signatures asked for before that call), and
        known from then on when the game is derived again (a move out of turn, say)."""
        found = proof.signed_data(self.match_id)
        if found is None:
            return False
        check = (key.algorithm, key.public, found[0], found[1])
        if check in self.live_held:
            return True
        if not self.verify(*check):
            return False
        self.live_held.add(check)
        return True

    def live_checks(self, records: tuple[Signed, ...]) -> list[Check]:
        """The live proofs a link's `carry` holds, as checks for a page that checks first."""
        if self.live is None:
            return []
        return carry_proof_checks(self.match_id, self.live.keys, records)


def _live_device(live: Live, seat: int) -> str:
    return next((d for d, seats in live.seats.items() if seat in seats), HOST)
