"""Before the first move: deal, commit, then draw the public seed together.

Every device deals its own seats' private values and commits to them; shared decks (Telepathic's
cards) are dealt across devices first, lock by lock (`deal-lock`, `deal-unlock`, see
match/dealing.py). Then every seat commits to 32 random bytes (`seed-commit`, which also binds
what was dealt to it), and once every commitment is in, all reveal them (`seed-reveal`): every
device computes the same seed, and the table is laid. Dealing comes before the seed, so no device
can deal again once it knows the seed. Every step is kept in `seed_log`, to replay to a device
that joins late.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from parlour.errors import ProtocolError
from parlour.fair.commit import Context, Opening
from parlour.fair.joint import JointRandomness
from parlour.fair.store import PrivateStore
from parlour.games.base import Game, Outcome
from parlour.match.config import MatchConfig
from parlour.match.dealing import Dealing, lock_label, new_locks
from parlour.match.match import Match
from parlour.match.online.device import HOST, Device, Link
from parlour.match.table import Table, deal_stores, dealt_commitments
from parlour.match.wire_bodies import (
    DealLock,
    DealStep,
    DealUnlock,
    SeedCommit,
    SeedReveal,
    SeedStep,
)


class SeedDraw(Device):
    """This device's part in dealing and in drawing the seed, and what it heard of the others'."""

    def _new_seed_draw(self) -> None:
        self.joint: dict[int, JointRandomness] = {}  # each local seat's part in the seed
        self.dealing: Dealing | None = None  # the decks dealt across devices
        self.seed_log: list[SeedStep] = []  # every step, to replay to a device that joins
        self.dealt: dict[str, dict[str, str]] = {}  # each seat's dealt commitments, by label
        self.gathered_at: float | None = None  # when every seat was first connected
        self.committed_at: float | None = None  # when every seed commitment was in (our clock)
        self.aborted = ""  # why the set-up stopped before anyone could know the seed
        # A seat that did not reveal its part of the seed once every commitment was in (it may
        # have computed the seed, and disliked it): the match is over, forfeited by that seat
        # (seed_forfeit.py).
        self.forfeit: Outcome | None = None

    # -- our own part ----------------------------------------------------------------------

    def _begin(self, game: Game[Any, Any], config: MatchConfig, local: tuple[int, ...]) -> None:
        """Lock any shared deal, then deal this device's seats and commit to their values and to
        our random bytes: all before the seed exists."""
        self.game, self.config, self.local = game, config, local
        self.stores = {s: PrivateStore(Context(config.match_id, s)) for s in local}
        deals = game.shared_deals(config.setup())
        new_locks(deals, self.stores)
        self.dealing = Dealing(deals, config.seats, config.match_id)
        self._advance_deals()

    def _advance_deals(self) -> None:
        """Take our due steps in the shared deals; once our cards are known, deal and commit."""
        if self.joint or self.dealing is None:
            return
        for step in self.dealing.my_steps(self.stores):
            self.seed_log.append(step)
            self._broadcast(step[0], **step[1])
        try:
            shared = self.dealing.my_cards(self.stores)
        except ProtocolError as error:
            self.aborted = f"{error.sentence} The game cannot start."
            raise
        if shared is None:
            return
        game, config = self._the_game(), self._the_config()
        deal_stores(game, config, self.local, self.stores, shared, self.private)
        self._commit_seed()

    def _commit_seed(self) -> None:
        config = self._the_config()
        names = list(config.seats)
        self.joint = {s: JointRandomness(config.match_id, names, s) for s in self.local}
        for step in list(self.seed_log):  # commitments that came while we dealt
            if step[0] == "seed-commit" and step[1]["seat"] not in self.local:
                self._feed_commit(step[1])
        dealt = dealt_commitments(self.stores)
        for seat in self.local:
            body: SeedCommit = {
                "seat": seat,
                "commitment": self.joint[seat].my_commitment(),
                "dealt": dealt.get(str(seat), {}),
            }
            self._take_commit(body)
            self._broadcast("seed-commit", **body)
        self._maybe_reveal()

    def _maybe_reveal(self) -> None:
        """Once every commitment is in, reveal our seats' parts (once each)."""
        if self.table is not None or not self.joint:
            return
        if not all(j.all_committed() for j in self.joint.values()):
            return
        self._note_committed()
        for seat in self.local:
            if seat in self._revealed():
                continue
            body: SeedReveal = {"seat": seat, "opening": self.joint[seat].my_reveal().to_json()}
            self._take_reveal(body)
            self._broadcast("seed-reveal", **body)
        self._maybe_start()

    def _resend_own_seed(self) -> None:
        """A returning guest sends its own seed messages again; the host knows duplicates.
        (Even once its game has begun here: the host may still lack its reveal.)"""
        for step in self.seed_log:
            if step[1]["seat"] in self.local:
                self._send(self.links[HOST], step[0], **step[1])

    # -- the others' commitments -------------------------------------------------------------

    def _on_seed_commit(self, link: Link, body: SeedCommit) -> None:
        self._check_sender(link, body["seat"], "commitment")
        if self.config is None:
            raise ProtocolError("A commitment arrived before the host's welcome.")
        if self.table is not None or body["seat"] in self.local:
            return
        if self._take_commit(body):
            self._broadcast("seed-commit", skip=link, **body)
        self._maybe_reveal()

    def _take_commit(self, body: SeedCommit) -> bool:
        """Record a seat's seed commitment (and dealt commitments); False if we had it."""
        seat = body["seat"]
        if not 0 <= seat < len(self._the_config().seats):
            raise ProtocolError(
                f"A commitment came for seat {seat + 1}, which is not in this game."
            )
        expected = self._dealt_labels(seat)
        if set(body["dealt"]) != expected:
            raise ProtocolError(
                f"{self.name(seat)}'s commitment does not bind what was dealt to them "
                f"({', '.join(sorted(expected)) or 'nothing'}) before the seed: refused."
            )
        self._feed_commit(body)
        known = next(
            (b for t, b in self.seed_log if t == "seed-commit" and b["seat"] == seat), None
        )
        if known is not None:
            if known != body:
                raise ProtocolError(f"{self.name(seat)} sent a second, different commitment.")
            return False
        self.seed_log.append(("seed-commit", body))
        if body["dealt"]:
            self.dealt[str(seat)] = dict(body["dealt"])
        self.revision += 1
        self._note_committed()
        return True

    def _note_committed(self) -> None:
        """The reveals' clock starts when every commitment is in, on this device."""
        if self.committed_at is None and any(j.all_committed() for j in self.joint.values()):
            self.committed_at = self.now

    def _dealt_labels(self, seat: int) -> set[str]:
        """What `seat` must commit to before the seed: its dealt values and its locks on shared
        decks."""
        game, setup = self._the_game(), self._the_config().setup()
        locks = {lock_label(d.label) for d in game.shared_deals(setup) if seat in d.seats}
        return set(game.dealt_labels(setup, seat)) | locks

    def _feed_commit(self, body: SeedCommit) -> None:
        seat, commitment = body["seat"], body["commitment"]
        for joint in self.joint.values():
            known = joint.commitments.get(seat)
            if known == commitment:
                continue
            if known is not None:
                raise ProtocolError(f"{self.name(seat)} sent a second, different commitment.")
            joint.receive_commitment(seat, commitment)

    # -- the others' deal steps --------------------------------------------------------------

    def _on_deal_lock(self, link: Link, body: DealLock) -> None:
        dealing = self._dealing_for(link, body["seat"])
        if dealing is None:
            return
        if dealing.take_lock(body):
            self._took_deal_step(link, ("deal-lock", body))
        self._advance_deals()

    def _on_deal_unlock(self, link: Link, body: DealUnlock) -> None:
        dealing = self._dealing_for(link, body["seat"])
        if dealing is None:
            return
        if dealing.take_unlock(body):
            self._took_deal_step(link, ("deal-unlock", body))
        self._advance_deals()

    def _dealing_for(self, link: Link, seat: int) -> Dealing | None:
        """The deals a step of `seat` goes into; None once the game began, or for our own."""
        self._check_sender(link, seat, "deal step")
        if self.dealing is None or self.table is not None or seat in self.local:
            return None
        return self.dealing

    def _took_deal_step(self, link: Link, step: DealStep) -> None:
        self.seed_log.append(step)
        self._broadcast(step[0], skip=link, **step[1])
        self.revision += 1

    # -- the others' reveals, and the table --------------------------------------------------

    def _on_seed_reveal(self, link: Link, body: SeedReveal) -> None:
        self._check_sender(link, body["seat"], "reveal")
        if self.table is not None or self.forfeit is not None or body["seat"] in self.local:
            return
        try:
            fresh = self._take_reveal(body)
        except ProtocolError as error:
            self.aborted = f"{error.sentence} The game cannot start."
            raise
        if fresh:
            self._broadcast("seed-reveal", skip=link, **body)
        self._maybe_start()

    def _take_reveal(self, body: SeedReveal) -> bool:
        """Check a seat's reveal against its commitment and keep it; False if we had it."""
        seat = body["seat"]
        opening = Opening.from_json(body["opening"])
        for joint in self.joint.values():
            known = joint.reveals.get(seat)
            if known is not None:
                if known.hex() != opening.value:
                    raise ProtocolError(f"{self.name(seat)} revealed twice, differently.")
                continue
            if seat == joint.me:
                continue
            joint.receive_reveal(seat, opening)
        if seat in self._revealed():
            return False
        self.seed_log.append(("seed-reveal", body))
        self.revision += 1
        return True

    def _revealed(self) -> set[int]:
        """The seats whose reveal this device has."""
        return {step[1]["seat"] for step in self.seed_log if step[0] == "seed-reveal"}

    def _maybe_start(self) -> None:
        """Every reveal in and every shared deal complete: the seed is known, the table laid."""
        if self.table is not None or not self.joint or self.forfeit is not None:
            return
        joint = next(iter(self.joint.values()))
        if joint.missing_reveals():
            return
        if self.dealing is not None and not self.dealing.complete():
            return
        shared = self.dealing.records() if self.dealing else {}
        config = replace(self._the_config(), dealt=dict(self.dealt), shared=shared)
        self.table = Table(Match(self._the_game(), config, joint.seed()), self.stores)
        self.changed_at = self.now
        self._notice("Everyone is here: the game begins.")
        self.run_automatic()
