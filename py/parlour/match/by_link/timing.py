"""Time per move, by link: claims of time, checked by the records and by this device's clock.

A seat's time for a move starts when the step fell due (the time signed on the record that made
it due), or, when that record reached the seat's device late (signed more than `SLACK` before it
arrived: slow on the way, or dated back by its sender), when that device first held it: the
device signs a `seen` record then. So nobody loses on time for a turn their device never
received, and a sender that dates its move back cannot shorten the next player's time. A claim
counts once its own signed time is at least that start plus the time per move; a claim that
came before (the claimant could not know of the `seen` yet) is void, and can be made again once
the time is up. A move of the seat waited on that is signed no later than a valid claim goes
first and voids it; a valid claim signed earlier than a move goes first and ends the game. All is
decided by the records alone, so every device holding the same records ends the same; this
device's clock only holds back a record signed ahead of it (by more than `SLACK`). What a
device's clock can and cannot gain: docs/links.md, "Time per move".
"""

from __future__ import annotations

from parlour.errors import ProtocolError
from parlour.fair.signing import Signed
from parlour.games.base import Outcome, Termination
from parlour.match.audit import audit
from parlour.match.by_link.records import number_in
from parlour.match.by_link.state import DONE, SLACK, WAIT, LinkState

START_LINK = "link that starts the game"  # what a seat owes at the start: its seed reveal
LAST_LINK = "last link"  # at the end: its openings, for the final check


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
        since = self._started(number_in(claim, "s"), number_in(claim, "at"))
        return bool(self.limit) and number_in(claim, "t") >= since + self.limit

    def _started(self, seat: int, step: int) -> int:
        """When `seat`'s time for the step now due started: when it fell due, or when the
        seat's device first held it, by its `seen` record, if it came late."""
        due = self.times[-1] if self.times else 0
        seen = self._seen_at(seat, step)
        return max(due, seen) if seen is not None else due

    def _seen_at(self, seat: int, step: int) -> int | None:
        """The earliest `seen` of `seat` for `step` among the records held (taken or not, so
        every device that holds it decides the same), none from this device's future."""
        times = [
            number_in(r, "t")
            for r in self.records.values()
            if r.kind == "seen"
            and r.body["s"] == seat
            and r.body["at"] == step
            and not self._ahead(r)
        ]
        return min(times, default=None)

    def _start_seen(self, seat: int, device: str, ahead: bool = False) -> int | None:
        """When `device` said it first held everything `seat` needed to read its cards while
        the seat still owed a step of the start (its `due` on that seat): where a claim of
        `device` against that seat counts from. A `due` on the signer's own seat, or one from
        this device's future (unless `ahead`), counts for nothing."""
        times = [
            number_in(r, "t")
            for (d, _), r in self.records.items()
            if d == device
            and r.kind == "due"
            and r.body["on"] == seat
            and self.device_of(seat) not in (None, d)
            and (ahead or not self._ahead(r))
        ]
        return min(times, default=None)

    def _stalling(self, seat: int) -> bool:
        """Has `seat` read its shared cards (every step it needed is here) and yet owes a step
        of the start (its commitment, or a lock or unlock of another's card)? Every step it
        owes was due by then: the decks here have two recipients, whose locks come before
        either can read a card and whose unlocks are due as soon as both have locked."""
        dealing = self.dealing
        if dealing is None or self.device_of(seat) is None or not dealing.readable(seat):
            return False
        return seat not in self.commits or seat in dealing.waiting_for()

    def _start_step_next(self, seat: int) -> bool:
        """Is the next record of `seat`'s device a step of the start (a commitment, a lock or an
        unlock)? That goes first, whenever it comes: it carries no time. Any other record in
        its place shields nothing."""
        waiting = self._next_of(seat)
        return waiting is not None and waiting.kind in ("commit", "lock", "unlock")

    def _note_seen(self, seat: int) -> bool:
        """Sign when this device first held a turn of its person's `seat` that came late (while
        taking the link that brought it): that seat's time counts from now. True if signed."""
        match = self.match
        if match is None or not self.limit or not self.receiving:
            return False
        late = self.now - (self.times[-1] if self.times else 0) > SLACK
        if self._held_before(match.step) or not late or str(seat) in self.bots:
            return False
        if self._seen_at(seat, match.step) is not None:
            return False
        self._append("seen", {"s": seat, "at": match.step, "t": int(self.now)})
        return True

    def _held_before(self, step: int) -> bool:
        """Did this device hold the position at `step` (the same log up to it) before the link
        it is taking now?"""
        before = self.arrived_after
        match = self.match
        if before is None or match is None or step > len(before):
            return False
        return step == 0 or before[step - 1] == match.entries[step - 1].hash

    def _on_seen(self, record: Signed) -> str:
        """Read where it is needed (`_seen_at`); in its device's order it waits for its step."""
        match = self.match
        return WAIT if match is None or number_in(record, "at") > match.step else DONE

    def _on_due(self, record: Signed) -> str:
        """Read where it is needed (`_start_seen`, which gives a `due` on one of the signer's
        own seats no weight); in its device's order it is taken at once."""
        return DONE

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
        if seat in self.local:
            self._note_seen(seat)  # the claim came with the move it claims on: our time starts
        due = sorted(match.game.to_move(match.state))
        fair = self._claim_valid(record) and bool(due) and seat == due[0]
        if not fair and at == 0:
            return DONE  # a claim of the seed reveal, which the reveal beat: void
        if not self._claim_valid(record) and self._seen_at(seat, at) is not None:
            self.notes.append(f"A claim against {self.name(seat)} came before their time was up.")
            return DONE  # the claimant could not know the move reached them late: void
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
        if self.game is None:
            return WAIT
        if by not in self.revealed_at or self._stalling(seat):  # a step of the start withheld
            return self._on_start_claim(record)
        if len(self.commits) < len(self.names):
            return WAIT
        if seat in self.reveals or self._ahead(record):
            return WAIT  # revealed after all: the claim waits for the game's first step
        if t < self.revealed_at[by] + self.limit:
            raise ProtocolError(f"A claim against {self.name(seat)} came before the time was up.")
        waiting = self._next_of(seat)
        if waiting is not None and waiting.kind == "reveal" and number_in(waiting, "t") <= t:
            return WAIT  # the reveal in time goes first
        self.forfeit = self._seed_forfeit(seat, by)
        return DONE

    def _on_start_claim(self, record: Signed) -> str:
        """A claim against a seat that has read its shared cards and keeps back a step of the
        start (having seen its card, it could veto the game): counted from the claimant's own
        `due` on that seat. A step of the start carries no time, so one that comes goes first,
        whenever it comes: a claim counts only while the seat could read its cards here and
        owes a step with no step of its own waiting; until the seat could read them it waits."""
        seat, by = number_in(record, "s"), number_in(record, "by")
        if self.forfeit is not None:
            return DONE  # the start ended already, on an earlier claim
        if self.dealing is None or self._ahead(record):
            return WAIT
        if not self._stalling(seat):
            owes = seat not in self.commits or seat in self.dealing.waiting_for()
            return WAIT if owes else DONE  # not readable here yet; or it owes nothing: void
        if seat in self.local or self._start_step_next(seat):
            return WAIT  # its own step goes first (ours, made in our own steps, here)
        since = self._start_seen(seat, record.device)
        if since is None or number_in(record, "t") < since + self.limit:
            raise ProtocolError(f"A claim against {self.name(seat)} came before the time was up.")
        self.forfeit = self._seed_forfeit(seat, by, ready=True)
        return DONE

    def _note_start_seen(self) -> bool:
        """With a time per move, sign when this device first holds everything another seat
        needed to read its shared cards while that seat owes a step of the start: its time to
        send it counts from now (the claim line's, and a claim's). Once per seat. True if
        signed."""
        if not self.limit or self.dealing is None or self.match is not None:
            return False
        for seat in range(len(self.names)):
            if (
                self.device_of(seat) in (None, self.me)
                or not self._stalling(seat)
                or self._start_step_next(seat)
                or self._start_seen(seat, self.me, ahead=True) is not None
            ):
                continue
            self._append("due", {"s": self.local[0], "on": seat, "t": int(self.now)})
            return True
        return False

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

    def _seed_forfeit(self, seat: int, by: int, ready: bool = False) -> Outcome:
        """The start ended by a claim: `seat` kept back its seed reveal, or (`ready`) the
        link that gets it ready once its cards were dealt."""
        assert self.game is not None
        others = frozenset(set(range(len(self.names))) - {seat})
        owed = (
            "get ready within the time per move after their cards were dealt to them"
            if ready
            else "reveal their part of the seed within the time per move, after every device "
            "had committed to its own,"
        )
        return Outcome(
            Termination.FORFEIT,
            others & self.game.forfeit_winners(self._setup(), seat),
            f"{self.name(seat)} did not {owed} and forfeits ({self.name(by)} claimed the game).",
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
        (its "move", its "link that starts the game", its "last link" at the end), and since
        when. None: the game waits on nobody's step; or not yet, as the seed's clock starts at
        this device's own reveal."""
        match = self.match
        if self.forfeit is not None or self.game is None:
            return None
        stalled = [
            (s, since)
            for s in range(len(self.names))
            if match is None
            and self._stalling(s)
            and not self._start_step_next(s)
            and (since := self._start_seen(s, self.me)) is not None
        ]
        if stalled:
            return stalled[0][0], START_LINK, stalled[0][1]
        if match is None and len(self.commits) < len(self.names):
            return None
        if match is None:
            missing = [s for s in range(len(self.names)) if s not in self.reveals]
            mine = [self.revealed_at[s] for s in self.local if s in self.revealed_at]
            if len(self.commits) < len(self.names) or not missing or not mine:
                return None
            return missing[0], START_LINK, max(mine)
        if match.result() is None:
            due = sorted(match.game.to_move(match.state))
            if not due or not self.times:
                return None
            return due[0], "move", self._started(due[0], match.step)
        if self.audit_result is not None:
            return None
        missing = [
            s for s in range(len(self.names)) if s not in self.openings and s not in self.withheld
        ]
        return (missing[0], LAST_LINK, self.times[-1]) if missing else None

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
    """A time per move or a time left, in words ("2 days", "5 hours", "1 minute", "1 second":
    never more than it is, so a doctored second is never shown as a minute)."""
    if seconds >= 2 * 86400 or (seconds and seconds % 86400 == 0):
        count, unit = round(seconds / 86400), "day"
    elif seconds >= 3600:
        count, unit = round(seconds / 3600), "hour"
    elif seconds >= 60:
        count, unit = seconds // 60, "minute"
    else:
        count, unit = max(seconds, 0), "second"
    return f"{count} {unit}{'s' if count != 1 else ''}"
