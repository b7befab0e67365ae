"""The end: every device opens what it committed to, audits the whole match, and says its verdict.

When the game is over every device sends the openings it holds (`openings`), relayed by the host.
Once all are in, or the time allowed is up, each device runs the audit (match/audit.py) on its
own and tells the others what it found (`verdict`: verified, cheat or unverified), so every
player sees every device's word, not only the host's.
"""

from __future__ import annotations

from parlour.errors import IllegalAction, ProtocolError
from parlour.fair.commit import Opening
from parlour.match.audit import AuditResult, Cheat, Unverified, Verified, audit
from parlour.match.online.device import HOST, Device, Link
from parlour.match.wire import Openings, Verdict


class Verdicts(Device):
    """Openings sent and received at the end, this device's audit, and every device's verdict."""

    def _new_verdicts(self) -> None:
        self.ended_at: float | None = None  # when the game ended here
        self.openings: dict[int, list[Opening]] = {}  # every seat's, as they come in
        self.audit_result: AuditResult | None = None
        self.verdicts: dict[int, tuple[str, str]] = {}  # seat -> (word, sentence), by device

    def _maybe_end(self) -> None:
        if self.table is None or self.table.match.result() is None or self.ended_at is not None:
            return
        self.ended_at = self.now
        for seat in self.local:
            openings = self.table.openings(seat)
            self.openings[seat] = openings
            self._broadcast("openings", seat=seat, openings=[o.to_json() for o in openings])
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
        if self.audit_result is not None or self.table is None:
            return
        config = self._the_config()
        seats = range(len(config.seats))
        if not deadline_passed and any(s not in self.openings for s in seats):
            return
        match = self.table.match
        openings = {s: self.openings.get(s) for s in seats}
        game = self._the_game()
        self.audit_result = audit(game, match.config, match.seed, match.entries, openings)
        kind, text = verdict_of(self.audit_result, config.seats)
        for seat in self.local:
            self.verdicts[seat] = (kind, text)
        self._broadcast("verdict", seat=self.local[0], verdict=kind, text=text[:400])
        self.revision += 1

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
        self._broadcast("verdict", skip=link, **body)
        self.revision += 1

    def _resend_own_verdict(self) -> None:
        """A returning guest's audit may have finished while it was away: say it again."""
        mine = self.verdicts.get(self.local[0]) if self.local else None
        if mine is not None:
            kind, text = mine
            self._send(self.links[HOST], "verdict", seat=self.local[0], verdict=kind, text=text)


def verdict_of(result: AuditResult, names: tuple[str, ...]) -> tuple[str, str]:
    """An audit result as a word and a sentence, as devices tell each other."""
    if isinstance(result, Verified):
        return "verified", result.summary
    if isinstance(result, Cheat):
        who = names[result.seat] if 0 <= result.seat < len(names) else "A player"
        return "cheat", f"{who} cheated: {result.reason}"
    assert isinstance(result, Unverified)
    return "unverified", result.reason
