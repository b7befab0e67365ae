"""Who acts next at a table: one answer for the arena, a device's bot seats, the simulations and
the play screen (pure).

It lives here, beside the `Game` interface it reads (to_move, auto_action, legal_actions,
result), because the arena (bots/) is among its users, and bots/ may not import match/. The
awkward cases are the same for every game, so they are decided once:
- a game that ended waits on nobody (`moving` is empty), even if its last state still names a
  seat to move;
- in a simultaneous step several seats move at once; they are taken lowest seat first;
- a seat whose own device answers by itself (an answer from a secret, a seal) goes before any
  decision, and only the device holding that seat's store can take it (`automatic`);
- a seat that is not to move may still have an optional step (a Telepathic partner's
  Announcement): `offered` lists those among the seats a caller decides for.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping

from parlour.fair.store import PrivateStore
from parlour.games.base import A, Game, S


def moving(game: Game[S, A], state: S) -> tuple[int, ...]:
    """The seats the game waits on, lowest first; none once the game has a result."""
    if game.result(state) is not None:
        return ()
    return tuple(sorted(game.to_move(state)))


def automatic(
    game: Game[S, A],
    state: S,
    stores: Mapping[int, PrivateStore],
    also: Callable[[S, int], A | None] | None = None,
) -> Iterator[tuple[int, A]]:
    """The steps nobody has to decide, lowest seat first: each moving seat's own automatic
    step (its store is needed, so only the device holding it takes one), or else what `also`
    takes for it (a pass the ESPEERS stops take for a person alone with bots)."""
    for seat in moving(game, state):
        action = game.auto_action(state, seat, stores.get(seat))
        if action is None and also is not None:
            action = also(state, seat)
        if action is not None:
            yield seat, action


def first_automatic(
    game: Game[S, A], state: S, stores: Mapping[int, PrivateStore]
) -> tuple[int, A] | None:
    """The first automatic step (`automatic`), or None when every moving seat must decide."""
    return next(automatic(game, state, stores), None)


def offered(
    game: Game[S, A], state: S, stores: Mapping[int, PrivateStore], seats: Collection[int]
) -> list[int]:
    """Which of `seats` (held here: their stores are in `stores`) are not to move but may act
    now, lowest first; none once the game has a result."""
    if game.result(state) is not None:
        return []
    waited_on = game.to_move(state)
    return [
        seat
        for seat in sorted(seats)
        if seat not in waited_on
        and seat in stores
        and game.legal_actions(state, seat, stores[seat])
    ]


def waiting_on(
    game: Game[S, A], state: S, stores: Mapping[int, PrivateStore], seats: Collection[int]
) -> int | None:
    """The lowest of `seats` (held here) that the game waits to decide, or None: when an
    automatic step comes first, when the game ended, or when nobody of `seats` moves."""
    if first_automatic(game, state, stores) is not None:
        return None
    for seat in moving(game, state):
        if seat in seats and seat in stores:
            return seat
    return None
