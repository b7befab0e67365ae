"""What the player does in a game by link: a move (`act`), a claim of time against the seat the
game waits on (`claim`), and the clock moved on (`tick`), each answered with an `Outcome`.
"""

from __future__ import annotations

from parlour.fair.encoding import Json
from parlour.match.by_link.deriving import Deriving
from parlour.match.by_link.sending import Outcome, Sending
from parlour.match.by_link.timing import duration


class Acting(Deriving, Sending):
    """The player's own moves and claims."""

    def act(self, seat: int, choice: object, now: float) -> Outcome:
        """Our player's move for `seat` (a choice as `Table.legal` lists it): sealed here,
        signed, and the link(s) to send. Refused with a sentence, changing nothing."""
        self.now = max(self.now, now)
        match = self.match
        if self._halted():
            return Outcome(self._halted(), ok=False)
        if match is None:
            return Outcome("The game has not started yet: " + self.waiting(), ok=False)
        if seat not in self.local:
            return Outcome(f"{self.name(seat)} is not played on this device.", ok=False)
        if self._behind():
            return Outcome(self._behind(), ok=False)
        if match.result() is not None:
            return Outcome("The game is over.", ok=False)
        if self._mine() > self.consumed.get(self.me, 0):
            return Outcome("Your last move waits for the others' first: send it.", ok=False)
        in_turn = seat in match.game.to_move(match.state)
        first = min((s for s in match.game.to_move(match.state) if s in self.local), default=seat)
        if first != seat:
            return Outcome(f"{self.name(first)} acts first on this device.", ok=False)
        before = self._mine()
        refused = self._act(seat, choice)  # out of turn: the game's rules say if it may
        if refused is not None and not in_turn:
            return Outcome(f"It is not {self.name(seat)}'s turn. {self.waiting()}", ok=False)
        if refused is not None:
            return Outcome(refused, ok=False)
        self._run()
        return self._after("Send this link to the others.", before)

    def tick(self, now: float) -> Outcome:
        """The clock moved on (the page opened, or a minute passed): a claim of time that was
        ahead of this device's clock may now count."""
        self.now = max(self.now, now)
        before, step = self._mine(), self.match.step if self.match is not None else 0
        self._run()
        return self._after(self._news(step, []), before)

    def claim(self, now: float) -> Outcome:
        """Claim the game when the seat it waits on is past the time per move: for a move, for
        its seed reveal once every commitment is in, or for its seals at the end."""
        self.now = max(self.now, now)
        if self._halted():
            return Outcome(self._halted(), ok=False)
        owed = self.owed() if self.limit else None
        if owed is None and self.limit and self.match is None:
            return Outcome(
                "The time per move counts from the first move, from your link that starts the "
                "game, or from when a player's cards were dealt to them: before that nobody can "
                f"be claimed against. {self.waiting()}",
                ok=False,
            )
        if owed is None:
            return Outcome("There is no time per move to claim in this game now.", ok=False)
        seat, what, since = owed
        if seat in self.local:
            return Outcome("The game waits on you, not on another player.", ok=False)
        left = since + self.limit - int(now)
        if left > 0:
            return Outcome(f"{self.name(seat)} still has {duration(left)} for this {what}.", False)
        step = self.match.step if self.match is not None else 0
        body: dict[str, Json] = {"s": seat, "by": self.local[0], "at": step, "t": int(now)}
        before = self._mine()
        self._append("claim", body)
        self._run()
        said = f"You claimed the game: {self.name(seat)} ran out of time for their {what}."
        return self._after(said, before)
