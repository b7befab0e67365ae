"""Time per move, by link: claims of time, checked by the records and by this device's clock.

A claim counts once its own signed time is at least the time the step fell due plus the time per
move; a move of the seat waited on that is signed no later than the claim goes first and voids
it, and a claim signed earlier than a move goes first and ends the game. Both are decided by the
records alone, so every device ends the same; this device's clock only holds back a record signed
ahead of it (by more than `SLACK`).
"""

from __future__ import annotations

from parlour.errors import ProtocolError
from parlour.fair.signing import Signed
from parlour.match.by_link.records import number_in
from parlour.match.by_link.state import DONE, WAIT, LinkState


class Timing(LinkState):
    """Claims of time, as every device decides them."""

    def _claims_at(self, step: int) -> list[Signed]:
        """Claims at the head of their device's records for `step`, valid by their time."""
        claims = []
        for device in self.keys:
            record = self.records.get((device, self.consumed.get(device, 0) + 1))
            if (
                record is not None
                and record.kind == "claim"
                and record.body["at"] == step
                and self._claim_valid(record)
            ):
                claims.append(record)
        return claims

    def _claim_valid(self, claim: Signed) -> bool:
        """Signed once the time was up, by its own time (the same answer on every device; this
        device's clock only holds back a claim from its future, in `_on_claim`)."""
        return bool(self.limit) and number_in(claim, "t") >= self.times[-1] + self.limit

    def _claim_beats(self, act: Signed, step: int) -> bool:
        """A valid claim signed before a late move wins over it (the earlier time wins)."""
        t = number_in(act, "t")
        return any(number_in(c, "t") < t for c in self._claims_at(step))

    def _on_claim(self, record: Signed) -> str:
        match = self.match
        if match is None:
            return WAIT
        at, seat = number_in(record, "at"), number_in(record, "s")
        if at < match.step or match.result() is not None:
            return DONE  # the move came first: the claim is void
        if at > match.step:
            return WAIT
        if not self.limit:
            raise ProtocolError("A claim of time came in a game with no time per move.")
        if self._ahead(record):
            return WAIT  # a claim from the future here: kept until our clock catches up
        if not self._claim_valid(record):
            raise ProtocolError(f"A claim against {self.name(seat)} came before the time was up.")
        due = sorted(match.game.to_move(match.state))
        if not due or seat != due[0]:
            raise ProtocolError(f"A claim against {self.name(seat)}, whom the game is not on.")
        mover = self.device_of(seat)
        waiting = self.records.get((mover or "", self.consumed.get(mover or "", 0) + 1))
        if waiting is not None and waiting.kind == "act" and not self._claim_beats(waiting, at):
            return WAIT  # the move in time goes first, and voids this claim
        submitted = match.submit_json(number_in(record, "by"), {"timeout": seat})
        if not submitted.ok:
            raise ProtocolError(submitted.reason or "A claim of time was refused.")
        self._took(record)
        return DONE

    def time_left(self, now: float) -> tuple[int, int] | None:
        """The seat the game waits on and the seconds left of its time per move (0 or less:
        any other player may claim the game); None with no time per move, before the first
        move, or once the game is over."""
        match = self.match
        if not self.limit or match is None or match.result() is not None or not self.times:
            return None
        due = sorted(match.game.to_move(match.state))
        if not due:
            return None
        return due[0], self.times[-1] + self.limit - int(now)

    def _timed_out(self) -> bool:
        """Has the game ended on a claim of time? (A move sent in time may still beat it.)"""
        match = self.match
        last = match.entries[-1].action if match is not None and match.entries else None
        return isinstance(last, dict) and "timeout" in last


def duration(seconds: int) -> str:
    """A time per move or a time left, in words ("2 days", "5 hours", "1 minute")."""
    if seconds >= 2 * 86400 or (seconds and seconds % 86400 == 0):
        count, unit = round(seconds / 86400), "day"
    elif seconds >= 3600:
        count, unit = round(seconds / 3600), "hour"
    else:
        count, unit = max(1, round(seconds / 60)), "minute"
    return f"{count} {unit}{'s' if count != 1 else ''}"
