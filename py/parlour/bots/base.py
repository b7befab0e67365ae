"""What a bot is: a function of what its seat may know, and nothing else (docs/bots.md).

A bot receives a `SeatKnowledge` and a seed and returns one of the legal actions. The knowledge
holds the seat's own view (the public view plus that seat's secrets), its own private store, the
legal actions and the public history of the match; it holds no state object, no other seat's
store and no deck order, so a bot cannot read what its seat may not know: it can only sample it,
consistently with what is public (determinisation), and search over the samples.

Every bot is registered under (game id, level) in `parlour.bots.registry`; the page, the arena
and the tests find bots there and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.fair.encoding import Json
from parlour.fair.store import PrivateStore
from parlour.games.base import A, Game, S
from parlour.games.options import BOT_LEVELS

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

    `view` is `game.seat_view(state, seat, store)`: the public view plus this seat's own
    secrets. `legal` are the actions the engine allows this seat now (for a seat that is not
    to move, the optional ones, such as a Telepathic partner's Announcement). `to_move` says
    whether the game waits on this seat (if not, the bot may also decline by returning None).
    """

    game: str
    seat: int
    view: Mapping[str, Any]
    store: PrivateStore
    legal: tuple[Any, ...] | Sequence[Any]
    history: Sequence[PublicStep]
    to_move: bool = True


# A bot: knowledge and a seed in, one legal action out (or None to decline an optional one).
Bot = Callable[[SeatKnowledge, bytes], Any]


def knowledge_of(
    game: Game[S, A],
    states: Sequence[S],
    log: Sequence[tuple[int, Json]],
    seat: int,
    store: PrivateStore,
) -> SeatKnowledge:
    """What `seat` may know now: built from the public states of the match (`states[k]`, after k
    actions; they hold commitments, never secrets) and its log, turned into views right here,
    so nothing but views reaches the bot."""
    state = states[len(log)]
    moving = seat in game.to_move(state)

    def step(index: int) -> PublicStep:
        actor, action = log[index]
        return PublicStep(actor, action, game.public_view(states[index]))

    return SeatKnowledge(
        game=game.id,
        seat=seat,
        view=game.seat_view(state, seat, store),
        store=store,
        legal=game.legal_actions(state, seat, store),
        history=PublicHistory(len(log), step),
        to_move=moving,
    )
