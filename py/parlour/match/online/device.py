"""What every part of an online session stands on: this device, what it plays, how it speaks.

An `OnlineSession` is one object, one device's side of a match, put together from one class per
concern (links.py, seed.py, seed_forfeit.py, moves.py, verdicts.py, joining.py, loading.py,
saves.py; the whole in session.py). Each of those stands on `Device`, which holds what lasts as
long as the session does (across games, with "Play again"): the role, the clock, the set-up, the
seats held here, the links, the outbox and the notices. Each concern keeps the state of one game
itself and starts it afresh in its own `_new_...` method.

Where one concern must call on another it calls an abstract method declared here, so every such
crossing is written down in one place.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour.errors import MalformedInput, ProtocolError
from parlour.fair.encoding import Json, canonical_json
from parlour.fair.signing import DeviceKey, Fork, Signed, Signer, Verify
from parlour.fair.store import PrivateStore
from parlour.games.base import Game
from parlour.match.config import MatchConfig
from parlour.match.match import AnyMatch
from parlour.match.table import AnyTable
from parlour.match.wire import ACK, SIGNED, SIGNED_VERSION, VERSION, encode, encode_signed
from parlour.match.wire_bodies import Limits

HOST = "host"  # a guest's name for its one connection
SLACK = 2.0  # seconds a guest allows for the way, when it checks the host's clock
DEFAULT_REVEAL_LIMIT = 120
MAX_NOTICES = 30


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
    welcomed: bool = False  # a guest's: the host's welcome came on this connection
    opened: float = 0.0  # when this connection opened
    hello_at: float = 0.0  # a guest's: when it last said hello on it
    # signed play: each device's latest ack not yet carried to the other end (by the next
    # message on this connection: a proposal, log entries, a heartbeat)
    acks_due: dict[str, Signed] = field(default_factory=dict)


@dataclass(frozen=True)
class Crypto:
    """This device's signing key pair and a way to check the others' signatures (the page's from
    WebCrypto, the tests' from `cryptography`): a session given one plays version 2, signed."""

    signer: Signer
    verify: Verify


# One message waiting in the outbox: written out once its signature is made (`take_outbox`).
Outgoing = tuple[str, str, int, dict[str, object], Signed | None]


def _unsigned(message: Outgoing) -> bool:
    """A message that waits for a signature: its own, or a log entry's proof inside it."""
    *_, body, record = message
    proofs = body.get("proofs")
    inside = proofs if isinstance(proofs, list) else []
    return any(r.signature is None for r in [record, *inside] if isinstance(r, Signed))


def seat_peer(seat: int) -> str:
    """The host's name for the connection of a remote seat."""
    return f"seat-{seat}"


class Device(ABC):
    """The state every concern of a session reads, and the ways a session speaks."""

    def __init__(self, role: str, now: float, crypto: Crypto | None = None) -> None:
        self.role = role  # "host" or "guest"
        self.crypto = crypto
        # signed play: where a new match's fresh key pair comes from (the page's keyring);
        # without one, a new match ("Play again") goes on with the same key
        self.key_maker: Callable[[], Crypto | None] | None = None
        self.version = SIGNED_VERSION if crypto is not None else VERSION
        self.keys: dict[str, DeviceKey] = {}  # every device's key, by its name (`device_of`)
        self.seq = 0  # the last sequence number this device signed under (never used twice)
        self.unsigned: list[Signed] = []  # our records waiting for their signature
        self._incoming: Signed | None = None  # the signed record of the message being handled
        self.now = now  # the latest time passed in; the session reads no clock of its own
        self.game: Game[Any, Any] | None = None  # a guest's: known from the host's welcome
        self.config: MatchConfig | None = None  # the set-up, without the dealt commitments
        self.local: tuple[int, ...] = ()  # the seats played on this device
        self.limits: Limits = {"reveal": DEFAULT_REVEAL_LIMIT}
        self.links: dict[str, Link] = {}  # by peer: seat_peer(seat) on the host, HOST on a guest
        # Choices of this device's players that nobody else sees, used when dealing (an
        # ESPEERS deck): seat -> name -> value; a guest's apply to whatever seat it is given.
        self.private: dict[int, dict[str, Json]] = {}
        self.guest_choices: dict[str, Json] = {}  # a guest's, before it knows its seat
        self.guest_name = ""  # the name a guest chose on the join screen ("": the host's)
        self.remote_links: dict[str, str] = {}  # a guest's picture of who is connected
        self.outbox: list[Outgoing] = []  # for the transport to send, as text (`take_outbox`)
        self.notices: list[str] = []
        self.notice_at = now  # when the latest notice was given
        self.changed_at = now  # when the log last changed (the host's clock for stalls)
        self.revision = 0  # bumped whenever something a screen shows changed
        self._new_match()

    def _new_game(self) -> None:
        """One game's private stores and table: none until it is dealt and its seed drawn."""
        self.stores: dict[int, PrivateStore] = {}
        self.table: AnyTable | None = None
        # Signed play (version 2), one game's: every signed record had, by its content; each
        # device's numbers seen; each log entry's proof; each device's latest word on its
        # position; and proof of any device that signed two different things under one number
        # or saw another game.
        self.records: dict[bytes, Signed] = {}
        self.seen: dict[tuple[str, int], Signed] = {}
        self.proofs: list[Signed] = []
        self.acks: dict[str, Signed] = {}
        self.my_ack: Signed | None = None
        self.forks: list[Fork] = []
        self.diverged: dict[str, Signed] = {}  # device -> its signed position, not ours

    # -- what one concern asks of another --------------------------------------------------

    @abstractmethod
    def _new_match(self) -> None:
        """Every concern's state of one game, afresh (joining.py): `_new_game` here, and each
        concern's own `_new_...`."""

    @abstractmethod
    def run_automatic(self) -> None:
        """Take every step this device's seats take by themselves (moves.py)."""

    @abstractmethod
    def _check_heads(self) -> None:
        """Signed play: compare every device's signed position with our log (verdicts.py)."""

    @abstractmethod
    def _maybe_end(self) -> None:
        """Once the game is over: send our openings, and audit when all are in (verdicts.py)."""

    # -- who is who ----------------------------------------------------------------------

    @property
    def is_host(self) -> bool:
        return self.role == "host"

    @property
    def match(self) -> AnyMatch | None:
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

    # -- what a step needs: known once the game is set up (a guest: from the welcome) ---------

    def _the_game(self) -> Game[Any, Any]:
        if self.game is None:
            raise ProtocolError("The game is not known here yet: the host's welcome has not come.")
        return self.game

    def _the_config(self) -> MatchConfig:
        if self.config is None:
            raise ProtocolError("The game is not known here yet: the host's welcome has not come.")
        return self.config

    def _the_table(self) -> AnyTable:
        if self.table is None:
            raise ProtocolError("The game has not started yet.")
        return self.table

    def _the_match(self) -> AnyMatch:
        return self._the_table().match

    # -- speaking ------------------------------------------------------------------------

    def _send(self, link: Link, type_: str, **body: object) -> None:
        """Say `type_` on `link`. Signed play: a message whose exact content some device signed
        already goes with that signature (relayed, replayed or sent again); anything else this
        device originates is signed by it."""
        if link.state != "connected":
            return  # (nothing is signed for a link that is not there)
        record = None
        if self.signing and type_ in SIGNED:
            record = self._record_for(type_, body)
        self._emit(link, type_, body, record)

    def _emit(self, link: Link, type_: str, body: dict[str, object], record: Signed | None) -> None:
        if link.state != "connected":
            return
        link.n_out += 1
        link.sent = self.now
        self.outbox.append((link.peer, type_, link.n_out, body, record))

    def _broadcast(self, type_: str, skip: Link | None = None, **body: object) -> None:
        for link in self.links.values():
            if link is not skip:
                self._send(link, type_, **body)

    def take_outbox(self) -> list[tuple[str, str]]:
        """What to send, as (peer, text): every record signed first (`sign_pending`). A message
        whose signature is still to come waits, and every message after it, so each connection
        keeps its order."""
        self.sign_pending()
        if not self.signing:
            out, self.outbox = self.outbox, []
            return [(peer, encode(kind, n, **body)) for peer, kind, n, body, _ in out]
        waiting = [i for i, message in enumerate(self.outbox) if _unsigned(message)]
        cut = waiting[0] if waiting else len(self.outbox)
        out, self.outbox = self.outbox[:cut], self.outbox[cut:]
        return [
            (peer, encode_signed(kind, n, body, rec, self._carried(peer, kind)))
            for peer, kind, n, body, rec in out
        ]

    def _carried(self, peer: str, kind: str) -> list[Signed]:
        """The acks due on this connection, signed already: the message going now carries them
        (so acknowledging costs no message of its own). Not a greeting: the keys to check them
        by come with the welcome."""
        link = self.links.get(peer)
        if link is None or kind in ("hello", "welcome"):
            return []
        ready = [a for a in link.acks_due.values() if a.signature is not None]
        for ack in ready:
            del link.acks_due[ack.device]
        return sorted(ready, key=lambda a: a.device)

    def _due(self, ack: Signed, skip: Link | None = None) -> None:
        """Carry this ack to every other connection with its next message (the latest of each
        device replaces one not carried yet)."""
        for link in self.links.values():
            if link is not skip:
                link.acks_due[ack.device] = ack

    # -- signed play -------------------------------------------------------------------------

    @property
    def signing(self) -> bool:
        return self.crypto is not None

    @property
    def me(self) -> str:
        """This device's name among the devices: the host's, or its seat's."""
        if self.is_host or not self.local:
            return HOST
        return seat_peer(self.local[0])

    def device_of(self, seat: int) -> str:
        """The name of the device that plays `seat`: the host's, or the guest's of that seat."""
        if seat in (self.local if self.is_host else self.links[HOST].seats):
            return HOST
        return seat_peer(seat)

    def device_name(self, device: str) -> str:
        """A device, in words: "the host's device", "Bo's device"."""
        if device == HOST:
            return "the host's device"
        seat = device.removeprefix("seat-")
        if seat.isdigit() and str(int(seat)) == seat:
            return f"{self.name(int(seat))}'s device"
        return "a device not in this game"

    def _record_for(self, type_: str, body: dict[str, object]) -> Signed:
        """The signed record for this content: the one had already, or a new one of ours."""
        key = canonical_json([type_, body])
        known = self.records.get(key)
        if known is not None and type_ != ACK:
            return known
        return self._originate(type_, body)

    def _originate(self, type_: str, body: dict[str, object]) -> Signed:
        """A new record of this device, under its next number, waiting for its signature."""
        self.seq += 1
        record = Signed(self.me, self.seq, type_, dict(body))
        self.records[canonical_json([type_, body])] = record
        self.seen[(record.device, record.seq)] = record
        self.unsigned.append(record)
        return record

    def sign_pending(self) -> None:
        """Sign every record still waiting, with this device's signer (the page's signs with
        WebCrypto before it takes the outbox: `pending_signatures`)."""
        if self.crypto is None:
            return
        for record, data in self.pending_signatures():
            record.signature = self.crypto.signer.sign(data)
        self.unsigned = [r for r in self.unsigned if r.signature is None]

    def pending_signatures(self) -> list[tuple[Signed, bytes]]:
        """Our records still waiting for a signature, each with the exact bytes to sign."""
        self.unsigned = [r for r in self.unsigned if r.signature is None]
        return [(r, r.payload(self._the_match_id())) for r in self.unsigned]

    def _the_match_id(self) -> str:
        return self._the_config().match_id

    def _check_signature(self, record: Signed, match_id: str, key: DeviceKey | None) -> None:
        """A signed message as it arrived: from a device we know, signed by it for this match,
        and not a second, different message under a number it used already (kept as proof)."""
        self._verify_record(record, match_id, key)
        known = self.seen.get((record.device, record.seq))
        if known is not None and not known.same_content(record):
            self.forks.append(Fork(record.device, known, record))
            raise ProtocolError(
                f"{self.device_name(record.device).capitalize()} signed two different messages "
                f"under one number ({record.seq}): refused, and both are kept as proof."
            )
        self.seen[(record.device, record.seq)] = record
        self.records.setdefault(canonical_json([record.kind, record.body]), record)

    def _verify_record(self, record: Signed, match_id: str, key: DeviceKey | None) -> None:
        """A signed record holds: from a device we know, signed by it for this match (changes
        nothing; else `ProtocolError`, naming the device)."""
        who = self.device_name(record.device)
        if key is None:
            raise ProtocolError(
                f"A {record.kind!r} message came signed by {who}, whose key this device does not "
                "have: refused."
            )
        assert self.crypto is not None
        if not record.verified_by(key, match_id, self.crypto.verify):
            raise ProtocolError(
                f"A {record.kind!r} message said to come from {who} does not carry its "
                "signature for this game (changed on the way, made up, or from another game): "
                "refused."
            )

    def _fresh_key(self) -> None:
        """Signed play, a new match on this session ("Play again"): a new key pair signs it, so
        nothing signed in one match stands for the other's and its table code is new."""
        if self.crypto is None or self.key_maker is None:
            return
        fresh = self.key_maker()
        if fresh is not None:
            self.crypto = fresh

    def _key_of(self, device: str) -> DeviceKey | None:
        return self.keys.get(device)

    def _take_keys(self, keys: dict[str, object]) -> None:
        """Keys the host passed on: a device's key, once known, never changes in a match (a
        host that changed one would be caught by the table code; here, it is refused)."""
        self.keys = self._merged_keys(keys, self.keys)

    def _merged_keys(
        self, keys: dict[str, object], known: dict[str, DeviceKey]
    ) -> dict[str, DeviceKey]:
        merged = dict(known)
        for device, raw in keys.items():
            try:
                key = DeviceKey.from_json(raw)
            except MalformedInput as error:
                raise ProtocolError(error.sentence) from None
            if merged.get(device, key) != key:
                raise ProtocolError(
                    f"The host sent another key for {self.device_name(device)} than before: "
                    "refused."
                )
            merged[device] = key
        return merged

    def tell(self, text: str) -> None:
        """A sentence the page has about this game (not from the network), among its notices."""
        self._notice(text)

    def _notice(self, text: str) -> None:
        self.notices = [*self.notices[-(MAX_NOTICES - 1) :], text]
        self.notice_at = self.now
        self.revision += 1

    def _reject(self, link: Link, sentence: str, reply: bool = True) -> None:
        self._notice(f"Refused from {self._who(link)}: {sentence}")
        if reply:
            self._send(link, "reject", reason=sentence[:400])

    def _check_sender(self, link: Link, seat: int, what: str) -> None:
        """A message about `seat` must come from the device that plays it (or, relayed, from the
        host); a message about one of our own seats can only be our own echo. Signed play: it
        must be signed by that seat's device, wherever it came from."""
        if self.is_host and seat not in link.seats:
            raise ProtocolError(
                f"That {what} claims to be {self.name(seat)}'s but came from "
                f"{self._who(link)}: refused as forged."
            )
        record = self._incoming
        if record is None or not 0 <= seat < len(self._the_config().seats):
            return
        if record.device != self.device_of(seat):
            raise ProtocolError(
                f"That {what} claims to be {self.name(seat)}'s but is signed by "
                f"{self.device_name(record.device)}: refused as forged."
            )
