"""What a bot is: a function of what its seat may know, and nothing else (docs/bots.md).

A bot receives a `SeatKnowledge` and a seed and returns one of the legal actions. The knowledge
holds the match's set-up (public: the seats and the variant chosen, so a bot reads every
parameter of the game, such as Psi Squad's cypher length, from the game's own declaration and
never from a table of its own), the seat's own view (the public view plus that seat's secrets),
its own private store, the legal actions and the public history of the match; it holds no
state object, no other seat's store and no deck order, so a bot cannot read what its seat may
not know: it can only sample it, consistently with what is public (determinisation), and search
over the samples.

Every bot is registered under (game id, level) in `parlour.bots.registry`; the page, the arena
and the tests find bots there and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.fair.encoding import Json
from parlour.fair.store import PrivateStore
from parlour.games.base import A, Game, S, Setup
from parlour.games.declared import options_for
from parlour.games.options import BOT_LEVELS, Options

LEVELS: tuple[str, ...] = BOT_LEVELS  # easy, medium, hard: declared with the seat kinds
DEFAULT_LEVEL = "medium"


@dataclass(frozen=True)
class PublicStep:
    """One entry of the match log as everybody saw it: who acted, the action as written in the
    log (commitments in place of secrets), and the public view just before it."""

    seat: int
    action: Json
    before: Mapping[str, Any]


class PublicHistory(Sequence[PublicStep]):
    """The match so far, step by step, built lazily from public views only (most bots read a
    few steps at most, and a public view costs something to make)."""

    def __init__(self, count: int, step: Callable[[int], PublicStep]) -> None:
        self._count = count
        self._step = step
        self._cache: dict[int, PublicStep] = {}

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> PublicStep:  # type: ignore[override]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        if index not in self._cache:
            self._cache[index] = self._step(index)
        return self._cache[index]

    def __iter__(self) -> Iterator[PublicStep]:
        return (self[i] for i in range(self._count))


@dataclass(frozen=True)
class SeatKnowledge:
    """Everything a bot may use to decide, and nothing more (the type says so).

    `setup` is the match's set-up as everybody knows it (seat names, variant; online, the
    commitments and deal transcripts): `option` reads a variant option from it, default filled
    in, so a choice added to a game's declaration reaches its bots with no change to them.

    `view` is `game.seat_view(state, seat, store)`: the public view plus this seat's own
    secrets. `legal` are the actions the engine allows this seat now (for a seat that is not
    to move, the optional ones, such as a Telepathic partner's Announcement). `to_move` says
    whether the game waits on this seat (if not, the bot may also decline by returning None).
    """

    game: str
    seat: int
    setup: Setup
    view: Mapping[str, Any]
    store: PrivateStore
    legal: tuple[Any, ...] | Sequence[Any]
    history: Sequence[PublicStep]
    to_move: bool = True

    @property
    def options(self) -> Options:
        """The game's set-up declaration (games/<game>/options.py)."""
        return options_for(self.game)

    def option(self, key: str) -> Json:
        """The value of the variant option `key` in this match, its default if left out."""
        return self.options.value(self.setup.variant, key)

    def number(self, key: str) -> int:
        """A number option's value in this match (Psi Squad's "length")."""
        return self.options.number(self.setup.variant, key)


# A bot: knowledge and a seed in, one legal action out (or None to decline an optional one).
Bot = Callable[[SeatKnowledge, bytes], Any]


def knowledge_of(
    game: Game[S, A],
    setup: Setup,
    states: Sequence[S],
    log: Sequence[tuple[int, Json]],
    seat: int,
    store: PrivateStore,
) -> SeatKnowledge:
    """What `seat` may know now: built from the match's set-up (public), the public states of
    the match (`states[k]`, after k actions; they hold commitments, never secrets) and its log,
    turned into views right here, so nothing but views reaches the bot."""
    state = states[len(log)]
    moving = seat in game.to_move(state)

    def step(index: int) -> PublicStep:
        actor, action = log[index]
        return PublicStep(actor, action, game.public_view(states[index]))

    return SeatKnowledge(
        game=game.id,
        seat=seat,
        setup=setup,
        view=game.seat_view(state, seat, store),
        store=store,
        legal=game.legal_actions(state, seat, store),
        history=PublicHistory(len(log), step),
        to_move=moving,
    )
