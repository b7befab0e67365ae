"""The derivation of a game by link: every device's records read in that device's own order and
taken into the match the same way on every device (the log's next entry is the move of the seat
the game waits on), with this device's own due steps taken as they fall due, until nothing moves.

Each record goes to its handler by kind: the start's (start.py), time's (timing.py), a move
(`_on_act`) and the openings at the end (`_on_openings`). A record that breaks the rules stops
the game, kept as proof.
"""

from __future__ import annotations

from parlour.errors import ParlourError, ProtocolError
from parlour.fair.commit import Opening
from parlour.fair.signing import Signed
from parlour.match.by_link.carrying import Carrying
from parlour.match.by_link.out_of_turn import OutOfTurn
from parlour.match.by_link.own_steps import OwnSteps
from parlour.match.by_link.records import number_in
from parlour.match.by_link.state import DONE, WAIT
from parlour.match.match import declared
from parlour.numbers import whole


class Deriving(OwnSteps, OutOfTurn, Carrying):
    """The match derived from the records, as every device derives it."""

    def _rebuild(self) -> None:
        """Derive everything again from the records (a time claim raced a move)."""
        self._reset()
        self._run()

    def _run(self) -> None:
        """Read every device's records in its own order as far as they go, then take the steps
        now due from our own seats, until nothing moves."""
        for _ in range(100_000):
            progress = False
            for device in sorted(self.keys):
                record = self.records.get((device, self.consumed.get(device, 0) + 1))
                if record is not None and self._handle(record) == DONE:
                    self.consumed[device] = record.seq
                    progress = True
            if not progress and not self._own_steps():
                return

    def _own_steps(self) -> bool:
        """Our due steps; one we cannot take (a deck of ours this page refuses) stops the game
        here with its sentence, instead of raising."""
        try:
            return self._my_due_steps()
        except ParlourError as error:
            self.stopped = f"{error.sentence} The game cannot go on from this device."
            return False

    def _handle(self, record: Signed) -> str:
        if self.stopped:
            return WAIT
        handler = {
            "open": self._on_open,
            "join": self._on_join,
            "commit": self._on_commit,
            "lock": self._on_deal_step,
            "unlock": self._on_deal_step,
            "reveal": self._on_reveal,
            "act": self._on_act,
            "claim": self._on_claim,
            "seen": self._on_seen,
            "due": self._on_due,
            "openings": self._on_openings,
            "carry": self._on_carry,
            "carried": self._on_carried,
        }[record.kind]
        try:
            return handler(record)
        except ParlourError as error:
            self.stopped = f"{error.sentence} The game cannot go on; the entry is kept as proof."
        except (ValueError, TypeError, KeyError, IndexError):
            who = self._device_name(record.device, self.held)
            self.stopped = (
                f"{who} signed an entry (its {record.seq}) this page cannot read: the game "
                "cannot go on; the entry is kept as proof."
            )
        return WAIT

    def _on_act(self, record: Signed) -> str:
        match = self.match
        if match is None:
            return WAIT
        body = record.body
        seat, at = number_in(record, "s"), number_in(record, "at")
        if at > match.step:
            return WAIT
        cut = self.cut.get(at)
        if at < match.step and cut is not None and cut != seat:
            self.notes.append(f"{self.name(seat)}'s move came after {self.name(cut)}'s: void.")
            return DONE
        due = sorted(match.game.to_move(match.state))
        out_of_turn = at == match.step and seat not in due and match.result() is None
        if not out_of_turn and (
            match.result() is not None
            or any(
                seat not in match.game.to_move(match.state_at(k)) for k in range(at, match.step + 1)
            )
        ):
            self.notes.append(f"{self.name(seat)}'s move {at + 1} came too late.")
            return DONE
        if (seat != due[0] and not out_of_turn) or self._ahead(record):
            return WAIT
        if self._claim_beats(record, match.step) or not self._goes_first(record):
            return WAIT
        if at == match.step and body["h"] != match.head()[:16]:
            raise ProtocolError(f"{self.name(seat)}'s device saw another game (move {at + 1}).")
        if declared(body["a"]):
            self.notes.append(f"{self.name(seat)}'s move was refused: a move cannot end the game.")
            return DONE
        submitted = match.submit_json(seat, body["a"])
        if not submitted.ok:
            self.notes.append(f"{self.name(seat)}'s move was refused: {submitted.reason}")
            return DONE
        if out_of_turn:
            self.cut[at] = seat
        self._took(record)
        self._infer(record.device, at)
        return DONE

    def _infer(self, device: str, at: int) -> None:
        """A device that sealed a move at step `at` held every record the log took before it:
        the links to it need not carry them again (its head may be older than its move)."""
        if device == self.me:
            return
        known = self.heads.setdefault(device, {})
        for source, q in self.sources[:at]:
            if q > known.get(source, 0):
                known[source] = q

    # -- the end -----------------------------------------------------------------------------

    def _on_openings(self, record: Signed) -> str:
        match = self.match
        if match is None or match.result() is None:
            return WAIT
        opened = record.body["o"]
        assert isinstance(opened, dict)
        for key, items in opened.items():
            seat = whole(key)
            if seat not in self.held.get(record.device, ()) or not isinstance(items, list):
                raise ProtocolError(
                    f"{record.device} showed the hidden choices of a seat it does not hold."
                )
            assert seat is not None
            if seat in self.openings:
                raise ProtocolError(f"{self.name(seat)}'s hidden choices were shown twice.")
            self.openings[seat] = [Opening.from_json(o) for o in items]
        self._maybe_audit()
        return DONE
