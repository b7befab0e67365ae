"""What a device's game by link says to its player: the news a link brought, in the players'
words, whom or what the device waits for, why a game cannot go on, and the line for "Your games".
"""

from __future__ import annotations

from parlour.fair.encoding import Json
from parlour.fair.signing import Signed
from parlour.match.audit import Verified
from parlour.match.by_link.keeping import Keeping
from parlour.match.by_link.records import seat_of
from parlour.match.by_link.start import Starting
from parlour.match.by_link.timing import Timing
from parlour.words import and_list

# What a record that is not a move says a player did, in the players' words (a link's news).
DEEDS = {
    "join": "joined",
    "commit": "got ready",
    "lock": "dealt their part of the cards",
    "unlock": "dealt their part of the cards",
    "reveal": "started the game",
    "act": "made a move that waits for an earlier link",
    "claim": "claimed the game on time",
    "seen": "got a move that came late",
    "due": "started the clock on a player who has their cards to get ready",
    "openings": "showed their secrets for the final check",
    "carry": "carried the live game on by link",
    "carried": "carried on by link from the same move",
}
VOID_CLAIM = "claimed the game on time before the time was up (it does not count)"
SHUFFLED = "started the game"


class Telling(Keeping, Starting, Timing):
    """The sentences of a game by link, from its records and the state derived from them."""

    def _news(self, step_before: int, fresh: list[Signed]) -> str:
        """A sentence on what a link brought, and what this device waits for now."""
        step = self.match.step if self.match is not None else 0
        came = {(r.device, r.seq) for r in fresh if r.kind in ("act", "claim")}
        moves = max(step - step_before, sum(1 for source in self.sources if source in came))
        if moves:
            told = f"Took {moves} new move{'s' if moves != 1 else ''}. {self._claimed()}"
        else:
            told = self._deeds(fresh)
        return f"{told}{self.waiting()}"

    def _deeds(self, fresh: list[Signed]) -> str:
        """What the others did that is not a move, in the players' words ("Bo joined and
        sealed their share of the shuffle."), each device once per kind of deed."""
        said: dict[str, list[str]] = {}
        for record in fresh:
            deed = DEEDS.get(record.kind)
            seat = seat_of(record.kind, record.body)
            if deed is None:
                continue
            if record.kind == "claim" and not self._timed_out() and self.forfeit is None:
                deed = VOID_CLAIM
            who = "You" if seat in self.local else self.name(seat) if seat is not None else ""
            who = who or next(
                (self.name(s) for s in sorted(self.held.get(record.device, ()))), "A player"
            )
            deeds = said.setdefault(who, [])
            if deed not in deeds:
                deeds.append(deed)
            if DEEDS["commit"] in deeds and DEEDS["reveal"] in deeds:  # sealed and shown at once
                deeds[deeds.index(DEEDS["commit"])] = SHUFFLED
                deeds.remove(DEEDS["reveal"])
        if not said:
            return ""  # the clock's tick, or only a device's word on what it holds
        return " ".join(f"{who} {and_list(deeds)}." for who, deeds in said.items()) + " "

    def _claimed(self) -> str:
        """What a claim of time did, once it ended the game ("Ada claimed the game: ...")."""
        match = self.match
        if match is None or not self._timed_out():
            return ""
        entry = match.entries[-1]
        late = entry.action.get("timeout") if isinstance(entry.action, dict) else None
        claimant = "You" if entry.seat in self.local else self.name(entry.seat)
        return f"{claimant} claimed the game: {self.name(int(late or 0))} ran out of time. "

    def waiting(self) -> str:
        """Whom or what this device waits for, in a sentence ("Waiting for Bo's move 12.")."""
        if self._halted():
            return self._halted()
        gap = self._behind() or self._gap()
        if gap:
            return gap
        match = self.match
        if match is None:
            return self._waiting_to_start()
        if match.result() is not None:
            if isinstance(self.audit_result, Verified):
                return "The game is over and checked."
            if self.audit_result is not None:
                return f"The game is over and checked: {self.audit_result.reason}"
            missing = [self.name(s) for s in range(len(self.names)) if s not in self.openings]
            return (
                f"The game is over: waiting for the last link of {and_list(missing)}, which "
                "shows their hidden choices for the final check."
            )
        due = sorted(match.game.to_move(match.state))
        if due[0] in self.local:
            return f"{self.name(due[0])} to move (move {match.step + 1})."
        mover = self.device_of(due[0]) or ""
        record = self.records.get((mover, self.consumed.get(mover, 0) + 1))
        if record is not None and record.kind == "act" and self._ahead(record):
            return (
                f"{self.name(due[0])}'s move {match.step + 1} is signed for a time ahead of this "
                "device's clock: it counts once the clock gets there (check both clocks)."
            )
        return f"Waiting for {self.name(due[0])}'s move {match.step + 1}."

    def _halted(self) -> str:
        """Why the game cannot go on here, or "": a record that broke the protocol (kept as
        proof), or a device proven to have signed two different entries for one step (a fork:
        the game cannot go on two ways)."""
        if self.forfeit is not None:
            return self.forfeit.reason
        if self.stopped or not self.forks:
            return self.stopped
        fork = self.forks[0]
        who = self._device_name(fork.device, self.held)
        return (
            f"{who} signed two different entries for its step {fork.first.seq}: the game "
            "cannot go on; both are kept as proof."
        )

    def summary(self) -> dict[str, Json]:
        """A line for "Your games": the game, the players, whose turn, when the last link came."""
        match = self.match
        due = sorted(match.game.to_move(match.state)) if match is not None else []
        result = match.result() if match is not None else None
        return {
            "match": self.match_id,
            "game": self.game.id if self.game is not None else "",
            "players": list(self.names),
            "mine": list(self.local),
            "my_turn": bool(due) and due[0] in self.local and result is None and not self._halted(),
            "waiting": self.waiting(),
            "over": result is not None or self.forfeit is not None,
            "last_link_at": int(self.last_link_at),
        }
