"""`OnlineSession`: one device's side of an online match, with every message type's handler.

The concerns live in their own modules (see the package's docstring); this one puts them
together, makes a host's or a guest's session, and is where a message and the clock come in:
`receive` checks a message's form and number, then hands it to its handler from the table in
`_handlers` (one line per message type); `tick` runs the heartbeat and every time allowed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum
from typing import Any, Self

from parlour.errors import IllegalAction, MalformedInput, ParlourError, ProtocolError
from parlour.fair.encoding import Json
from parlour.fair.signing import DeviceKey, Signed
from parlour.games.base import Game
from parlour.match.config import MatchConfig
from parlour.match.online.device import DEFAULT_REVEAL_LIMIT, HOST, Crypto, Link, seat_peer
from parlour.match.online.saves import Saves
from parlour.match.wire import Message, decode
from parlour.words import and_list

# A message's handler: its link, and its body, as the TypedDict of its type in match/wire_bodies.py
# (`decode` checked it against that type's shape before the handler sees it).
Handler = Callable[[Link, Any], None]


class Phase(StrEnum):
    """Where a session stands, as its screens show it (worked out from its state: `phase`)."""

    LOBBY = "lobby"  # waiting for the guests (a guest: waiting for the host's welcome)
    SEED = "seed"  # everyone is here: committing and revealing the seed
    PLAY = "play"
    END = "end"  # over: openings and the audit
    FORFEIT = "forfeit"  # over before it began: a seat did not reveal its part of the seed
    ABORTED = "aborted"


class OnlineSession(Saves):
    """One device's side of an online match: the host's (the log's keeper) or a guest's.

    Pure: a transport hands it what arrived (`receive`) and tells it of connections (`opened`,
    `closed`); it answers by filling `outbox`. Time is passed in (`now`, `tick`). A player on
    this device acts through `act`; a screen reads `phase`, `table`, `notices`, `verdicts`.
    """

    @classmethod
    def host(
        cls,
        game: Game[Any, Any],
        config: MatchConfig,
        local: tuple[int, ...],
        now: float,
        reveal_limit: int = DEFAULT_REVEAL_LIMIT,
        private: dict[int, dict[str, Json]] | None = None,
        crypto: Crypto | None = None,
    ) -> Self:
        """The host's session: `local` seats here, one invite for every other seat; `private`
        are its players' own choices for dealing (an ESPEERS deck), never sent."""
        game.check_setup(config.setup())
        if not local or not set(local) <= set(range(len(config.seats))):
            raise IllegalAction("The host plays at least one seat of the game.")
        session = cls("host", now, crypto)
        if crypto is not None:
            session.keys = {HOST: DeviceKey.of(crypto.signer)}
        session.limits = {"reveal": reveal_limit}
        remote = [s for s in range(len(config.seats)) if s not in local]
        if not remote:
            raise IllegalAction("Invite at least one player, or play on one device.")
        session.links = {seat_peer(s): Link(seat_peer(s), (s,)) for s in remote}
        session.private = dict(private or {})
        session._begin(game, config, tuple(sorted(local)))
        return session

    @classmethod
    def guest(cls, now: float, crypto: Crypto | None = None) -> Self:
        """A guest's session before the host's welcome: it knows nothing of the game yet."""
        session = cls("guest", now, crypto)
        session.links = {HOST: Link(HOST, ())}
        return session

    @property
    def phase(self) -> Phase:
        if self.forfeit is not None:
            return Phase.FORFEIT
        if self.aborted:
            return Phase.ABORTED
        if self.table is not None:
            return Phase.END if self.table.match.result() is not None else Phase.PLAY
        if self.config is not None and self._everyone_here():
            return Phase.SEED
        return Phase.LOBBY

    # -- a message comes in --------------------------------------------------------------

    def _handlers(self) -> dict[str, Handler]:
        """Every message type, and what acts on it (the same types as wire_bodies.SHAPES)."""
        return {
            "hello": self._on_hello,  # joining.py
            "welcome": self._on_welcome,  # joining.py
            "deal-lock": self._on_deal_lock,  # seed.py
            "deal-unlock": self._on_deal_unlock,  # seed.py
            "seed-commit": self._on_seed_commit,  # seed.py
            "seed-reveal": self._on_seed_reveal,  # seed.py
            "seed-forfeit": self._on_seed_forfeit,  # seed_forfeit.py
            "propose": self._on_propose,  # moves.py
            "entries": self._on_entries,  # moves.py
            "reject": self._on_reject,  # moves.py
            "openings": self._on_openings,  # verdicts.py
            "verdict": self._on_verdict,  # verdicts.py
            "status": self._on_status,  # links.py
            "ping": self._on_ping,  # links.py
            "pong": self._on_pong,  # links.py
        }

    def receive(self, peer: str, text: object, now: float) -> None:
        """One message from `peer`: checked, then acted on; a refusal changes nothing."""
        self.now = now
        link = self.links.get(peer)
        if link is None:
            return
        link.heard = now
        try:
            message = decode(text, self.version)
        except MalformedInput as error:
            # never answer a refusal with one: two versions of the page would go on for ever
            self._reject(link, error.sentence, reply=not _a_reject(text))
            return
        if message.n <= link.n_in:
            self._reject(
                link,
                f"Message {message.n} arrived a second time (a replay) and was ignored.",
                reply=message.type != "reject",
            )
            return
        if message.n != link.n_in + 1:
            self._notice(
                f"Messages from {self._who(link)} went missing ({link.n_in + 1} to "
                f"{message.n - 1})."
            )
        link.n_in = message.n
        handler = self._handlers()[message.type]
        try:
            self._check_acks(message.acks)  # verdicts.py; first: a refusal changes nothing
            self._incoming = self._signed(message)
            handler(link, message.body)
            self._take_acks(link, message.acks)
        except ParlourError as error:
            self._reject(link, error.sentence, reply=message.type != "reject")
        finally:
            self._incoming = None

    def signature_checks(self, text: object) -> list[tuple[str, bytes, bytes, bytes]]:
        """Signed play: the checks `receive` will make of this message, as (algorithm, key,
        signed bytes, signature): the page's `verify` cannot answer at once (WebCrypto answers
        with a promise), so the page makes these first and `receive` reads its answers. A
        message this device would refuse anyway needs none."""
        if not self.signing:
            return []
        try:
            message = decode(text, self.version)
        except MalformedInput:
            return []
        records: list[Signed] = []
        match_id: object = self.config.match_id if self.config is not None else None
        keys = dict(self.keys)
        if message.signed is not None:
            records.append(message.signed)
        records += message.acks
        if message.type == "welcome":
            match_id = message.body["config"].get("match_id")
            raw = message.body["keys"].get(HOST)
            if raw is not None:
                keys[HOST] = DeviceKey.from_json(raw)
        for proof in message.body.get("proofs", []) if message.type == "entries" else []:
            records.append(Signed.from_json(proof))
        if not isinstance(match_id, str):
            return []
        try:
            return [
                (key.algorithm, key.public, record.payload(match_id), record.signature)
                for record in records
                if (key := keys.get(record.device)) is not None and record.signature is not None
            ]
        except MalformedInput:
            return []

    def _signed(self, message: Message) -> Signed | None:
        """Signed play: a message a device originated is checked against its sender's key for
        this game (a welcome brings the host's key and the game with it) before its handler."""
        record = message.signed
        if record is None:
            return None
        if record.kind != "welcome":
            if self.config is None:
                raise ProtocolError(f"A {record.kind!r} message arrived before the welcome.")
            self._check_signature(record, self.config.match_id, self._key_of(record.device))
            return record
        if record.device != HOST or self.is_host:
            raise ProtocolError("Only the host welcomes, and only a guest is welcomed.")
        match_id = message.body["config"].get("match_id")
        raw = message.body["keys"].get(HOST)
        key = DeviceKey.from_json(raw) if raw is not None else None
        if not isinstance(match_id, str):
            raise MalformedInput("A welcome without a match was ignored.")
        known = self.keys.get(HOST)
        same = self.config is not None and self.config.match_id == match_id
        if same and known is not None and key != known:
            raise ProtocolError("The host's device came back with another key: refused.")
        self._check_signature(record, match_id, key)
        return record

    # -- time passes ---------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Called often (about twice a second): heartbeats, lost peers, stalls."""
        self.now = now
        self._acknowledge()  # verdicts.py: off a move's way, so no move waits for its signing
        self._heartbeat(now)
        self._maybe_settle()
        if self.is_host:
            self._check_stalls(now)
            return
        self._watch_the_seed()
        self.run_automatic()  # a step the host refused (or never had) is sent again
        if self.ended_at is not None and now - self.ended_at > self.limits["reveal"]:
            self._maybe_audit(deadline_passed=True)

    def _check_stalls(self, now: float) -> None:
        """The host's clock: whoever holds the match up past the time allowed. Before anyone
        could know the seed the set-up stops; after, a seat that withholds its reveal forfeits
        the match; in play, a seat that does not take a step its own device owes forfeits;
        at the end, the audit goes ahead without the openings that did not come."""
        limit = self.limits["reveal"]
        phase = self.phase
        joint = next(iter(self.joint.values()), None)
        seeding = self.table is None and self.forfeit is None and not self.aborted
        if seeding and joint is not None and joint.all_committed():
            # connected or not: a seat that saw the others' reveals and then left, instead of
            # stalling, must not get a free second draw either
            if self._waited(self.committed_at, limit):
                self._declare_seed_forfeit(joint.missing_reveals())
        elif phase is Phase.SEED and self._waited(self.gathered_at, limit):
            # nobody could know the seed yet: stopping the set-up gives nobody a second draw
            if joint is not None:
                missing = joint.missing_commitments()
            else:
                missing = self.dealing.waiting_for() if self.dealing is not None else []
            names = and_list([self.name(s) for s in missing])
            self.aborted = f"{names} did not take part in drawing the seed in time."
            self._notice(f"{self.aborted} The game cannot start.")
        elif phase is Phase.PLAY and self.table is not None and now - self.changed_at > limit:
            game, match = self._the_game(), self.table.match
            for seat in sorted(game.to_move(match.state)):
                if seat not in self.local and game.automatic(match.state, seat):
                    result = match.submit_json(seat, {"forfeit": seat})
                    if result.entry is not None:
                        self._notice(f"{self.name(seat)} did not take a required step in time.")
                        self._appended(result.entry)
                    return
        elif phase is Phase.END and self.ended_at is not None and now - self.ended_at > limit:
            self._maybe_audit(deadline_passed=True)

    def _waited(self, since: float | None, limit: float) -> bool:
        return since is not None and self.now - since > limit


def _a_reject(text: object) -> bool:
    """Is this (refused) text a refusal itself, whatever its version?"""
    try:
        data = json.loads(text) if isinstance(text, str) and len(text) < 4096 else None
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("t") == "reject"
