"""A match: config, public seed and the log; its state is the fold of `apply` over the log.

The same object serves pass-and-play, peers, bots, replays, undo and resume: everything that
changes a match goes through `submit` (a local seat acts) or `receive` (an entry from a peer),
and both run the game's own checks. A rejected action changes nothing and says why.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic

from parlour.errors import IllegalAction, MalformedInput, ParlourError
from parlour.fair.encoding import Json, check_text, parse_json
from parlour.games import game_by_id
from parlour.games.base import A, AnyGame, Game, Outcome, S, Termination
from parlour.match.config import MatchConfig
from parlour.match.log import LogEntry, entry_hash, genesis_hash

FORMAT = "psi-parlour/match"
FORMAT_VERSION = 1


def forfeited_seat(action: object) -> object | None:
    """The seat a forfeit entry names (`{"forfeit": seat}`), or None for a game's action.

    A forfeit is the match's own entry, not a game's: it ends any game the same way."""
    if isinstance(action, dict) and set(action) == {"forfeit"}:
        seat: object = action["forfeit"]  # as written: `Match` refuses all but a seat
        return seat
    return None


def timed_out_seat(action: object) -> object | None:
    """The seat a time-out entry names (`{"timeout": seat}`), or None. Played by link, a set-up
    may allow a time per move; once it is past, another player's claim ends the game this way,
    whatever the step (deciding included: the set-up chose to time it)."""
    if isinstance(action, dict) and set(action) == {"timeout"}:
        seat: object = action["timeout"]
        return seat
    return None


def declared(action: object) -> bool:
    """Is this entry a forfeit or a time-out, which ends the game against a seat? Only the one
    entitled to declare it may (online, the host on its clock; by link, a signed claim): a
    seat's own move never may, so every path that takes a seat's move refuses these."""
    return forfeited_seat(action) is not None or timed_out_seat(action) is not None


MAX_SAVED_BYTES = 2_000_000


@dataclass(frozen=True)
class Submitted:
    """What `submit` answers: the new entry, or the engine's reason for refusing."""

    entry: LogEntry | None = None
    reason: str | None = None
    sent: bool = False  # online, a guest's move on its way to the host (not in the log yet)

    @property
    def ok(self) -> bool:
        return self.entry is not None


