"""Online play: one device's side of a match played over a network (pure: text in, text out).

The shape is a star. The host's device holds the authoritative log: it appends its own seats'
moves, checks every move a guest proposes with its own engine, and relays each new entry to every
guest, whose engines check it again. Nothing here touches a network: a transport (WebRTC, a
BroadcastChannel, or the in-memory one of the tests) hands `receive` the text it got, asks
`opened` and `closed` about connections, and sends what `outbox` collects. Time is passed in
(`now`, in seconds), so heartbeats and time-outs are tested without waiting.

How a match goes:
1. The host makes one invite per remote seat. A guest's device connects and says `hello`; the
   host answers `welcome` (the set-up and the guest's seat) and replays what came before.
2. Every device deals its seats' private values and commits to them, and every seat commits to
   32 random bytes (`seed-commit`); once all commitments are in, all reveal (`seed-reveal`) and
   every device computes the same public seed. Dealing before the seed means no device can deal
   again once it knows the seed.
3. Play: a guest `propose`s a move (sealed on its own device: secrets never travel); the host
   appends it or rejects it with the engine's sentence; `entries` carry new log entries. A move
   for a guest's own seat that it never proposed is refused as forged.
4. At the end every device sends the openings it holds; every device runs the audit and tells
   the others its verdict.
Robustness: every message is numbered per connection (a replay is refused), checked by
`wire.decode` first (malformed or oversized is refused), a heartbeat notices a silent peer within
`LOST_AFTER` seconds, a guest that comes back gets the log again from where it was, and a seat
that stalls on a step its own device must take (a seal, an answer, a reveal) forfeits after the
time-out chosen at set-up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from parlour.errors import IllegalAction, MalformedInput, ParlourError, ProtocolError
from parlour.fair.commit import Context, Opening
from parlour.fair.encoding import check_text
from parlour.fair.joint import JointRandomness
from parlour.fair.store import PrivateStore
from parlour.games import game_by_id
from parlour.games.base import Game, Outcome, Termination
from parlour.match.audit import AuditResult, Cheat, Unverified, Verified, audit
from parlour.match.config import MatchConfig
from parlour.match.dealing import Dealing, lock_label, new_locks
from parlour.match.log import LogEntry
from parlour.match.match import Match, Submitted, forfeited_seat
from parlour.match.table import Table, deal_stores, dealt_commitments
from parlour.match.wire import MAX_ENTRIES, Message, decode, encode

FORMAT = "psi-parlour/online"
FORMAT_VERSION = 1
LOST_AFTER = 5.0  # seconds without a word from a peer: it is lost
PING_EVERY = 1.0
HOST = "host"
SLACK = 2.0  # seconds a guest allows for the way, when it checks the host's clock
HELLO_AGAIN = 3.0  # seconds a guest waits for the welcome before greeting the host again
DEFAULT_REVEAL_LIMIT = 120
MAX_NOTICES = 30


class Phase(StrEnum):
    LOBBY = "lobby"  # waiting for the guests (a guest: waiting for the host's welcome)
    SEED = "seed"  # everyone is here: committing and revealing the seed
    PLAY = "play"
    END = "end"  # over: openings and the audit
    FORFEIT = "forfeit"  # over before it began: a seat did not reveal its part of the seed
    ABORTED = "aborted"


@dataclass
class Link:
    """One connection: on the host, to one guest's device; on a guest, to the host."""

    peer: str
    seats: tuple[int, ...]  # the seats played on the device at the other end
    state: str = "invited"  # invited, connected, lost
    heard: float = 0.0
    sent: float = 0.0
    n_in: int = 0
    n_out: int = 0
    rtt: float | None = None
    welcomed: bool = False  # a guest's: the host's welcome came on this connection
    opened: float = 0.0  # when this connection opened
    hello_at: float = 0.0  # a guest's: when it last said hello on it


def seat_peer(seat: int) -> str:
    """The host's name for the connection of a remote seat."""
    return f"seat-{seat}"


