"""Play: a move proposed, checked, appended and relayed; a seat that holds the game up forfeits.

A guest seals its move on its own device (secrets never travel) and `propose`s it; the host
checks it with its own engine and appends it, or refuses it with the engine's sentence (`reject`).
Every new entry of the host's log goes to every guest as `entries`, and each guest's engine checks
it again. A move for a guest's own seat that it never proposed is refused as forged, and so is a
forfeit of one of its seats that its own clock says was not due.
"""

from __future__ import annotations

from typing import Any

from parlour.errors import IllegalAction, ParlourError, ProtocolError
from parlour.fair.encoding import Json
from parlour.fair.signing import Signed
from parlour.match.log import LogEntry
from parlour.match.match import Submitted, declared, forfeited_seat, timed_out_seat
from parlour.match.online.device import HOST, SLACK, Device, Link
from parlour.match.wire_bodies import Entries, Propose, Reject


class Moves(Device):
    """Moves made here and sent, moves received and checked, and the steps that take themselves."""

    def _new_moves(self) -> None:
        self.pending: dict[int, Json] = {}  # a guest's moves sent and not yet in the log
        self.pending_after: dict[int, int] = {}  # the log step each was sealed after
        # when a step of each local seat was last sent, kept after a refusal: the host's word
        # "that seat stalled" is checked against it
        self.sent_at: dict[int, float] = {}
        self.due_at: dict[int, float] = {}  # since when each local seat owes a step by itself

    # -- a player on this device acts ----------------------------------------------------

    def act(self, seat: int, choice: Any) -> Submitted:
        """A player on this device acts for `seat` (as `Table.act`; a guest's move is sent)."""
        if self.table is None:
            return Submitted(reason="The game has not started yet.")
        if seat not in self.local:
            return Submitted(reason=f"{self.name(seat)} is not played on this device.")
        if self.is_host:
            result = self.table.act(seat, choice)
            if result.entry is not None:
                self._appended(result.entry)
            return result
        return self._propose(seat, choice)

    def _propose(self, seat: int, choice: Any) -> Submitted:
        if seat in self.pending:
            return Submitted(reason="Your last move is still on its way to the host.")
        if self.links[HOST].state != "connected":
            return Submitted(reason="Not connected to the host: your move cannot be sent.")
        game, match = self._the_game(), self._the_match()
        state, store = match.state, self.stores[seat]
        try:
            action = game.seal(state, seat, choice, store)
            game.apply(state, seat, action)  # refuse here what the host would refuse
        except ParlourError as error:
            return Submitted(reason=error.sentence)
        except (ValueError, KeyError):
            return Submitted(reason="That choice cannot be made now.")
        action_json = game.action_to_json(action)
        self.pending[seat] = action_json
        self.pending_after[seat], self.sent_at[seat] = match.step, self.now
        self._send(self.links[HOST], "propose", seat=seat, action=action_json, after=match.step)
        self.revision += 1
        return Submitted(sent=True)

    def run_automatic(self) -> None:
        """Take every step this device's seats take by themselves (seals, answers, reveals)."""
        for _ in range(64):
            if self.table is None or self.table.match.result() is not None:
                return
            game, state = self._the_game(), self.table.state
            moved = False
            for seat in sorted(game.to_move(state)):
                if seat not in self.local or seat in self.pending:
                    continue
                auto = game.auto_action(state, seat, self.stores[seat])
                if auto is not None and self.act(seat, auto).ok:
                    moved = True
                    break
            if not moved:
                return

    def _resend_pending(self) -> None:
        """A returning guest sends its moves not yet in the log again: one lost with the old
        connection would otherwise stay "on its way" for ever (and, if it was a required step,
        let the host forfeit the seat for it). The host knows a move it already has (`after`),
        and a move sent on this connection counts as sent for the forfeit check."""
        if self.table is None:
            return
        for seat, action in sorted(self.pending.items()):
            self.sent_at[seat] = self.now
            after = self.pending_after.get(seat, self.table.match.step)
            self._send(self.links[HOST], "propose", seat=seat, action=action, after=after)

    # -- the host: a guest's move ----------------------------------------------------------

    def _on_propose(self, link: Link, body: Propose) -> None:
        if not self.is_host:
            raise ProtocolError("Only the host takes proposed moves.")
        seat = body["seat"]
        self._check_sender(link, seat, "move")
        if self.table is None:
            raise IllegalAction("The game has not started yet.")
        if declared(body["action"]):
            raise ProtocolError(
                "Only the host declares a forfeit, when a seat's time is up: refused as forged."
            )
        if self._already_in_log(seat, body["action"], body["after"]):
            return  # sent again after a reconnection, and it had arrived: nothing to do
        if self._raced_the_end(body["after"]):
            return  # sealed before another seat's step ended the game: the end reaches it
        result = self.table.match.submit_json(seat, body["action"])
        if result.entry is None:
            raise IllegalAction(result.reason or "That move is not allowed.")
        self._appended(result.entry, self._incoming)

    def _already_in_log(self, seat: int, action: Json, after: int) -> bool:
        """Is this proposal one the log took already, since the step it was sealed after?"""
        entries = self._the_match().entries
        if after > len(entries):
            raise ProtocolError("A move arrived sealed after a step this game has not reached.")
        return any(e.seat == seat and e.action == action for e in entries[after:])

    def _raced_the_end(self, after: int) -> bool:
        """Did this proposal cross the step that ended the game? Where several seats act at
        once (Telepathic's check after each action), one may declare the game lost while
        another's device plays on from the same step: nothing is wrong with either, and the
        end entries tell the second device all it needs."""
        match = self._the_match()
        return match.result() is not None and after < match.step

    def _appended(self, entry: LogEntry, proof: Signed | None = None) -> None:
        """A new entry in the host's log: to every guest, then whatever follows by itself.
        Signed play: with its proof, the signed proposal it was appended from (the guest's own,
        or the host's for its seats and for a forfeit it declares)."""
        if not self.signing:
            self._broadcast("entries", entries=[entry.to_json()])
        else:
            proof = proof or self._originate("propose", _proposal(entry))
            self.proofs.append(proof)
            self._broadcast("entries", entries=[entry.to_json()], proofs=[proof])
        self._changed()

    def _changed(self) -> None:
        self.changed_at = self.now
        self.revision += 1
        self._check_heads()  # our word on where the log stands is signed on the heartbeat
        state = self.table.state if self.table is not None else None
        for seat in self.local:  # since when each local seat owes a step of its own
            if state is not None and self._the_game().automatic(state, seat):
                self.due_at.setdefault(seat, self.now)
            else:
                self.due_at.pop(seat, None)
        self.run_automatic()
        self._maybe_end()

    # -- a guest: the host's entries -------------------------------------------------------

    def _on_entries(self, link: Link, body: Entries) -> None:
        if self.is_host:
            raise ProtocolError("Only the host sends log entries.")
        if self.table is None:
            raise ProtocolError("Log entries arrived before the game began.")
        match = self.table.match
        proofs = self._proofs_of(body)
        try:
            for i, raw in enumerate(body["entries"]):
                entry = LogEntry.from_json(raw)
                if entry.seq <= match.step:
                    if match.entries[entry.seq - 1].hash != entry.hash:
                        raise IllegalAction(
                            f"The host's move {entry.seq} differs from this device's log."
                        )
                    continue
                if timed_out_seat(entry.action) is not None:
                    raise ProtocolError(
                        f"The host sent a time-out (move {entry.seq}), which only play by link "
                        "has: refused as forged."
                    )
                victim = forfeited_seat(entry.action)
                if isinstance(victim, int) and victim in self.local:
                    self._check_forfeit(victim, link)
                mine = entry.seat in self.local and victim is None
                if mine and self.pending.get(entry.seat) != entry.action:
                    raise IllegalAction(
                        f"The host sent a move for {self.name(entry.seat)} that this device "
                        "never made: refused as forged."
                    )
                proof = self._check_proof(entry, proofs[i]) if proofs else None
                match.receive(raw)
                if proof is not None:
                    self.proofs.append(proof)
                self._settled(entry.seat)
        finally:
            self._changed()

    def _proofs_of(self, body: Entries) -> list[Signed]:
        """Signed play: one proof for every entry."""
        if not self.signing:
            return []
        proofs = [Signed.from_json(p) for p in body.get("proofs", [])]
        if len(proofs) != len(body["entries"]):
            raise ProtocolError("Log entries came without one proof each: refused.")
        return proofs

    def _check_proof(self, entry: LogEntry, proof: Signed) -> Signed:
        """An entry must come with the signed proposal it was appended from: signed, for this
        game, by the device of the seat that moved (by the host for a forfeit it declares), for
        exactly this move, sealed before it, and not already used for another entry. So the host
        cannot make up a move for a guest's seat, nor change one on the way."""
        forfeit = forfeited_seat(entry.action) is not None
        device = HOST if forfeit else self.device_of(entry.seat)
        move = f"Move {entry.seq} ({self.name(entry.seat)}'s)"
        after = proof.body.get("after")
        if proof.kind != "propose" or proof.device != device:
            raise ProtocolError(
                f"{move} came without a proposal signed by {self.device_name(device)}: refused "
                "as forged."
            )
        if (
            set(proof.body) != {"seat", "action", "after"}
            or proof.body["seat"] != entry.seat
            or proof.body["action"] != entry.action
            or type(after) is not int
            or not 0 <= after < entry.seq
        ):
            raise ProtocolError(
                f"{move} is not the move {self.device_name(device)} signed: refused as forged."
            )
        if any(p.device == proof.device and p.seq == proof.seq for p in self.proofs):
            raise ProtocolError(f"{move} reuses a proposal signed for another move: refused.")
        self._check_signature(proof, self._the_match_id(), self._key_of(proof.device))
        return proof

    def _check_forfeit(self, seat: int, link: Link) -> None:
        """A host may forfeit a seat that held up a step past the time allowed. This device
        takes its steps the moment they are due and sends a step still on its way again on
        every new connection, so the host cannot be right if the step was sent on the connection
        it has, or if the time is not up by this device's clock since the step fell due on it
        (less a little for the way). A step that fell due while this device was away, and was
        never sent, was stalled on: the device accepts."""
        name = self.name(seat)
        sent, due = self.sent_at.get(seat), self.due_at.get(seat)
        if sent is not None and sent >= link.opened and (due is None or sent >= due):
            raise ProtocolError(
                f"The host declared {name} forfeit, but this device sent that step at once: "
                "refused as forged."
            )
        if (
            due is not None
            and due >= link.opened
            and self.now - due < self.limits["reveal"] - SLACK
        ):
            raise ProtocolError(
                f"The host declared {name} forfeit before the time allowed was up: refused as "
                "forged."
            )

    def _on_reject(self, link: Link, body: Reject) -> None:
        """The other side refused something of ours: a guest's moves on their way may be tried
        again."""
        self._notice(f"{self._who(link).capitalize()} refused: {body['reason']}")
        if not self.is_host:
            for seat in list(self.pending):
                self._settled(seat)  # the player may try again

    def _settled(self, seat: int) -> None:
        """A move of `seat` is no longer on its way: in the log, or refused."""
        self.pending.pop(seat, None)
        self.pending_after.pop(seat, None)


def _proposal(entry: LogEntry) -> dict[str, object]:
    """The host's own proposal for an entry it appends (its seat's move, a forfeit it declares):
    what it signs as the entry's proof."""
    return {"seat": entry.seat, "action": entry.action, "after": entry.seq - 1}
