"""The one interface all four games implement, and the values it speaks in.

Shape taken from OpenSpiel (Game / State / per-seat observation) and boardgame.io (a declarative
game whose moves reject illegal input, and a per-player view that is the only thing a UI or peer
ever receives). A game is a deterministic state machine: `initial_state(setup, seed)` then
`apply(state, seat, action)` for every action in the log. States are immutable values, so a fold
of the log can be kept step by step for replay and undo.

Secrets never enter a state: an action that hides something carries only its commitment; an
action that reveals carries the opening, which `apply` checks. A seat's own secrets reach its view
through its `PrivateStore`, which lives on that seat's device.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Generic, TypedDict, TypeVar

from parlour.errors import IllegalAction
from parlour.fair.encoding import Json
from parlour.fair.store import PrivateStore
from parlour.games.options import Options
from parlour.words import YOU, name_in, possessive

S = TypeVar("S")  # a game's state
A = TypeVar("A")  # a game's action


class Termination(Enum):
    """How a game ended."""

    WIN = "win"
    SHARED_WIN = "shared win"
    DRAW = "draw"
    LOSS = "loss"  # a cooperative game lost by everyone
    FORFEIT = "forfeit"


class OutcomeJson(TypedDict):
    """An `Outcome` as the views and the log's readers see it."""

    termination: str
    winners: list[int]
    reason: str


