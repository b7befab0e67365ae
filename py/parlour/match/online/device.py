"""What every part of an online session stands on: this device, what it plays, how it speaks.

An `OnlineSession` is one object, one device's side of a match, put together from one class per
concern (links.py, seed.py, seed_forfeit.py, moves.py, verdicts.py, joining.py, saves.py; the
whole in session.py). Each of those stands on `Device`, which holds what lasts as long as the
session does (across games, with "Play again"): the role, the clock, the set-up, the seats held
here, the links, the outbox and the notices. Each concern keeps the state of one game itself
and starts it afresh in its own `_new_...` method.

Where one concern must call on another it calls an abstract method declared here, so every such
crossing is written down in one place.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from parlour.errors import ProtocolError
from parlour.fair.encoding import Json
from parlour.fair.store import PrivateStore
from parlour.games.base import Game
from parlour.match.config import MatchConfig
from parlour.match.match import AnyMatch
from parlour.match.table import AnyTable
from parlour.match.wire import Limits, encode

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


def seat_peer(seat: int) -> str:
    """The host's name for the connection of a remote seat."""
    return f"seat-{seat}"


class Device(ABC):
    """The state every concern of a session reads, and the ways a session speaks."""

    def __init__(self, role: str, now: float) -> None:
        self.role = role  # "host" or "guest"
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
        self.remote_links: dict[str, str] = {}  # a guest's picture of who is connected
        self.outbox: list[tuple[str, str]] = []  # (peer, text), for the transport to send
        self.notices: list[str] = []
        self.notice_at = now  # when the latest notice was given
        self.changed_at = now  # when the log last changed (the host's clock for stalls)
        self.revision = 0  # bumped whenever something a screen shows changed
        self._new_match()

    def _new_game(self) -> None:
        """One game's private stores and table: none until it is dealt and its seed drawn."""
        self.stores: dict[int, PrivateStore] = {}
        self.table: AnyTable | None = None

    # -- what one concern asks of another --------------------------------------------------

    @abstractmethod
    def _new_match(self) -> None:
        """Every concern's state of one game, afresh (joining.py): `_new_game` here, and each
        concern's own `_new_...`."""

    @abstractmethod
    def run_automatic(self) -> None:
        """Take every step this device's seats take by themselves (moves.py)."""

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
        if link.state != "connected":
            return
        link.n_out += 1
        link.sent = self.now
        self.outbox.append((link.peer, encode(type_, link.n_out, **body)))

    def _broadcast(self, type_: str, skip: Link | None = None, **body: object) -> None:
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

    def _check_sender(self, link: Link, seat: int, what: str) -> None:
        """A message about `seat` must come from the device that plays it (or, relayed, from the
        host); a message about one of our own seats can only be our own echo."""
        if self.is_host and seat not in link.seats:
            raise ProtocolError(
                f"That {what} claims to be {self.name(seat)}'s but came from "
                f"{self._who(link)}: refused as forged."
            )
