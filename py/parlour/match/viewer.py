"""Stepping through a replay (pure): where the viewer stands, and what it may show there.

`Replay.open` rebuilds the match from a `ReplayRecord` with the audit's own replay (every entry
checked as if a peer sent it) and runs the rest of the audit with the record's openings, so
whoever opens a shared game gets the same verdict the players got. A log that breaks the rules
somewhere is shown up to the move before, with the cheat as the verdict.

The viewer stops at positions: the start and each move worth telling (routine steps, such as a
seal, are folded into the move before them; the screen says which are routine). At every
position it shows what a spectator with no seat's secrets would see. Once the viewer has been to
the end, "show everything" may be switched on: then the hidden values are shown at every
position, from the openings. Only openings of commitments that are in the public record are
used (anything else in a record is ignored), and only when the audit found no cheat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from parlour.errors import MalformedInput
from parlour.fair.commit import Context, Opening, commitment_of, is_commitment
from parlour.fair.encoding import Json
from parlour.fair.store import PrivateStore
from parlour.games import game_by_id
from parlour.games.base import AnyGame, Outcome
from parlour.match.audit import AuditResult, Cheat, open_seals, replay_log
from parlour.match.match import AnyMatch
from parlour.match.replay import ReplayRecord
from parlour.match.signature_check import Check, SignatureReport
from parlour.match.signature_check import check as check_signatures

# Whether the move at a log index (0-based) is routine, given the match it is in.
Routine = Callable[[AnyMatch, int], bool]

NOT_YET = "Step to the end of the game first: then every hidden value can be shown."
NOT_TRUSTED = "The hidden values are not shown: the fair-play check found a cheat."
TOO_MANY_MOVES = (
    "This replay has more moves than any real game of {game} could: it was not made by this site."
)


@dataclass
class Replay:
    """One replay being watched: the match, the verdict, and the viewer's position."""

    record: ReplayRecord
    match: AnyMatch  # every sound entry of the record, applied
    verdict: AuditResult
    stops: list[int]  # the entry counts the viewer stops at; stops[0] is the start
    position: int = 0
    playing: bool = False
    seen_end: bool = False
    result_asked: bool = False  # "Show the result" pressed: the ending is told before the end
    everything: bool = False
    revision: int = 0  # changes with every move of the viewer (autoplay's ticks carry it)
    signatures: SignatureReport | None = None  # who signed which move (a signed game's)
    _stores: dict[int, PrivateStore] = field(default_factory=dict)

    @classmethod
    def open(
        cls,
        record: ReplayRecord,
        games: Mapping[str, AnyGame] | None = None,
        routine: Routine | None = None,
        check: Check | None = None,
    ) -> Replay:
        """Replay and audit a record; raises `MalformedInput` or `IllegalAction` (a sentence)
        when its set-up cannot even start a game, or it holds more moves than a real game of
        its game can (the game's `max_moves`). `check` checks the moves' signatures (None:
        this browser cannot, and says so)."""
        game = game_by_id(record.config.game, games)
        most = game.options.max_moves if game.options is not None else None
        if most is not None and len(record.moves) > most:
            raise MalformedInput(TOO_MANY_MOVES.format(game=game.name))
        match, cheat = replay_log(game, record.config, record.seed, record.entries())
        verdict = cheat if cheat is not None else open_seals(match, record.openings)
        stops = _stops(match, routine)
        replay = cls(record, match, verdict, stops, seen_end=len(stops) == 1)
        replay._stores = _public_stores(record)
        replay.signatures = check_signatures(
            record.signed,
            record.config.match_id,
            record.config.seats,
            record.moves,
            match.genesis,
            check or _cannot_check,
            record.openings,
        )
        return replay

    # -- where the viewer stands -------------------------------------------------------

    @property
    def last(self) -> int:
        return len(self.stops) - 1

    @property
    def step(self) -> int:
        """How many entries of the log are applied at this position."""
        return self.stops[self.position]

    @property
    def at_end(self) -> bool:
        return self.position == self.last

    @property
    def cut_short(self) -> bool:
        """Whether the record's log goes on past what could be replayed (a cheat in it)."""
        return self.match.step < len(self.record.moves)

    def go(self, position: int) -> None:
        self.position = max(0, min(self.last, position))
        self.seen_end = self.seen_end or self.at_end
        if self.at_end:
            self.playing = False
        self.revision += 1

    def first(self) -> None:
        self.go(0)

    def previous(self) -> None:
        self.go(self.position - 1)

    def next(self) -> None:
        self.go(self.position + 1)

    def end(self) -> None:
        self.go(self.last)

    def play(self, on: bool) -> None:
        """Autoplay on or off; on at the end starts again from the start."""
        if on and self.at_end:
            self.go(0)
        self.playing = on and self.last > 0
        self.revision += 1

    def tick(self, revision: object) -> bool:
        """Autoplay's next move, if the tick is for this position; whether it moved."""
        if not self.playing or revision != self.revision:
            return False
        self.go(self.position + 1)
        return True

    # -- what it may show ----------------------------------------------------------------

    def now(self) -> AnyMatch:
        """The match as it stood at this position."""
        return self.match.upto(self.step)

    def result(self) -> Outcome | None:
        return self.now().result()

    @property
    def tells_result(self) -> bool:
        """Whether the header tells how the game ended: at the end, or once asked. Having
        been at the end once is not enough: a viewer stepping back, or a link to move N, must
        not find the result waiting at the top."""
        return self.at_end or self.result_asked

    def show_result(self, on: bool = True) -> None:
        """The "Show the result" button (on), or a link to a move (off: no spoiler)."""
        self.result_asked = on
        self.revision += 1

    def everything_refusal(self) -> str | None:
        """Why "show everything" may not be switched on now, or None if it may."""
        if isinstance(self.verdict, Cheat):
            return NOT_TRUSTED
        if not self.seen_end:
            return NOT_YET
        return None

    def show_everything(self, on: bool) -> bool:
        """Switch "show everything"; whether it is on now (it stays off while it may not be:
        `everything_refusal` says why)."""
        self.everything = on and self.everything_refusal() is None
        self.revision += 1
        return self.everything

    def store_of(self, seat: int) -> PrivateStore | None:
        """A seat's opened values, while everything is shown; None otherwise."""
        return self._stores.get(seat) if self.everything else None