@dataclass(frozen=True)
class Outcome:
    """The end of a game as data: how it ended, who won (maybe nobody) and a sentence why."""

    termination: Termination
    winners: frozenset[int]
    reason: str

    def to_json(self) -> OutcomeJson:
        return {
            "termination": self.termination.value,
            "winners": sorted(self.winners),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Setup:
    """What a game needs to start: the match id (commitments are bound to it), seats, variant."""

    match_id: str
    seat_names: tuple[str, ...]
    variant: Mapping[str, Json] = field(default_factory=dict)
    # Online: the commitments each seat made to its dealt values before the public seed was
    # drawn (seat -> label -> commitment), so nobody could deal after seeing the seed.
    dealt: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    # Online: the public transcripts of decks dealt across devices (label -> DealRecord JSON).
    shared: Mapping[str, Json] = field(default_factory=dict)

    @property
    def seats(self) -> int:
        return len(self.seat_names)

    def precommitted(self, seat: int, label: str) -> str | None:
        """The commitment `seat` published for `label` before the seed, if it had to."""
        return self.dealt.get(seat, {}).get(label)


@dataclass(frozen=True)
class SharedDeal:
    """A deck from which seats that may sit on different devices each draw one card: online
    it is dealt by commutative encryption (`fair.sra`), so no device sees another's card."""

    label: str
    cards: tuple[str, ...]
    seats: tuple[int, ...]  # the recipients, one card each, in dealing order


@dataclass(frozen=True)
class Sealed:
    """A commitment still closed at the end of a game, which its seat must open for the audit."""

    seat: int
    label: str
    commitment: str
    step: int
    what: str  # e.g. "tile 7", for the sentences of the audit


class Game(ABC, Generic[S, A]):
    """A game's rules. Subclasses are stateless; everything lives in the states they return."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    # The set-up declared as data (games/options.py); None: no variant option at all.
    options: ClassVar[Options | None] = None

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A game with a declaration takes its id, name and seat counts from it (which takes its
        id and name from the catalog), so no rules class restates them."""
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("options")
        if isinstance(declared, Options):
            cls.id = declared.game
            cls.name = declared.name
            cls.min_seats = min(declared.seats.counts)
            cls.max_seats = max(declared.seats.counts)

    def check_setup(self, setup: Setup) -> None:
        """Refuse a set-up the game cannot be played with (seat count, unknown variant)."""
        if not self.min_seats <= setup.seats <= self.max_seats:
            raise IllegalAction(
                f"{self.name} is played by {self.min_seats} to {self.max_seats} players, "
                f"not {setup.seats}."
            )
        if self.options is not None:
            self.options.check(setup.variant, setup.seats)
        elif setup.variant:
            raise IllegalAction(f"{self.name} has no variant options.")

    @abstractmethod
    def initial_state(self, setup: Setup, seed: bytes) -> S:
        """The state before the first action; `seed` is the public seed of the match."""

    @abstractmethod
    def to_move(self, state: S) -> frozenset[int]:
        """The seats that may act now (several at once in simultaneous steps)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int, store: PrivateStore | None) -> Sequence[A]:
        """Every action `seat` may take now; the store supplies that seat's own secrets."""

    def deal(
        self,
        setup: Setup,
        seats: Sequence[int],
        shared: Mapping[int, Mapping[str, str]] | None = None,
        private: Mapping[int, Mapping[str, Json]] | None = None,
    ) -> dict[int, dict[str, Json]]:
        """Private values dealt at the start to the seats held on this device, by label (drawn
        with `secrets`; each seat's store commits them). `shared` holds, online, the card each
        of these seats drew in every shared deal (seat -> label -> card); `private`, choices a
        player made on this device that nobody else may see (an ESPEERS deck). Most games
        deal nothing."""
        return {}

    def dealt_labels(self, setup: Setup, seat: int) -> frozenset[str]:
        """The labels `deal` gives `seat`: what its device must commit to before the seed, so
        the others can refuse a seat that leaves one out (it could deal again after the seed).
        A game that deals says so here too; a test checks the two agree."""
        return frozenset()

    def shared_deals(self, setup: Setup) -> list[SharedDeal]:
        """Decks several seats draw from (online, dealt across devices); most games have none."""
        return []

    def seal(self, state: S, seat: int, action: A, store: PrivateStore) -> A:
        """Turn a seat's private choice into the action it sends, committing what must stay
        hidden through the seat's own store. Runs on the seat's device only."""
        return action

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> S:
        """The state after `seat` takes `action`; raises `IllegalAction`, never mutates."""

    @abstractmethod
    def result(self, state: S) -> Outcome | None:
        """The outcome once the game is over, else None."""

    @abstractmethod
    def public_view(self, state: S) -> Mapping[str, Json]:
        """What everybody may see: JSON-safe, with commitments in place of secrets. Each game
        returns its own TypedDict (e.g. `games.esp.views.EspPublicView`)."""

    @abstractmethod
    def seat_view(self, state: S, seat: int, store: PrivateStore | None) -> Mapping[str, Json]:
        """The public view plus `seat`'s own secrets, and nobody else's."""

    @abstractmethod
    def parse_action(self, data: Json) -> A:
        """An action from its JSON form; raises `MalformedInput` for anything else."""

    @abstractmethod
    def action_to_json(self, action: A) -> Json:
        """The JSON form of an action, as written into the log."""

    def auto_action(self, state: S, seat: int, store: PrivateStore | None) -> A | None:
        """An action the seat's own device takes without asking its player (e.g. answering a
        guess from the secret it holds); None when the player has something to decide."""
        return None

    def automatic(self, state: S, seat: int) -> bool:
        """Is `seat`'s next step one its own device takes by itself (a seal, an answer, a
        reveal the rules require)? Online, a seat that stalls on such a step forfeits."""
        return False

    def forfeit_winners(self, setup: Setup, seat: int) -> frozenset[int]:
        """Who wins when `seat` forfeits (stalled on a required step, in play or while the seed
        is drawn, before any state exists): everybody else."""
        return frozenset(s for s in range(setup.seats) if s != seat)

    def reveals(self, action: A) -> bool:
        """Does this action show hidden information? (Undo never goes back past one.)"""
        return False

    def sealed(self, state: S) -> Sequence[Sealed]:
        """Commitments still closed in `state` (at the end, each seat opens its own)."""
        return ()

    def check_secrets(self, states: Sequence[S], opened: Mapping[tuple[int, str], Json]) -> None:
        """After the audit opened every seal: check the hidden values kept the rules all game.

        `states[k]` is the state after k actions; raise `CommitmentMismatch` naming the seat and
        step of the first breach (an impossible hand, a suppressed "the game is lost", a lie).
        A seal missing from `opened` was withheld: skip what depends on it (the audit reports
        that seat as unverified), so a cheat by another seat is still found.
        """
        return None


# A game whose state and action types are not known here: the table of every game by id (and
# whatever is looked up in it, such as a saved match's game) holds games of different types.
AnyGame = Game[Any, Any]


def seat_name(names: Sequence[str], seat: int, you: int | None = None) -> str:
    """A seat's name as a sentence tells it: "You" for `you` (the one person playing alone on
    this device, against bots; the status line then addresses them, issue 28), else its name.
    `parlour.words` turns it into "your", "you", "You win"."""
    return YOU if seat == you else names[seat]


def named(names: Sequence[str], seat: int, you: int | None = None) -> str:
    """A seat inside a sentence: its name, or "you" (see `seat_name`)."""
    return name_in(seat_name(names, seat, you))


def whose(names: Sequence[str], seat: int, you: int | None = None) -> str:
    """A seat's possessive in a sentence: "Bo's", or "your" (see `seat_name`)."""
    return possessive(seat_name(names, seat, you))
