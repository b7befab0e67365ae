"""Moves out of turn, by link: a seat the game does not wait on may still act when the rules let
it (Telepathic's pair: "either partner, after a completed turn" may make the Announcement).

Live, the host puts whichever reaches it first into the log. By link there is no host, so the
records decide, as for a claim of time: at one step, the earliest signed time goes first (the
seat the game waits on first on a tie); the other is void, because the step it was sealed after
has passed. A device that took one before the other reached it derives the game again once the
other comes, so every device that holds the same records ends the same.
"""

from __future__ import annotations

from parlour.fair.signing import Signed
from parlour.match.by_link.records import number_in
from parlour.match.by_link.state import LinkState


class OutOfTurn(LinkState):
    """Which of a move in turn and a move out of turn, sealed at one step, goes first."""

    def _out_of_turn(self, record: Signed) -> bool:
        """Was `record` a move by a seat the game did not wait on at the step it was sealed
        after? (None is known yet for a step still ahead of this device's log.)"""
        match = self.match
        if match is None or record.kind != "act":
            return False
        at = number_in(record, "at")
        return at <= match.step and number_in(record, "s") not in match.game.to_move(
            match.state_at(at)
        )

    def _goes_first(self, record: Signed) -> bool:
        """Does `record`, a move the log could take now, go before every move of the other
        kind that could too (in turn against out of turn)? The earliest signed time first; on
        a tie the seat the game waits on, then the lower seat. Moves in turn among themselves
        keep seat order (`_on_act`)."""
        match = self.match
        assert match is not None
        step, due = match.step, match.game.to_move(match.state)

        def order(r: Signed) -> tuple[int, int, int]:
            seat = number_in(r, "s")
            return number_in(r, "t"), 0 if seat in due else 1, seat

        def rival(r: Signed) -> bool:
            if r is record or r.kind != "act":
                return False
            at, seat = number_in(r, "at"), number_in(r, "s")
            if at > step or (seat in due) == in_turn:
                return False
            return seat in due or at == step

        in_turn = number_in(record, "s") in due
        heads = (self.records.get((d, self.consumed.get(d, 0) + 1)) for d in self.keys)
        return all(order(record) < order(r) for r in heads if r is not None and rival(r))

    def _crossed(self, fresh: list[Signed]) -> bool:
        """Must the game be derived again? A move out of turn is in the log (the move it beat
        may come later), or one just came for a step the log has passed."""
        return bool(self.cut) or any(self._out_of_turn(r) for r in fresh)
