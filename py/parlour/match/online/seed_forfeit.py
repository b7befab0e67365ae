"""A stall after every seed commitment is in: a forfeit, not a free second draw.

Once every seat has committed, a seat that has everyone else's reveal can work out the seed before
it reveals its own part. Were the set-up simply to stop when it stalls, it could see the seed and
veto it for free. So the host declares a seat that does not reveal in time forfeit
(`seed-forfeit`), and a guest checks that word against its own clock and what it has before it
takes it. Since only the host declares, and the host hears every reveal first, each guest also
keeps its own clock for the host's seats.
"""

from __future__ import annotations

from parlour.errors import ProtocolError
from parlour.games.base import Outcome, Termination
from parlour.match.online.device import HOST, SLACK, Link
from parlour.match.online.seed import SeedDraw
from parlour.match.wire_bodies import SeedForfeit as SeedForfeitBody
from parlour.words import and_list


class SeedForfeit(SeedDraw):
    """The seed forfeit: declared by the host, checked and taken (or declared) by a guest."""

    def _new_seed_forfeit(self) -> None:
        self.stalled: tuple[int, ...] = ()  # the seats that forfeited while the seed was drawn
        self.claimed: list[int] = []  # a guest's: seats the host said forfeit, not yet sure

    def forfeit_seats(self) -> list[int]:
        """The seats that forfeited while the seed was drawn (none, mostly)."""
        return list(self.stalled) if self.forfeit is not None else []

    def _declare_seed_forfeit(self, seats: list[int]) -> None:
        """The host: `seats` did not reveal in time once every commitment was in. Had the
        set-up just stopped, the last to reveal could see the seed first and veto it for free."""
        self.forfeit = self._seed_forfeit_outcome(seats)
        self._notice(self.forfeit.reason)
        self._broadcast("seed-forfeit", seats=seats)

    def _seed_forfeit_outcome(self, seats: list[int]) -> Outcome:
        self.stalled = tuple(seats)
        game, config = self._the_game(), self._the_config()
        setup = config.setup()
        winners = set(range(len(config.seats))) - set(seats)
        for seat in seats:
            winners &= game.forfeit_winners(setup, seat)
        who = and_list([self.name(s) for s in seats])
        verb = "forfeits" if len(seats) == 1 else "forfeit"
        return Outcome(
            Termination.FORFEIT,
            frozenset(winners),
            f"{who} did not reveal their part of the seed in time, after every device had "
            f"committed to its own, and {verb} the game.",
        )

    def _on_seed_forfeit(self, link: Link, body: SeedForfeitBody) -> None:
        """A guest checks the host's word before it takes it: every commitment in, the time
        up by its own clock, and no reveal from those seats among what it has (its own is
        sent again on every connection, so the host has it)."""
        if self._incoming is not None and self._incoming.device != HOST:
            raise ProtocolError("Only the host declares a forfeit: refused as forged.")
        if self.is_host:
            raise ProtocolError("Only the host declares a forfeit.")
        seats = sorted(set(body["seats"]))
        joint = next(iter(self.joint.values()), None)
        if self.config is None or self.forfeit is not None:
            return
        if not seats or any(s >= len(self.config.seats) for s in seats):
            raise ProtocolError("The host declared a forfeit of no seat in this game: refused.")
        if joint is None or not joint.all_committed():
            raise ProtocolError(
                "The host declared a forfeit while the seed was drawn, before every commitment "
                "was in: refused as forged."
            )
        revealed = self._revealed()
        for seat in seats:
            if seat in revealed:
                raise ProtocolError(
                    f"The host declared {self.name(seat)} forfeit for not revealing, but "
                    f"{self.name(seat)}'s reveal {'was sent' if seat in self.local else 'came'} "
                    "on time: refused as forged."
                )
        if not self._seed_time_up():
            self.claimed = seats  # taken once the time is up here too, if no reveal comes
            raise ProtocolError(
                "The host declared a forfeit while the seed was drawn before the time allowed "
                "was up by this device's clock: not taken (yet)."
            )
        self._take_seed_forfeit(seats)

    def _seed_time_up(self, since: float | None = None) -> bool:
        """Is the time allowed for the reveals up by this device's clock (less a little for
        the way)? Counted from when every commitment was in here, or from `since`, if later."""
        start = self.committed_at
        if start is None:
            return False
        if since is not None:
            start = max(start, since)
        return self.now - start >= self.limits["reveal"] - SLACK

    def _take_seed_forfeit(self, seats: list[int]) -> None:
        self.forfeit = self._seed_forfeit_outcome(seats)
        self.claimed = []
        self._notice(self.forfeit.reason)

    def _watch_the_seed(self) -> None:
        """A guest's own seed clock. The host's seats reveal through the host only, and only
        the host declares forfeits: so a guest declares the host's seats forfeit itself when
        their reveals have not come in the time allowed, counted while it was connected to the
        host (a host that stalled could otherwise see the seed and veto it for free). And a
        forfeit the host declared too early for this device's clock is taken once it is up
        here too, if the reveals still have not come."""
        joint = next(iter(self.joint.values()), None)
        if self.table is not None or self.forfeit is not None or joint is None:
            return
        if not joint.all_committed():
            return
        revealed = self._revealed()
        if self.claimed and self._seed_time_up():
            if revealed & set(self.claimed):
                self.claimed = []  # the reveal came after all: the host was wrong
            else:
                self._take_seed_forfeit(self.claimed)
                return
        host = self.links[HOST]
        missing = [s for s in host.seats if s not in revealed]
        if missing and host.state == "connected" and self._seed_time_up(since=host.opened):
            self._take_seed_forfeit(missing)