class Match(Generic[S, A]):
    """A match of a game whose states are `S` and actions `A` (`Match[EspState, esp.Action]`);
    a match read back from a save, whose game is known only by its id, is an `AnyMatch`."""

    def __init__(self, game: Game[S, A], config: MatchConfig, seed: bytes) -> None:
        if config.game != game.id:
            raise MalformedInput(f"That set-up is for {config.game}, not {game.name}.")
        game.check_setup(config.setup())
        self.game = game
        self.config = config
        self.seed = seed
        self.genesis = genesis_hash(config.to_json(), seed)
        self.entries: list[LogEntry] = []
        self._states: list[S] = [game.initial_state(config.setup(), seed)]
        self._forfeit: tuple[int, Outcome] | None = None  # (step, outcome) of a forfeit

    # -- reading -----------------------------------------------------------------------

    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def step(self) -> int:
        """How many actions have been applied."""
        return len(self.entries)

    def state_at(self, step: int) -> S:
        """The state after the first `step` actions (0 is the start)."""
        if not 0 <= step <= self.step:
            raise IndexError(f"step {step} is outside 0..{self.step}")
        return self._states[step]

    def states(self) -> list[S]:
        return list(self._states)

    def result(self) -> Outcome | None:
        if self._forfeit is not None:
            return self._forfeit[1]
        return self.game.result(self.state)

    def head(self) -> str:
        """The hash the next entry must point back to."""
        return self.entries[-1].hash if self.entries else self.genesis

    def seat_name(self, seat: int) -> str:
        return self.config.seats[seat]

    # -- changing ------------------------------------------------------------------------

    def submit(self, seat: int, action: A) -> Submitted:
        """A local seat takes `action`; on refusal nothing changes and the reason is returned."""
        try:
            entry = self._append(seat, self.game.action_to_json(action))
        except ParlourError as error:
            return Submitted(reason=error.sentence)
        return Submitted(entry=entry)

    def submit_json(self, seat: int, action_json: Json) -> Submitted:
        """Like `submit`, for an action already in its JSON form (a peer's proposal, the
        match's own forfeit entry)."""
        try:
            entry = self._append(seat, action_json)
        except ParlourError as error:
            return Submitted(reason=error.sentence)
        return Submitted(entry=entry)

    def receive(self, data: object) -> LogEntry:
        """Append an entry made elsewhere (a peer, a saved game) after checking everything."""
        entry = LogEntry.from_json(data)
        if entry.seq != self.step + 1:
            raise IllegalAction(f"Move {entry.seq} arrived when move {self.step + 1} was due.")
        if entry.prev != self.head():
            raise IllegalAction(f"Move {entry.seq} does not follow on from this game's log.")
        expected = entry_hash(self.config.match_id, entry.seq, entry.seat, entry.action, entry.prev)
        if entry.hash != expected:
            raise IllegalAction(f"Move {entry.seq} has been altered: its hash does not match.")
        return self._append(entry.seat, entry.action)

    def _append(self, seat: int, action_json: Json) -> LogEntry:
        if self.result() is not None:
            raise IllegalAction("The game is over.")
        if not isinstance(seat, int) or not 0 <= seat < len(self.config.seats):
            raise IllegalAction(f"There is no seat {seat!r} in this game.")
        forfeit, timeout = forfeited_seat(action_json), timed_out_seat(action_json)
        if forfeit is not None:
            new_state = self.state
            outcome = self._forfeit_outcome(forfeit)
        elif timeout is not None:
            new_state = self.state
            outcome = self._timeout_outcome(timeout)
        else:
            action = self.game.parse_action(action_json)
            if self.game.action_to_json(action) != action_json:
                raise MalformedInput("That action is not written the way this game writes it.")
            new_state = self.game.apply(self.state, seat, action)
        seq, prev = self.step + 1, self.head()
        digest = entry_hash(self.config.match_id, seq, seat, action_json, prev)
        entry = LogEntry(seq, seat, action_json, prev, digest)
        self.entries.append(entry)
        self._states.append(new_state)
        if forfeit is not None or timeout is not None:
            self._forfeit = (seq, outcome)
        return entry

    def _forfeit_outcome(self, seat: object) -> Outcome:
        """A forfeit may be declared only against a seat the game is waiting on for a step its
        own device takes by itself (a seal, an answer, a reveal): deciding may take its time."""
        if not isinstance(seat, int) or not 0 <= seat < len(self.config.seats):
            raise IllegalAction(f"There is no seat {seat!r} to forfeit.")
        state = self.state
        if seat not in self.game.to_move(state) or not self.game.automatic(state, seat):
            raise IllegalAction(
                f"{self.seat_name(seat)} is not holding up a required step, so cannot forfeit."
            )
        winners = self.game.forfeit_winners(self.config.setup(), seat)
        return Outcome(
            Termination.FORFEIT,
            winners,
            f"{self.seat_name(seat)} did not take a required step in time and forfeits.",
        )

    def _timeout_outcome(self, seat: object) -> Outcome:
        """A time-out may be claimed only against a seat the game is waiting on."""
        if not isinstance(seat, int) or not 0 <= seat < len(self.config.seats):
            raise IllegalAction(f"There is no seat {seat!r} to time out.")
        if seat not in self.game.to_move(self.state):
            raise IllegalAction(f"The game is not waiting on {self.seat_name(seat)}.")
        winners = self.game.forfeit_winners(self.config.setup(), seat)
        return Outcome(
            Termination.FORFEIT,
            winners,
            f"{self.seat_name(seat)} ran out of time for a move and forfeits.",
        )

    def upto(self, step: int) -> Match[S, A]:
        """The match as it stood after `step` actions, as a match of its own (a replay's view
        of the past); this one is unchanged."""
        if not 0 <= step <= self.step:
            raise IndexError(f"step {step} is outside 0..{self.step}")
        earlier = copy.copy(self)
        earlier.entries = self.entries[:step]
        earlier._states = self._states[: step + 1]
        if self._forfeit is not None and self._forfeit[0] > step:
            earlier._forfeit = None
        return earlier

    def truncate(self, step: int) -> None:
        """Drop every entry after `step` (undo in pass-and-play, where all seats agree)."""
        if not 0 <= step <= self.step:
            raise IndexError(f"step {step} is outside 0..{self.step}")
        del self.entries[step:]
        del self._states[step + 1 :]
        if self._forfeit is not None and self._forfeit[0] > step:
            self._forfeit = None

    # -- persistence ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Json]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "config": self.config.to_json(),
            "seed": self.seed.hex(),
            "log": [e.to_json() for e in self.entries],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, data: object, games: Mapping[str, AnyGame] | None = None) -> AnyMatch:
        """Rebuild a match by replaying its log: every entry is checked as if it were new."""
        check_text(data)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MalformedInput("That is not a saved Psi Parlour game.")
        if data.get("version") != FORMAT_VERSION:
            raise MalformedInput(
                f"That saved game is format version {data.get('version')!r}; "
                f"this Psi Parlour reads version {FORMAT_VERSION}."
            )
        config = MatchConfig.from_json(data.get("config"))
        seed_hex, log = data.get("seed"), data.get("log")
        if not isinstance(seed_hex, str) or len(seed_hex) != 64 or not isinstance(log, list):
            raise MalformedInput("That saved game has no proper seed or log.")
        try:
            seed = bytes.fromhex(seed_hex)
        except ValueError:
            raise MalformedInput("That saved game's seed is not hex.") from None
        match = cls(game_by_id(config.game, games), config, seed)
        for item in log:
            match.receive(item)
        return match

    @classmethod
    def loads(cls, text: str, games: Mapping[str, AnyGame] | None = None) -> AnyMatch:
        if not isinstance(text, str) or len(text) > MAX_SAVED_BYTES:
            raise MalformedInput("That saved game is too large.")
        return cls.from_json(parse_json(text, "That saved game"), games)


# A match whose game is known only at run time (read from a save, or chosen by id).
AnyMatch = Match[Any, Any]
