"""What every part of a device's game by link stands on: the records it holds, the seats it
plays, its secrets, and the state derived from the records (reset and derived again at will).

`LinkPlay` (device.py: making a game, and the assembly) is one object put together from a class
per concern: this base, what comes in from outside the game (admission.py), the start (start.py:
set-up, joins, deals, the seed), time (timing.py: claims of time), what the others hold and what
this device owes them (keeping.py), the player's sentences (telling.py), steps taken out of turn
(out_of_turn.py), links out (sending.py: links, signatures, codes), our own seats' due steps
(own_steps.py), the derivation (deriving.py: records into the log), links in (receiving.py), the
player's moves and claims (acting.py) and storage (saving.py).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from parlour.errors import MalformedInput
from parlour.fair.commit import Context, Opening
from parlour.fair.encoding import Json
from parlour.fair.joint import JointRandomness
from parlour.fair.signing import DeviceKey, Fork, Signed, Signer, Verify
from parlour.fair.store import PrivateStore
from parlour.games.base import AnyGame, Outcome
from parlour.match.audit import AuditResult
from parlour.match.by_link.records import number_in
from parlour.match.config import MatchConfig
from parlour.match.dealing import Dealing, new_locks
from parlour.match.match import Match
from parlour.match.table import AnyTable
from parlour.words import and_list

if TYPE_CHECKING:
    from parlour.match.by_link.live import Live

WAIT, DONE = "wait", "done"  # what a handler says of a record: not yet, or taken (or void)
CARRY_KINDS = ("carry", "carried")  # a carried live game's first records (carrying.py)
SLACK = 300  # seconds a record's time may be ahead of this device's clock (clocks differ)


class LinkState:
    """One device's records, keys, seats and secrets, and the match derived from them."""

    def __init__(
        self, match_id: str, me: str, signer: Signer, verify: Verify, base: str, now: float
    ) -> None:
        self.match_id, self.me, self.signer, self.verify, self.base = (
            match_id,
            me,
            signer,
            verify,
            base,
        )
        self.records: dict[tuple[str, int], Signed] = {}
        self.keys: dict[str, DeviceKey] = {}
        self.held: dict[str, tuple[int, ...]] = {}  # device -> the seats it holds
        self.heads: dict[str, dict[str, int]] = {}  # device -> the records it said it has
        self.parts: dict[str, dict[int, str]] = {}  # a split link's parts, by tag
        self.forks: list[Fork] = []
        self.stores: dict[int, PrivateStore] = {}
        self.secrets: dict[int, tuple[bytes, bytes]] = {}  # our seats' seed bytes and nonces
        self.private: dict[int, dict[str, Json]] = {}  # our players' private choices
        self.dealt_here = False
        self.compared = False  # the player said everyone sees the same table code
        self.sent_upto = 0  # our records up to this number: the player said they sent them
        self.last_link_at = now
        self.now = now
        self._signed_head: Signed | None = None  # our head as last signed (with a batch)
        self._batch_signed: dict[bytes, bytes] = {}  # a batch's bytes -> our signature
        self._asked: dict[str, tuple[list[Signed], bytes]] = {}  # `to_sign`'s, by its name
        self.receiving = False  # taking a link now (a turn that becomes ours now starts now)
        self.arrived_after: list[str] | None = None  # then: the log's hashes held before it
        self.live: Live | None = None  # a live game carried on here (carrying.py)
        # the live proofs whose signatures held here, as checked (a page answers a signature
        # only in the call that asked for it first: deriving again must not ask again)
        self.live_held: set[tuple[str, bytes, bytes, bytes]] = set()
        self._reset()

    def _reset(self) -> None:
        self.consumed: dict[str, int] = {}
        self.game: AnyGame | None = None
        self.names: list[str] = []
        self.variant: dict[str, Json] = {}
        self.bots: dict[str, str] = {}
        self.limit = 0
        self.creator = ""
        self.commits: dict[int, dict[str, Json]] = {}
        self.reveals: dict[int, Opening] = {}
        self.dealing: Dealing | None = None
        self.joint: dict[int, JointRandomness] = {}
        self.table: AnyTable | None = None
        self.times: list[int] = []  # times[k]: when step k fell due, by its record
        self.sources: list[tuple[str, int]] = []  # the record each log entry came from
        self.cut: dict[int, int] = {}  # step -> the seat whose move out of turn took it
        self.revealed_at: dict[int, int] = {}  # seat -> its seed reveal's time
        self.forfeit: Outcome | None = None  # the start ended by a claim: a seed reveal withheld
        self.withheld: set[int] = set()  # seats claimed against for openings not sent in time
        self.openings: dict[int, list[Opening]] = {}
        self.audit_result: AuditResult | None = None
        self.stopped = ""  # why the game cannot go on (a false reveal or deal step)
        self.notes: list[str] = []

    @property
    def local(self) -> tuple[int, ...]:
        return self.held.get(self.me, ())

    @property
    def match(self) -> Match[Any, Any] | None:
        return self.table.match if self.table is not None else None

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat + 1}"

    def device_of(self, seat: int) -> str | None:
        return next((d for d, seats in self.held.items() if seat in seats), None)

    def _prepare(self, seats: tuple[int, ...]) -> None:
        """Our seats' private stores, their locks on shared decks and their seed bytes."""
        for seat in seats:
            self.stores[seat] = PrivateStore(Context(self.match_id, seat))
            self.secrets[seat] = (secrets.token_bytes(32), secrets.token_bytes(32))
        if self.game is not None:
            new_locks(self._deals(), self.stores)

    def _append(self, kind: str, body: dict[str, Json]) -> Signed:
        """Keep a new record of ours; `_run` then takes it in like anyone's. It is signed with
        the next link's batch (`Sending.links`): until then it has no proof."""
        seq = self._mine() + 1
        record = Signed(self.me, seq, kind, body)
        if seq == 1:
            self._register(record)
        self.records[(self.me, seq)] = record
        return record

    def _mine(self) -> int:
        return max((q for d, q in self.records if d == self.me), default=0)

    def _register(self, record: Signed) -> None:
        if record.kind in CARRY_KINDS:
            return  # a carried game's keys and seats come from the live save (carrying.py)
        self.keys[record.device] = DeviceKey.from_json(record.body["k"])
        self.held[record.device] = seats_in(record)

    def _device_name(self, device: str, held: Mapping[str, tuple[int, ...]]) -> str:
        seats = held.get(device, ())
        people = [self.name(s) for s in seats if str(s) not in self.bots]
        return f"{and_list(people) or device}'s device"

    def _took(self, record: Signed) -> None:
        """A log entry from `record`; the next step falls due at its time, but never before
        the step it follows did (a move signed "long ago" would put the next seat out of time
        at once)."""
        self.sources.append((record.device, record.seq))
        self.times.append(max(number_in(record, "t"), *self.times[-1:]))

    def _ahead(self, record: Signed) -> bool:
        """Is a record signed ahead of this device's clock (by more than `SLACK`)? A claim,
        a move or a reveal from the future waits until the clock catches up: a step falls due
        no earlier than the one before it, so one far-future time would otherwise shield its
        signer from every claim for the rest of the game."""
        return number_in(record, "t") > self.now + SLACK

    def _config(self) -> MatchConfig:
        assert self.game is not None
        return MatchConfig(self.game.id, self.match_id, tuple(self.names), dict(self.variant))

    def _setup(self) -> Any:
        return self._config().setup()

    def _deals(self) -> list[Any]:
        assert self.game is not None
        return self.game.shared_deals(self._setup())


def seats_in(record: Signed) -> tuple[int, ...]:
    """The seats a device's first record says it holds."""
    if record.kind == "open":
        seats = record.body["h"]
        if not isinstance(seats, list) or not all(type(s) is int and 0 <= s < 8 for s in seats):
            raise MalformedInput("The invite's seats are not seat numbers.")
        return tuple(sorted(set(seats)))
    seat = record.body["s"]
    if type(seat) is not int or not 0 <= seat < 8:
        raise MalformedInput("A join names no seat.")
    return (seat,)