def _stops(match: AnyMatch, routine: Routine | None) -> list[int]:
    """The start (after any routine first steps) and each telling move, with the routine steps
    after it folded in."""
    count = match.step
    told = [i for i in range(count) if routine is None or not routine(match, i)]
    if not told:
        return [count]
    ends = [told[k + 1] if k + 1 < len(told) else count for k in range(len(told))]
    return [told[0], *ends]


def _public_stores(record: ReplayRecord) -> dict[int, PrivateStore]:
    """Each seat's openings whose commitment is in the public record (the set-up's dealt
    commitments, or any action): genuine openings of that seat's sealed values, nothing else."""
    public = set(_commitments(record.config.dealt)) | set(_commitments(list(record.moves)))
    match_id = record.config.match_id
    stores = {}
    for seat, openings in record.openings.items():
        context = Context(match_id, seat)
        kept = {o.label: o for o in openings or () if _commitment(context, o) in public}
        stores[seat] = PrivateStore(context, kept)
    return stores


def _commitment(context: Context, opening: Opening) -> str | None:
    try:
        return commitment_of(context, opening)
    except (MalformedInput, ValueError):
        return None


def _commitments(value: Json) -> Iterator[str]:
    """Every string in a JSON value that could be a commitment."""
    if is_commitment(value):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _commitments(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _commitments(item)


def _cannot_check(algorithm: str, public: bytes, data: bytes, signature: bytes) -> None:
    """No way to check signatures here (a page without WebCrypto)."""
    return None