class OnlineSession:
    def __init__(self, role: str, now: float) -> None:
        self.role = role
        self.now = now
        self.game: Game | None = None
        self.config: MatchConfig | None = None  # the set-up, without the dealt commitments
        self.local: tuple[int, ...] = ()
        self.limits = {"reveal": DEFAULT_REVEAL_LIMIT}
        self.links: dict[str, Link] = {}
        self.stores: dict[int, PrivateStore] = {}
        self.joint: dict[int, JointRandomness] = {}
        self.dealing: Dealing | None = None
        # Choices of this device's players that nobody else sees, used when dealing (an
        # ESPEERS deck): seat -> name -> value; a guest's apply to whatever seat it is given.
        self.private: dict[int, dict] = {}
        self.guest_choices: dict = {}  # a guest's, before it knows its seat
        self.seed_log: list[tuple[str, dict]] = []  # every seed message, to replay to a joiner
        self.dealt: dict[str, dict[str, str]] = {}
        self.table: Table | None = None
        self.pending: dict[int, Any] = {}  # a guest's moves sent and not yet in the log
        self.pending_at: dict[int, float] = {}  # when each was last sent
        self.pending_after: dict[int, int] = {}  # the log step each was sealed after
        # when a step of each local seat was last sent, kept after a refusal: the host's word
        # "that seat stalled" is checked against it
        self.sent_at: dict[int, float] = {}
        self.due_at: dict[int, float] = {}  # since when each local seat owes a step by itself
        self.outbox: list[tuple[str, str]] = []
        self.notices: list[str] = []
        self.notice_at = now  # when the latest notice was given
        self.changed_at = now
        self.gathered_at: float | None = None  # when every seat was first connected
        self.committed_at: float | None = None  # when every seed commitment was in (our clock)
        # A seat that did not reveal its part of the seed once every commitment was in (it may
        # have computed the seed, and disliked it): the match is over, forfeited by that seat.
        self.forfeit: Outcome | None = None
        self._stalled: tuple[int, ...] = ()  # the seats that forfeited so
        self.claimed: list[int] = []  # a guest's: seats the host said forfeit, not yet sure
        self.ended_at: float | None = None
        self.openings: dict[int, list[Opening]] = {}
        self.audit_result: AuditResult | None = None
        self.verdicts: dict[int, tuple[str, str]] = {}
        self.remote_links: dict[str, str] = {}  # a guest's picture of who is connected
        self.aborted = ""
        self.revision = 0  # bumped whenever something a screen shows changed

    # -- making one ----------------------------------------------------------------------

    @classmethod
    def host(
        cls,
        game: Game,
        config: MatchConfig,
        local: tuple[int, ...],
        now: float,
        reveal_limit: int = DEFAULT_REVEAL_LIMIT,
        private: dict[int, dict] | None = None,
    ) -> OnlineSession:
        """The host's session: `local` seats here, one invite for every other seat; `private`
        are its players' own choices for dealing (an ESPEERS deck), never sent."""
        game.check_setup(config.setup())
        if not local or not set(local) <= set(range(len(config.seats))):
            raise IllegalAction("The host plays at least one seat of the game.")
        session = cls("host", now)
        session.limits = {"reveal": reveal_limit}
        remote = [s for s in range(len(config.seats)) if s not in local]
        if not remote:
            raise IllegalAction("Invite at least one player, or play on one device.")
        session.links = {seat_peer(s): Link(seat_peer(s), (s,)) for s in remote}
        session.private = dict(private or {})
        session._begin(game, config, tuple(sorted(local)))
        return session

    @classmethod
    def guest(cls, now: float) -> OnlineSession:
        """A guest's session before the host's welcome: it knows nothing of the game yet."""
        session = cls("guest", now)
        session.links = {HOST: Link(HOST, ())}
        return session

    def _begin(self, game: Game, config: MatchConfig, local: tuple[int, ...]) -> None:
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
        for type_, body in self.dealing.my_steps(self.stores):
            self.seed_log.append((type_, body))
            self._broadcast(type_, **body)
        try:
            shared = self.dealing.my_cards(self.stores)
        except ProtocolError as error:
            self.aborted = f"{error.sentence} The game cannot start."
            raise
        if shared is None:
            return
        deal_stores(self.game, self.config, self.local, self.stores, shared, self.private)
        self._commit_seed()

    def _commit_seed(self) -> None:
        names = list(self.config.seats)
        self.joint = {s: JointRandomness(self.config.match_id, names, s) for s in self.local}
        for type_, body in list(self.seed_log):  # commitments that came while we dealt
            if type_ == "seed-commit" and body["seat"] not in self.local:
                self._feed_commit(body)
        dealt = dealt_commitments(self.stores)
        for seat in self.local:
            body = {
                "seat": seat,
                "commitment": self.joint[seat].my_commitment(),
                "dealt": dealt.get(str(seat), {}),
            }
            self._take_commit(body)
            self._broadcast("seed-commit", **body)
        self._maybe_reveal()

    # -- who is who ----------------------------------------------------------------------

    @property
    def is_host(self) -> bool:
        return self.role == "host"

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

    @property
    def match(self) -> Match | None:
        return self.table.match if self.table is not None else None

    def name(self, seat: int) -> str:
        """A seat's player's name; a seat a peer made up still gets words, for the refusal."""
        if self.config is not None and 0 <= seat < len(self.config.seats):
            return self.config.seats[seat]
        return f"Seat {seat + 1}"

    def _who(self, link: Link) -> str:
        if self.is_host:
            return f"{self.name(link.seats[0])}'s device"
        return "the host"

    def _everyone_here(self) -> bool:
        if not self.is_host:
            return self.links[HOST].state == "connected"
        return all(link.state == "connected" for link in self.links.values())

    def seat_state(self, seat: int) -> str:
        """How `seat` is reached from this device: here, connected, invited or lost."""
        if seat in self.local:
            return "here"
        if self.is_host:
            return self.link_states().get(str(seat), "invited")
        host = self.links[HOST]
        if host.state != "connected":
            return host.state
        state = self.remote_links.get(str(seat), "invited")
        return "connected" if state == "here" else state  # the host's own seats

    def link_states(self) -> dict[str, str]:
        """Every seat's connection, as the host sees it: here, invited, connected or lost."""
        if not self.is_host:
            return dict(self.remote_links)
        states = {str(s): "here" for s in self.local}
        for link in self.links.values():
            states[str(link.seats[0])] = link.state
        return states

    # -- sending -------------------------------------------------------------------------

    def _send(self, link: Link, type_: str, **body: Any) -> None:
        if link.state != "connected":
            return
        link.n_out += 1
        link.sent = self.now
        self.outbox.append((link.peer, encode(type_, link.n_out, **body)))

    def _broadcast(self, type_: str, skip: Link | None = None, **body: Any) -> None:
        for link in self.links.values():
            if link is not skip:
                self._send(link, type_, **body)

    def take_outbox(self) -> list[tuple[str, str]]:
        out, self.outbox = self.outbox, []
        return out

    def _notice(self, text: str) -> None:
        self.notices = [*self.notices[-(MAX_NOTICES - 1) :], text]
        self.notice_at = self.now
        self.revision += 1

    def _reject(self, link: Link, sentence: str, reply: bool = True) -> None:
        self._notice(f"Refused from {self._who(link)}: {sentence}")
        if reply:
            self._send(link, "reject", reason=sentence[:400])

    # -- connections ---------------------------------------------------------------------

    def opened(self, peer: str, now: float) -> None:
        """The transport's connection to `peer` is open (a fresh one: numbering restarts)."""
        self.now = now
        link = self.links.get(peer)
        if link is None:
            return
        link.state, link.heard, link.n_in, link.n_out = "connected", now, 0, 0
        link.welcomed, link.opened = False, now
        self.revision += 1
        if not self.is_host:
            self._hello(link)

    def _hello(self, link: Link) -> None:
        link.hello_at = self.now
        self._send(link, "hello", resume=self._resume())

    def closed(self, peer: str, now: float) -> None:
        self.now = now
        link = self.links.get(peer)
        if link is not None and link.state == "connected":
            self._lose(link)

    def _lose(self, link: Link) -> None:
        link.state = "lost"
        self._notice(f"Lost the connection to {self._who(link)}.")
        if self.is_host:
            self._broadcast("status", links=self.link_states())

    def _resume(self) -> dict | None:
        if self.config is None or not self.local:
            return None
        match = self.match
        head = match.head() if match else "00" * 32
        return {
            "match": self.config.match_id,
            "seat": self.local[0],
            "step": match.step if match else 0,
            "head": head,
        }

    # -- receiving -----------------------------------------------------------------------

    def receive(self, peer: str, text: object, now: float) -> None:
        """One message from `peer`: checked, then acted on; a refusal changes nothing."""
        self.now = now
        link = self.links.get(peer)
        if link is None:
            return
        link.heard = now
        try:
            message = decode(text)
        except MalformedInput as error:
            self._reject(link, error.sentence)
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
        handler = getattr(self, "_on_" + message.type.replace("-", "_"))
        try:
            handler(link, message)
        except ParlourError as error:
            self._reject(link, error.sentence, reply=message.type != "reject")

    def _on_hello(self, link: Link, message: Message) -> None:
        if not self.is_host:
            raise ProtocolError("Only the host is greeted with hello.")
        seat = link.seats[0]
        self._send(
            link,
            "welcome",
            config=self.config.to_json(),
            seat=seat,
            limits=dict(self.limits),
            host=list(self.local),
        )
        for type_, body in self.seed_log:
            self._send(link, type_, **body)
        if self.forfeit is not None:
            self._send(link, "seed-forfeit", seats=self.forfeit_seats())
        if self.table is not None:
            self._send_entries(link, self._resume_step(seat, message.body["resume"]))
            for owner, openings in sorted(self.openings.items()):
                self._send(link, "openings", seat=owner, openings=[o.to_json() for o in openings])
            for owner, (kind, text) in sorted(self.verdicts.items()):
                if owner not in link.seats:  # what the other devices' audits said, for a late one
                    self._send(link, "verdict", seat=owner, verdict=kind, text=text)
        self._notice(f"{self.name(seat)} joined.")
        self._broadcast("status", links=self.link_states())
        if self._everyone_here() and self.gathered_at is None:
            self.gathered_at = self.now

    def _resume_step(self, seat: int, resume: dict | None) -> int:
        """Where a returning guest's log can go on from: its last step, if it matches ours."""
        match = self.match
        if not resume or resume["match"] != self.config.match_id or resume["seat"] != seat:
            return 0
        step = resume["step"]
        if 0 < step <= match.step and match.entries[step - 1].hash == resume["head"]:
            return step
        return 0

    def _send_entries(self, link: Link, start: int) -> None:
        entries = [e.to_json() for e in self.match.entries[start:]]
        for i in range(0, len(entries), MAX_ENTRIES):
            self._send(link, "entries", entries=entries[i : i + MAX_ENTRIES])

    def _on_welcome(self, link: Link, message: Message) -> None:
        if self.is_host:
            raise ProtocolError("A host is not welcomed.")
        body = message.body
        config = MatchConfig.from_json(body["config"])
        game = game_by_id(config.game)
        base = replace(config, dealt={})
        game.check_setup(base.setup())
        seat, host_seats = body["seat"], tuple(body["host"])
        if seat >= len(config.seats) or seat in host_seats:
            raise ProtocolError("The host offered a seat that is not free.")
        same = self.config is not None and self.config.match_id == base.match_id
        choices = dict(self.guest_choices)  # what the player chose on the join screen
        if self.config is not None and not same:
            if link.welcomed and self.forfeit is None:  # "Play again": once this game is over
                if self.match is None or self.match.result() is None:
                    raise ProtocolError(
                        "The host started another game while this one is still on: refused."
                    )
                if self.audit_result is None:
                    raise ProtocolError(
                        "The host started another game before this one was checked: refused."
                    )
                choices = dict(self.private.get(self.local[0], choices))  # the same deck
            self._clear_match()  # another game than the one saved here: start clean
        link.seats, link.welcomed = host_seats, True
        if not same:  # the time allowed is the match's: a later welcome cannot shorten it
            self.limits = dict(body["limits"])
        if same:
            if self.local != (seat,):
                raise ProtocolError("The host offered this device another seat than before.")
            self._resend_own_seed()
            self._resend_pending()
            self._resend_own_verdict()
            self.run_automatic()  # a step due while the host was away was never sent
        else:
            self.private = {seat: choices}
            self._begin(game, base, (seat,))
        self.revision += 1

    def rematch(self, match_id: str, now: float) -> None:
        """The host's "Play again": the same game, variant and players over the connections
        that are open, under a new match id. Each device deals and commits afresh and the seed
        is drawn together again, as for a first game; the host's players bring the same
        private choices (an ESPEERS deck), each guest what it chose on joining."""
        self.now = now
        if not self.is_host:
            raise IllegalAction("Only the host can start another game.")
        over = self.match is not None and self.match.result() is not None
        if self.forfeit is None and (not over or self.audit_result is None):
            raise IllegalAction("Another game can start once this one is over and checked.")
        lost = [self._who(link) for link in self.links.values() if link.state != "connected"]
        if lost:
            raise IllegalAction(
                f"Everyone must be connected to play again: waiting for {', '.join(lost)}."
            )
        config = replace(self.config, match_id=match_id, dealt={}, shared={})
        self._clear_match()
        for link in self.links.values():
            self._send(
                link,
                "welcome",
                config=config.to_json(),
                seat=link.seats[0],
                limits=dict(self.limits),
                host=list(self.local),
            )
        self.gathered_at = now
        self._notice("A new game: the devices draw its seed together.")
        self._begin(self.game, config, self.local)

    def _clear_match(self) -> None:
        """Forget one game's deal, seed, log, openings and verdicts; keep the connections."""
        self.stores, self.joint, self.dealing = {}, {}, None
        self.seed_log, self.dealt, self.table = [], {}, None
        self.pending, self.pending_at, self.pending_after = {}, {}, {}
        self.sent_at, self.claimed = {}, []
        self.openings, self.audit_result, self.verdicts = {}, None, {}
        self.gathered_at = self.ended_at = self.committed_at = None
        self.aborted, self.forfeit = "", None
        self.revision += 1

    def _resend_own_seed(self) -> None:
        """A returning guest sends its own seed messages again; the host knows duplicates.
        (Even once its game has begun here: the host may still lack its reveal.)"""
        for type_, body in self.seed_log:
            if body["seat"] in self.local:
                self._send(self.links[HOST], type_, **body)

    def _resend_pending(self) -> None:
        """A returning guest sends its moves not yet in the log again: one lost with the old
        connection would otherwise stay "on its way" for ever (and, if it was a required step,
        let the host forfeit the seat for it). The host knows a move it already has (`after`),
        and a move sent on this connection counts as sent for the forfeit check."""
        if self.table is None:
            return
        for seat, action in sorted(self.pending.items()):
            self.pending_at[seat] = self.sent_at[seat] = self.now
            after = self.pending_after.get(seat, self.match.step)
            self._send(self.links[HOST], "propose", seat=seat, action=action, after=after)

    def _resend_own_verdict(self) -> None:
        """A returning guest's audit may have finished while it was away: say it again."""
        mine = self.verdicts.get(self.local[0]) if self.local else None
        if mine is not None:
            kind, text = mine
            self._send(self.links[HOST], "verdict", seat=self.local[0], verdict=kind, text=text)

    def _check_sender(self, link: Link, seat: int, what: str) -> None:
        """A message about `seat` must come from the device that plays it (or, relayed, from the
        host); a message about one of our own seats can only be our own echo."""
        if self.is_host and seat not in link.seats:
            raise ProtocolError(
                f"That {what} claims to be {self.name(seat)}'s but came from "
                f"{self._who(link)}: refused as forged."
            )

    def _on_seed_commit(self, link: Link, message: Message) -> None:
        body = message.body
        self._check_sender(link, body["seat"], "commitment")
        if self.config is None:
            raise ProtocolError("A commitment arrived before the host's welcome.")
        if self.table is not None or body["seat"] in self.local:
            return
        if self._take_commit(body):
            self._broadcast("seed-commit", skip=link, **body)
        self._maybe_reveal()

    def _take_commit(self, body: dict) -> bool:
        """Record a seat's seed commitment (and dealt commitments); False if we had it."""
        seat = body["seat"]
        if not 0 <= seat < len(self.config.seats):
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
        setup = self.config.setup()
        locks = {lock_label(d.label) for d in self.game.shared_deals(setup) if seat in d.seats}
        return set(self.game.dealt_labels(setup, seat)) | locks

    def _feed_commit(self, body: dict) -> None:
        seat, commitment = body["seat"], body["commitment"]
        for joint in self.joint.values():
            known = joint.commitments.get(seat)
            if known == commitment:
                continue
            if known is not None:
                raise ProtocolError(f"{self.name(seat)} sent a second, different commitment.")
            joint.receive_commitment(seat, commitment)

    def _on_deal_lock(self, link: Link, message: Message) -> None:
        self._take_deal_step(link, message, self.dealing.take_lock if self.dealing else None)

    def _on_deal_unlock(self, link: Link, message: Message) -> None:
        self._take_deal_step(link, message, self.dealing.take_unlock if self.dealing else None)

    def _take_deal_step(self, link: Link, message: Message, take) -> None:
        body = message.body
        self._check_sender(link, body["seat"], "deal step")
        if take is None or self.table is not None or body["seat"] in self.local:
            return
        if take(body):
            self.seed_log.append((message.type, body))
            self._broadcast(message.type, skip=link, **body)
            self.revision += 1
        self._advance_deals()

    def _maybe_reveal(self) -> None:
        if self.table is not None or not self.joint:
            return
        if not all(j.all_committed() for j in self.joint.values()):
            return
        self._note_committed()
        for seat in self.local:
            if any(t == "seed-reveal" and b["seat"] == seat for t, b in self.seed_log):
                continue
            body = {"seat": seat, "opening": self.joint[seat].my_reveal().to_json()}
            self._take_reveal(body)
            self._broadcast("seed-reveal", **body)
        self._maybe_start()

    def _on_seed_reveal(self, link: Link, message: Message) -> None:
        body = message.body
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

    def _take_reveal(self, body: dict) -> bool:
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
        if any(t == "seed-reveal" and b["seat"] == seat for t, b in self.seed_log):
            return False
        self.seed_log.append(("seed-reveal", body))
        self.revision += 1
        return True

    def _maybe_start(self) -> None:
        if self.table is not None or not self.joint or self.forfeit is not None:
            return
        joint = next(iter(self.joint.values()))
        if joint.missing_reveals():
            return
        if self.dealing is not None and not self.dealing.complete():
            return
        shared = self.dealing.records() if self.dealing else {}
        config = replace(self.config, dealt=dict(self.dealt), shared=shared)
        self.table = Table(Match(self.game, config, joint.seed()), self.stores)
        self.changed_at = self.now
        self._notice("Everyone is here: the game begins.")
        self.run_automatic()

    # -- a stall after every seed commitment: a forfeit, not a free second draw ------------

    def _declare_seed_forfeit(self, seats: list[int]) -> None:
        """The host: `seats` did not reveal in time once every commitment was in. Had the
        set-up just stopped, the last to reveal could see the seed first and veto it for free."""
        self.forfeit = self._seed_forfeit_outcome(seats)
        self._notice(self.forfeit.reason)
        self._broadcast("seed-forfeit", seats=seats)

    def forfeit_seats(self) -> list[int]:
        """The seats that forfeited while the seed was drawn (none, mostly)."""
        return list(self._stalled) if self.forfeit is not None else []

    def _seed_forfeit_outcome(self, seats: list[int]) -> Outcome:
        self._stalled = tuple(seats)
        setup = self.config.setup()
        winners = set(range(len(self.config.seats))) - set(seats)
        for seat in seats:
            winners &= self.game.forfeit_winners(setup, seat)
        who = " and ".join(self.name(s) for s in seats)
        verb = "forfeits" if len(seats) == 1 else "forfeit"
        return Outcome(
            Termination.FORFEIT,
            frozenset(winners),
            f"{who} did not reveal their part of the seed in time, after every device had "
            f"committed to its own, and {verb} the game.",
        )

    def _on_seed_forfeit(self, link: Link, message: Message) -> None:
        """A guest checks the host's word before it takes it: every commitment in, the time
        up by its own clock, and no reveal from those seats among what it has (its own is
        sent again on every connection, so the host has it)."""
        if self.is_host:
            raise ProtocolError("Only the host declares a forfeit.")
        seats = sorted(set(message.body["seats"]))
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

    def _revealed(self) -> set[int]:
        return {b["seat"] for t, b in self.seed_log if t == "seed-reveal"}

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

    # -- the game ------------------------------------------------------------------------

    def _on_propose(self, link: Link, message: Message) -> None:
        if not self.is_host:
            raise ProtocolError("Only the host takes proposed moves.")
        seat = message.body["seat"]
        self._check_sender(link, seat, "move")
        if self.table is None:
            raise IllegalAction("The game has not started yet.")
        if forfeited_seat(message.body["action"]) is not None:
            raise ProtocolError(
                "Only the host declares a forfeit, when a seat's time is up: refused as forged."
            )
        if self._already_in_log(seat, message.body["action"], message.body["after"]):
            return  # sent again after a reconnection, and it had arrived: nothing to do
        result = self.match.submit_json(seat, message.body["action"])
        if not result.ok:
            raise IllegalAction(result.reason or "That move is not allowed.")
        self._appended(result.entry)

    def _already_in_log(self, seat: int, action: Any, after: int) -> bool:
        """Is this proposal one the log took already, since the step it was sealed after?"""
        entries = self.match.entries
        if after > len(entries):
            raise ProtocolError("A move arrived sealed after a step this game has not reached.")
        return any(e.seat == seat and e.action == action for e in entries[after:])

    def _appended(self, entry: LogEntry) -> None:
        """A new entry in the host's log: to every guest, then whatever follows by itself."""
        self._broadcast("entries", entries=[entry.to_json()])
        self._changed()

    def _changed(self) -> None:
        self.changed_at = self.now
        self.revision += 1
        state = self.table.state if self.table is not None else None
        for seat in self.local:  # since when each local seat owes a step of its own
            if state is not None and self.game.automatic(state, seat):
                self.due_at.setdefault(seat, self.now)
            else:
                self.due_at.pop(seat, None)
        self.run_automatic()
        self._maybe_end()

    def _on_entries(self, link: Link, message: Message) -> None:
        if self.is_host:
            raise ProtocolError("Only the host sends log entries.")
        if self.table is None:
            raise ProtocolError("Log entries arrived before the game began.")
        match = self.match
        try:
            for raw in message.body["entries"]:
                entry = LogEntry.from_json(raw)
                if entry.seq <= match.step:
                    if match.entries[entry.seq - 1].hash != entry.hash:
                        raise IllegalAction(
                            f"The host's move {entry.seq} differs from this device's log."
                        )
                    continue
                victim = forfeited_seat(entry.action)
                if victim in self.local:
                    self._check_forfeit(victim, link)
                mine = entry.seat in self.local and victim is None
                if mine and self.pending.get(entry.seat) != entry.action:
                    raise IllegalAction(
                        f"The host sent a move for {self.name(entry.seat)} that this device "
                        "never made: refused as forged."
                    )
                match.receive(raw)
                self._settled(entry.seat)
        finally:
            self._changed()

    def _check_forfeit(self, seat: int, link: Link) -> None:
        """A host may forfeit a seat that held up a step past the time allowed. This device
        takes its steps the moment they are due and sends a step still on its way again on
        every new connection, so the host cannot be right if the step was sent on the connection
        it has, or if the time is not up by this device's clock since the step fell due on it
        (less a little for the way). A step that fell due while this device was away, and was
        never sent, was stalled on: the device accepts."""
        name = self.name(seat)
        sent, due = self.sent_at.get(seat), self.due_at.get(seat)
        if sent is not None and sent >= link.opened and (due is None or sent >= due):
            raise ProtocolError(
                f"The host declared {name} forfeit, but this device sent that step at once: "
                "refused as forged."
            )
        if (
            due is not None
            and due >= link.opened
            and self.now - due < self.limits["reveal"] - SLACK
        ):
            raise ProtocolError(
                f"The host declared {name} forfeit before the time allowed was up: refused as "
                "forged."
            )

    def _on_reject(self, link: Link, message: Message) -> None:
        self._notice(f"{self._who(link).capitalize()} refused: {message.body['reason']}")
        if not self.is_host:
            for seat in list(self.pending):
                self._settled(seat)  # the player may try again

    def _settled(self, seat: int) -> None:
        """A move of `seat` is no longer on its way: in the log, or refused."""
        self.pending.pop(seat, None)
        self.pending_at.pop(seat, None)
        self.pending_after.pop(seat, None)

    def act(self, seat: int, choice: Any) -> Submitted:
        """A player on this device acts for `seat` (as `Table.act`; a guest's move is sent)."""
        if self.table is None:
            return Submitted(reason="The game has not started yet.")
        if seat not in self.local:
            return Submitted(reason=f"{self.name(seat)} is not played on this device.")
        if self.is_host:
            result = self.table.act(seat, choice)
            if result.ok:
                self._appended(result.entry)
            return result
        return self._propose(seat, choice)

    def _propose(self, seat: int, choice: Any) -> Submitted:
        if seat in self.pending:
            return Submitted(reason="Your last move is still on its way to the host.")
        if self.links[HOST].state != "connected":
            return Submitted(reason="Not connected to the host: your move cannot be sent.")
        state, store = self.table.state, self.stores[seat]
        try:
            action = self.game.seal(state, seat, choice, store)
            self.game.apply(state, seat, action)  # refuse here what the host would refuse
        except ParlourError as error:
            return Submitted(reason=error.sentence)
        except (ValueError, KeyError):
            return Submitted(reason="That choice cannot be made now.")
        action_json = self.game.action_to_json(action)
        self.pending[seat], self.pending_at[seat] = action_json, self.now
        self.pending_after[seat], self.sent_at[seat] = self.match.step, self.now
        self._send(
            self.links[HOST], "propose", seat=seat, action=action_json, after=self.match.step
        )
        self.revision += 1
        return Submitted(sent=True)

    def run_automatic(self) -> None:
        """Take every step this device's seats take by themselves (seals, answers, reveals)."""
        for _ in range(64):
            if self.table is None or self.match.result() is not None:
                return
            state = self.table.state
            moved = False
            for seat in sorted(self.game.to_move(state)):
                if seat not in self.local or seat in self.pending:
                    continue
                auto = self.game.auto_action(state, seat, self.stores[seat])
                if auto is not None and self.act(seat, auto).ok:
                    moved = True
                    break
            if not moved:
                return

    # -- the end -------------------------------------------------------------------------

    def _maybe_end(self) -> None:
        if self.table is None or self.match.result() is None or self.ended_at is not None:
            return
        self.ended_at = self.now
        for seat in self.local:
            openings = self.table.openings(seat)
            self.openings[seat] = openings
            self._broadcast("openings", seat=seat, openings=[o.to_json() for o in openings])
        self._maybe_audit()

    def _on_openings(self, link: Link, message: Message) -> None:
        body = message.body
        seat = body["seat"]
        self._check_sender(link, seat, "opening")
        if seat in self.local or seat in self.openings:
            return
        if self.table is None or self.match.result() is None:
            raise IllegalAction("Secrets are opened only when the game is over.")
        self.openings[seat] = [Opening.from_json(o) for o in body["openings"]]
        self._broadcast("openings", skip=link, **body)
        self._maybe_audit()

    def _maybe_audit(self, deadline_passed: bool = False) -> None:
        if self.audit_result is not None or self.table is None:
            return
        seats = range(len(self.config.seats))
        if not deadline_passed and any(s not in self.openings for s in seats):
            return
        match = self.match
        openings = {s: self.openings.get(s) for s in seats}
        self.audit_result = audit(self.game, match.config, match.seed, match.entries, openings)
        kind, text = verdict_of(self.audit_result, self.config.seats)
        for seat in self.local:
            self.verdicts[seat] = (kind, text)
        self._broadcast("verdict", seat=self.local[0], verdict=kind, text=text[:400])
        self.revision += 1

    def _on_verdict(self, link: Link, message: Message) -> None:
        body = message.body
        seat = body["seat"]
        self._check_sender(link, seat, "verdict")
        if self.config is None:
            raise ProtocolError("A verdict arrived before the host's welcome.")
        if seat >= len(self.config.seats):
            raise ProtocolError(f"A verdict came for seat {seat + 1}, which is not in this game.")
        if seat in self.local:  # our own is never sent back to us: the host made this one up
            raise ProtocolError(
                f"The host sent a verdict for {self.name(seat)}'s device that this device never "
                "gave: refused as forged."
            )
        self.verdicts[body["seat"]] = (body["verdict"], body["text"])
        self._broadcast("verdict", skip=link, **body)
        self.revision += 1

    # -- heartbeat and time-outs ---------------------------------------------------------

    def _on_status(self, link: Link, message: Message) -> None:
        if self.is_host:
            raise ProtocolError("Only the host reports who is connected.")
        self.remote_links = dict(message.body["links"])
        self.revision += 1

    def _on_ping(self, link: Link, message: Message) -> None:
        self._send(link, "pong", at=message.body["at"])

    def _on_pong(self, link: Link, message: Message) -> None:
        link.rtt = max(0.0, self.now - message.body["at"] / 1000)

    def tick(self, now: float) -> None:
        """Called often (about twice a second): heartbeats, lost peers, stalls."""
        self.now = now
        for link in self.links.values():
            if link.state != "connected":
                continue
            if now - link.heard > LOST_AFTER:
                self._lose(link)
            elif not self.is_host and not link.welcomed and now - link.hello_at >= HELLO_AGAIN:
                self._hello(link)  # no welcome yet: say hello again (the host answers any)
            elif now - link.sent >= PING_EVERY:
                self._send(link, "ping", at=int(now * 1000) % 2**31)
        if self.is_host:
            self._check_stalls(now)
            return
        self._watch_the_seed()
        self.run_automatic()  # a step the host refused (or never had) is sent again
        if self.ended_at is not None and now - self.ended_at > self.limits["reveal"]:
            self._maybe_audit(deadline_passed=True)

    def _waited(self, since: float | None, limit: float) -> bool:
        return since is not None and self.now - since > limit

    def _check_stalls(self, now: float) -> None:
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
            missing = joint.missing_commitments() if joint else self.dealing.waiting_for()
            names = ", ".join(self.name(s) for s in missing)
            self.aborted = f"{names} did not take part in drawing the seed in time."
            self._notice(f"{self.aborted} The game cannot start.")
        elif phase is Phase.PLAY and now - self.changed_at > limit:
            state = self.table.state
            for seat in sorted(self.game.to_move(state)):
                if seat not in self.local and self.game.automatic(state, seat):
                    result = self.match.submit_json(seat, {"forfeit": seat})
                    if result.ok:
                        self._notice(f"{self.name(seat)} did not take a required step in time.")
                        self._appended(result.entry)
                    return
        elif phase is Phase.END and self.ended_at is not None and now - self.ended_at > limit:
            self._maybe_audit(deadline_passed=True)

    # -- persistence ---------------------------------------------------------------------

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "role": self.role,
            "config": self.config.to_json() if self.config else None,
            "local": list(self.local),
            "limits": dict(self.limits),
            "links": {peer: list(link.seats) for peer, link in self.links.items()},
            "joint": {str(s): [part.hex() for part in j.secret()] for s, j in self.joint.items()},
            "seed_log": [[t, b] for t, b in self.seed_log],
            "match": self.match.to_json() if self.match else None,
            "stores": {str(s): store.to_json() for s, store in self.stores.items()},
            "pending": {str(s): a for s, a in self.pending.items()},
            "pending_after": {str(s): n for s, n in self.pending_after.items()},
            "openings": {str(s): [o.to_json() for o in ops] for s, ops in self.openings.items()},
            "verdicts": {str(s): list(v) for s, v in self.verdicts.items()},
            "private": {str(s): dict(v) for s, v in self.private.items()},  # never sent
            "forfeit": self.forfeit_seats(),
        }

    @classmethod
    def from_json(cls, data: object, now: float) -> OnlineSession:
        """A saved session, every connection lost: a guest waits for a new invite; a host makes
        new invites. Everything is checked again as it is rebuilt."""
        check_text(data)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MalformedInput("That is not a saved online game.")
        if data.get("version") != FORMAT_VERSION or data.get("role") not in ("host", "guest"):
            raise MalformedInput("That saved online game is from another version.")
        session = cls(data["role"], now)
        session.links = {
            peer: Link(peer, tuple(seats), state="lost") for peer, seats in data["links"].items()
        }
        if data["config"] is None:
            return session
        session.config = MatchConfig.from_json(data["config"])
        session.game = game_by_id(session.config.game)
        session.local = tuple(data["local"])
        session.limits = dict(data["limits"])
        session.private = {int(s): dict(v) for s, v in data.get("private", {}).items()}
        session.stores = {int(s): PrivateStore.from_json(raw) for s, raw in data["stores"].items()}
        names = list(session.config.seats)
        for s, (secret, nonce) in data["joint"].items():
            session.joint[int(s)] = JointRandomness(
                session.config.match_id,
                names,
                int(s),
                secret=bytes.fromhex(secret),
                nonce=bytes.fromhex(nonce),
            )
        session.dealing = Dealing(
            session.game.shared_deals(session.config.setup()),
            session.config.seats,
            session.config.match_id,
        )
        for type_, body in data["seed_log"]:
            if type_ == "deal-lock":
                session.dealing.take_lock(body)
            elif type_ == "deal-unlock":
                session.dealing.take_unlock(body)
            if type_ in ("deal-lock", "deal-unlock"):
                session.seed_log.append((type_, body))
        for type_, body in data["seed_log"]:
            if type_ == "seed-commit":
                session._take_commit(body)
        for seat in session.local:  # our own reveals are made again, the same
            if any(t == "seed-reveal" and b["seat"] == seat for t, b in data["seed_log"]):
                session.joint[seat].my_reveal()
        for type_, body in data["seed_log"]:
            if type_ == "seed-reveal":
                session._take_reveal(body)
        if any(j.all_committed() for j in session.joint.values()):
            session.committed_at = now  # the clock of the reveals starts again: never early
        if not session.joint:
            session._advance_deals()
        if data.get("forfeit"):
            session.forfeit = session._seed_forfeit_outcome(sorted(data["forfeit"]))
        if data["match"] is not None:
            match = Match.from_json(data["match"])
            session.table = Table(match, session.stores)
        session.pending = {int(s): a for s, a in data["pending"].items()}
        after = data.get("pending_after", {})
        session.pending_after = {
            int(s): int(n) for s, n in after.items() if int(s) in session.pending
        }
        session.openings = {
            int(s): [Opening.from_json(o) for o in ops] for s, ops in data["openings"].items()
        }
        session.verdicts = {  # saves made before verdicts were kept have none
            int(s): (str(v[0]), str(v[1])) for s, v in data.get("verdicts", {}).items()
        }
        if session.table is not None and session.match.result() is not None:
            session.ended_at = now
            session._maybe_audit()
        return session


def verdict_of(result: AuditResult, names: tuple[str, ...]) -> tuple[str, str]:
    """An audit result as a word and a sentence, as devices tell each other."""
    if isinstance(result, Verified):
        return "verified", result.summary
    if isinstance(result, Cheat):
        who = names[result.seat] if 0 <= result.seat < len(names) else "A player"
        return "cheat", f"{who} cheated: {result.reason}"
    assert isinstance(result, Unverified)
    return "unverified", result.reason
