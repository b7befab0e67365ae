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
from parlour.games.base import Outcome, Termination
from parlour.match.audit import audit
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
        if not self.limit:
            raise ProtocolError("A claim of time came in a game with no time per move.")
        if match is None:
            return self._on_seed_claim(record)
        at, seat = number_in(record, "at"), number_in(record, "s")
        if match.result() is not None and at == match.step:
            return self._on_seals_claim(record)
        if at < match.step or match.result() is not None:
            return DONE  # the move came first: the claim is void
        if at > match.step:
            return WAIT
        if self._ahead(record):
            return WAIT  # a claim from the future here: kept until our clock catches up
        due = sorted(match.game.to_move(match.state))
        fair = self._claim_valid(record) and bool(due) and seat == due[0]
        if not fair and at == 0:
            return DONE  # a claim of the seed reveal, which the reveal beat: void
        if not self._claim_valid(record):
            raise ProtocolError(f"A claim against {self.name(seat)} came before the time was up.")
        if not fair:
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

    # -- the start and the end: a seed reveal or openings withheld -------------------------

    def _next_of(self, seat: int) -> Signed | None:
        """The next record of the device that holds `seat`, not yet taken."""
        device = self.device_of(seat) or ""
        return self.records.get((device, self.consumed.get(device, 0) + 1))

    def _on_seed_claim(self, record: Signed) -> str:
        """A claim against a seat that keeps back its seed reveal once every commitment is in
        (it could see the seed first and veto it): counted from the claimant's own reveal, and
        beaten by that seat's reveal signed no later."""
        seat, by, t = number_in(record, "s"), number_in(record, "by"), number_in(record, "t")
        if self.game is None or len(self.commits) < len(self.names):
            return WAIT
        if seat in self.reveals or by not in self.revealed_at or self._ahead(record):
            return WAIT  # revealed after all: the claim waits for the game's first step
        if t < self.revealed_at[by] + self.limit:
            raise ProtocolError(f"A claim against {self.name(seat)} came before the time was up.")
        waiting = self._next_of(seat)
        if waiting is not None and waiting.kind == "reveal" and number_in(waiting, "t") <= t:
            return WAIT  # the reveal in time goes first
        self.forfeit = self._seed_forfeit(seat, by)
        return DONE

    def _seed_claim_beats(self, reveal: Signed) -> bool:
        """Is there a claim against this reveal's seat, signed before it and once the time was
        up (by the claimant's own reveal)? Any record held counts, taken or not, so every
        device that holds both decides the same."""
        seat, t = number_in(reveal, "s"), number_in(reveal, "t")
        for claim in self.records.values():
            if claim.kind != "claim" or claim.body["s"] != seat or claim.body["at"] != 0:
                continue
            since = self._reveal_time(number_in(claim, "by"))
            if since is not None and t > number_in(claim, "t") >= since + self.limit:
                return True
        return False

    def _reveal_time(self, seat: int) -> int | None:
        """The time of `seat`'s seed reveal among the records held (taken or not)."""
        device = self.device_of(seat)
        found = (r for (d, _), r in self.records.items() if d == device and r.kind == "reveal")
        return next((number_in(r, "t") for r in found if r.body["s"] == seat), None)

    def _seed_forfeit(self, seat: int, by: int) -> Outcome:
        assert self.game is not None
        others = frozenset(set(range(len(self.names))) - {seat})
        return Outcome(
            Termination.FORFEIT,
            others & self.game.forfeit_winners(self._setup(), seat),
            f"{self.name(seat)} did not reveal their part of the seed within the time per move, "
            f"after every device had committed to its own, and forfeits ({self.name(by)} "
            "claimed the game).",
        )

    def _on_seals_claim(self, record: Signed) -> str:
        """At the end: a claim against a seat that keeps back its openings. Openings that come
        go first (they carry no time); without them the audit goes on, and names the seat."""
        seat = number_in(record, "s")
        if seat in self.openings or self.audit_result is not None:
            return DONE  # opened: void
        if self._ahead(record):
            return WAIT
        if not self._claim_valid(record):
            raise ProtocolError(f"A claim against {self.name(seat)} came before the time was up.")
        waiting = self._next_of(seat)
        if waiting is not None and waiting.kind == "openings":
            return WAIT  # the openings go first, and void this claim
        self.withheld.add(seat)
        self._maybe_audit()
        return DONE

    def _maybe_audit(self) -> None:
        """Once every seat's openings came (or were claimed as withheld): the audit."""
        match = self.match
        if match is None or any(
            s not in self.openings and s not in self.withheld for s in range(len(self.names))
        ):
            return
        self.audit_result = audit(
            match.game, match.config, match.seed, match.entries, dict(self.openings)
        )

    def owed(self) -> tuple[int, str, int] | None:
        """The seat the game waits on for a step only its own device can take, what it owes
        (its "move", its "seed reveal", its "seals" at the end), and since when. None: the
        game waits on nobody's step; or not yet, as the seed's clock starts at this device's
        own reveal."""
        match = self.match
        if self.forfeit is not None or self.game is None:
            return None
        if match is None:
            missing = [s for s in range(len(self.names)) if s not in self.reveals]
            mine = [self.revealed_at[s] for s in self.local if s in self.revealed_at]
            if len(self.commits) < len(self.names) or not missing or not mine:
                return None
            return missing[0], "seed reveal", max(mine)
        if match.result() is None:
            due = sorted(match.game.to_move(match.state))
            return (due[0], "move", self.times[-1]) if due and self.times else None
        if self.audit_result is not None:
            return None
        missing = [
            s for s in range(len(self.names)) if s not in self.openings and s not in self.withheld
        ]
        return (missing[0], "seals", self.times[-1]) if missing else None

    def time_left(self, now: float) -> tuple[int, int, str] | None:
        """The seat the game waits on, the seconds left of its time per move (0 or less: any
        other player may claim the game) and what it owes; None with no time per move or
        nothing owed."""
        owed = self.owed() if self.limit else None
        if owed is None:
            return None
        seat, what, since = owed
        return seat, since + self.limit - int(now), what

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
