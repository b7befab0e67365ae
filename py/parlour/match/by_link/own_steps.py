"""The steps a device's own seats owe in a game by link, taken without the player: deal steps,
commitments and reveals at the start, automatic steps and the bots' moves in play, the openings
at the end; and how one move of ours is sealed into a signed record (`_act`).
"""

from __future__ import annotations

from parlour.errors import ParlourError
from parlour.fair.encoding import Json
from parlour.match.bot_seats import next_decision
from parlour.match.by_link.telling import Telling


class OwnSteps(Telling):
    """The records our seats owe now, appended."""

    def _my_due_steps(self) -> bool:
        """Append the records now due from our seats (deal steps, commitments, reveals,
        automatic steps, bots' moves, our openings); True if we appended any."""
        if self._halted() or self.game is None or not self.local or self._behind():
            return False
        if self.live is not None and not self._mine():
            return False  # a carried game: our `carried` comes first (carrying.py)
        if self._mine() > self.consumed.get(self.me, 0):
            return False
        if self.table is None:
            return self._start_steps()
        match = self.table.match
        if match.result() is not None:
            if any(s not in self.openings for s in self.local) and not self._opened():
                opened: dict[str, Json] = {
                    str(s): [o.to_json() for o in self.table.openings(s)] for s in self.local
                }
                self._append("openings", {"o": opened})
                return True
            return False
        for seat in sorted(match.game.to_move(match.state)):
            if seat not in self.local:
                continue
            store = self.stores[seat]
            auto = match.game.auto_action(match.state, seat, store)
            if auto is not None:
                self._act(seat, auto)
                return True
            if str(seat) in self.bots:
                decision = next_decision(self.table, {seat: self.bots[str(seat)]})
                if decision is not None and decision.choice is not None:
                    self._act(decision.seat, decision.choice)
                    return True
            return self._note_seen(seat)  # a person decides: nothing of ours after theirs
        return False

    def _opened(self) -> bool:
        return any(r.kind == "openings" for (d, _), r in self.records.items() if d == self.me)

    def _act(self, seat: int, choice: object) -> str | None:
        """Seal `choice` for our `seat` and append it; the engine's sentence if refused."""
        table = self.table
        assert table is not None
        match = table.match
        try:
            action = table.game.seal(match.state, seat, choice, self.stores[seat])
            action_json = table.game.action_to_json(action)
            table.game.apply(match.state, seat, action)  # refused here, before it is signed
        except ParlourError as error:
            return error.sentence
        except (ValueError, KeyError):
            return "That choice cannot be made now."
        body: dict[str, Json] = {
            "s": seat,
            "a": action_json,
            "at": match.step,
            "h": match.head()[:16],
            "t": int(self.now),
        }
        self._append("act", body)
        return None
