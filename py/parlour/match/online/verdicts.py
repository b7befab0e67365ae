"""The end: every device opens what it committed to, audits the whole match, and says its verdict.

When the game is over every device sends the openings it holds (`openings`), relayed by the host.
Once all are in, or the time allowed is up, each device runs the audit (match/audit.py) on its
own and tells the others what it found (`verdict`: verified, cheat or unverified), so every
player sees every device's word, not only the host's.
"""

from __future__ import annotations

from typing import Any

from parlour.errors import IllegalAction, ProtocolError
from parlour.fair.commit import Opening
from parlour.fair.encoding import Json, canonical_json
from parlour.fair.signing import Signed, table_code
from parlour.match.audit import AuditResult, Cheat, Unverified, Verified, audit
from parlour.match.online.device import HOST, Device, Link
from parlour.match.signed_replay import Signatures, of_proofs
from parlour.match.wire import ACK
from parlour.match.wire_bodies import Openings, Verdict
from parlour.words import and_list


class Verdicts(Device):
    """Openings sent and received at the end, this device's audit, and every device's verdict."""

    def _new_verdicts(self) -> None:
        self.ended_at: float | None = None  # when the game ended here
        self.openings: dict[int, list[Opening]] = {}  # every seat's, as they come in
        self.audit_result: AuditResult | None = None
        self.verdicts: dict[int, tuple[str, str]] = {}  # seat -> (word, sentence), by device
        # Signed play: this device's own audit, kept until every other device's signed final
        # position agrees with ours (then it is `audit_result`), and when it was made.
        self.own_audit: AuditResult | None = None
        self.audited_at: float | None = None
        self.finals: dict[str, Signed] = {}  # device -> its signed verdict (its final position)

    def _maybe_end(self) -> None:
        if self.table is None or self.table.match.result() is None or self.ended_at is not None:
            return
        self.ended_at = self.now
        for seat in self.local:
            openings = self.table.openings(seat)
            self.openings[seat] = openings
            self._broadcast("openings", **self._openings_body(seat))
        self._maybe_audit()

    def _on_openings(self, link: Link, body: Openings) -> None:
        seat = body["seat"]
        self._check_sender(link, seat, "opening")
        if seat in self.local or seat in self.openings:
            return
        if self.table is None or self.table.match.result() is None:
            raise IllegalAction("Secrets are opened only when the game is over.")
        self.openings[seat] = [Opening.from_json(o) for o in body["openings"]]
        self._broadcast("openings", skip=link, **body)
        self._maybe_audit()

    def _maybe_audit(self, deadline_passed: bool = False) -> None:
        """Audit once every seat's openings are in (or, `deadline_passed`, with what came)."""
        if self.own_audit is not None or self.table is None:
            return
        config = self._the_config()
        seats = range(len(config.seats))
        if not deadline_passed and any(s not in self.openings for s in seats):
            return
        match = self.table.match
        openings = {s: self.openings.get(s) for s in seats}
        game = self._the_game()
        self.own_audit = audit(game, match.config, match.seed, match.entries, openings)
        self.audited_at = self.now
        kind, text = verdict_of(self.own_audit, config.seats)
        for seat in self.local:
            self.verdicts[seat] = (kind, text)
        self._broadcast("verdict", **self._verdict_body(kind, text))
        self.revision += 1
        self._maybe_settle()

    def _verdict_body(self, kind: str, text: str) -> dict[str, Any]:
        """Our verdict; signed play: with the position it was reached on (step and hash)."""
        body: dict[str, Any] = {"seat": self.local[0], "verdict": kind, "text": text[:400]}
        if self.signing:
            match = self._the_match()
            body |= {"step": match.step, "head": match.head()}
        return body

    def _maybe_settle(self) -> None:
        """The result this device shows. Unsigned: its own audit. Signed play: its own audit
        once every other device's signed final position is this device's; a device whose
        position differs saw another game (named, with its signed word kept as proof); one whose
        word has not come within the time allowed after our audit was withheld."""
        if self.own_audit is None or self.audit_result is not None:
            return
        if not self.signing:
            self.audit_result = self.own_audit
            return
        match, config = self._the_match(), self._the_config()
        others = sorted({self.device_of(s) for s in range(len(config.seats))} - {self.me})
        for device in others:
            if device in self.diverged:
                self._settle(self._different_game(device, self.diverged[device]))
                return
        missing = [d for d in others if d not in self.finals]
        if not missing:
            self.audit_result = self.own_audit
            self.revision += 1
            return
        assert self.audited_at is not None
        # another device audits at the latest when the time allowed for the openings is up,
        # so its word may come that long after ours: wait twice the time allowed
        if self.now - self.audited_at > 2 * self.limits["reveal"]:
            names = and_list([self.device_name(d) for d in missing])
            if self.is_host:
                its = "its" if len(missing) == 1 else "their"
                why = f"{names} did not send {its} signed final position"
            else:
                why = f"The host did not pass on the signed final position of {names}"
            self._settle(
                f"{why}, so this device cannot tell that everyone saw the same game "
                f"(this device's last move: {match.step})."
            )

    def _settle(self, reason: str) -> None:
        self.audit_result = Unverified((), reason)
        self._notice(reason)

    def _different_game(self, device: str, record: Signed) -> str:
        step = record.body.get("step")
        return (
            f"{self.device_name(device).capitalize()} saw a different game: it signed that "
            f"after move {step} its log's hash is {str(record.body.get('head'))[:12]}…, not "
            f"this device's. Its signed word (number {record.seq}) is kept as proof."
        )

    # -- signed play: every device's word on its position ---------------------------------

    def table_code(self) -> str | None:
        """The code players compare (fair/signing.py): from the match, its genesis hash and
        every device's key as this device has them; None before the game begins, or unsigned."""
        if not self.signing or self.table is None:
            return None
        config = self._the_config()
        devices = {self.device_of(s) for s in range(len(config.seats))}
        if not devices <= set(self.keys):
            return None
        keys = {d: self.keys[d] for d in devices}
        return table_code(config.match_id, self.table.match.genesis, keys)

    def replay_signatures(self) -> Signatures | None:
        """The keys and each move's signed proposal, for this game's replay (the keys the
        table code is made from); None unsigned, or while a proof waits for its signature."""
        if self.table_code() is None:
            return None
        config, match = self._the_config(), self._the_match()
        devices = {self.device_of(s) for s in range(len(config.seats))}
        openings = [
            self.records.get(canonical_json(["openings", self._openings_body(seat)]))
            for seat in sorted(self.openings)
        ]
        final = {"step": match.step, "head": match.head()}
        verdicts = {
            r.device: r
            for r in sorted(self.records.values(), key=lambda r: -r.seq)
            if r.kind == "verdict" and {k: r.body.get(k) for k in final} == final
        }
        return of_proofs(
            {d: self.keys[d] for d in devices},
            self.proofs,
            [r for r in openings if r is not None],
            sorted(verdicts.values(), key=lambda r: str(r.body.get("seat"))),
        )

    def _openings_body(self, seat: int) -> dict[str, Json]:
        return {"seat": seat, "openings": [o.to_json() for o in self.openings[seat]]}

    def _acknowledge(self) -> None:
        """Signed play: sign where our log stands (step, hash) when it moved, on the heartbeat
        (about twice a second; not on a move's way, so a move never waits for this signature);
        the next message on every connection carries it (through the host, which must relay
        it)."""
        if not self.signing or self.table is None:
            return
        match = self.table.match
        if self.my_ack is not None and self.my_ack.body["step"] == match.step:
            return
        self.my_ack = self._originate(ACK, {"step": match.step, "head": match.head()})
        self._due(self.my_ack)
        self._check_heads()

    def _check_acks(self, acks: tuple[Signed, ...]) -> None:
        """The acks a message carries, each signed by the device it names for this game, or the
        whole message is refused (before its handler: a refusal changes nothing)."""
        if not acks:
            return
        if self.config is None:
            raise ProtocolError("Acknowledgements arrived before the welcome.")
        for ack in acks:
            self._verify_record(ack, self.config.match_id, self._key_of(ack.device))

    def _take_acks(self, link: Link, acks: tuple[Signed, ...]) -> None:
        """Checked acks, once their message was taken: each device's latest is kept, and the
        host carries every one on to every other device (it must: `_maybe_settle`). One that
        contradicts what its device signed under that number is kept as proof of a fork."""
        for ack in acks:
            if ack.device == self.me:
                continue
            try:
                self._check_signature(ack, self._the_match_id(), self._key_of(ack.device))
            except ProtocolError as error:
                self._notice(f"Refused from {self._who(link)}: {error.sentence}")
                continue
            known = self.acks.get(ack.device)
            if known is None or known.body["step"] < ack.body["step"]:
                self.acks[ack.device] = ack
                if self.is_host:
                    self._due(ack, skip=link)
        self._check_heads()

    def _check_heads(self) -> None:
        """Compare every device's signed position with our log at that step: a difference
        means the host showed that device another game."""
        if self.table is None:
            return
        match = self.table.match
        words = [*self.acks.values(), *self.finals.values()]
        for record in words:
            step, head = record.body.get("step"), record.body.get("head")
            if record.device in self.diverged or not isinstance(step, int) or step > match.step:
                continue
            ours = match.entries[step - 1].hash if step else match.genesis
            if ours != head:
                self.diverged[record.device] = record
                self._notice(self._different_game(record.device, record))

    def _on_verdict(self, link: Link, body: Verdict) -> None:
        seat = body["seat"]
        self._check_sender(link, seat, "verdict")
        if self.config is None:
            raise ProtocolError("A verdict arrived before the host's welcome.")
        if seat >= len(self.config.seats):
            raise ProtocolError(f"A verdict came for seat {seat + 1}, which is not in this game.")
        if seat in self.local:  # our own is never sent back to us: the host made this one up
            raise ProtocolError(
                f"The host sent a verdict for {self.name(seat)}'s device that this device never "
                "gave: refused as forged."
            )
        self.verdicts[seat] = (body["verdict"], body["text"])
        if self._incoming is not None:
            self.finals[self._incoming.device] = self._incoming
            self._check_heads()
        self._broadcast("verdict", skip=link, **body)
        self.revision += 1
        self._maybe_settle()

    def _resend_own_verdict(self) -> None:
        """A returning guest's audit may have finished while it was away: say it again."""
        mine = self.verdicts.get(self.local[0]) if self.local else None
        if mine is not None and self.own_audit is not None:
            self._send(self.links[HOST], "verdict", **self._verdict_body(*mine))


def verdict_of(result: AuditResult, names: tuple[str, ...]) -> tuple[str, str]:
    """An audit result as a word and a sentence, as devices tell each other."""
    if isinstance(result, Verified):
        return "verified", result.summary
    if isinstance(result, Cheat):
        who = names[result.seat] if 0 <= result.seat < len(names) else "A player"
        return "cheat", f"{who} cheated: {result.reason}"
    assert isinstance(result, Unverified)
    return "unverified", result.reason
