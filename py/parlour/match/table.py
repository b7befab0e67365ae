"""A match as one device holds it: the shared match plus the private stores of its own seats.

Pass-and-play holds every seat; a peer holds one. Acting goes through the game's `seal` (which
commits hidden choices in the acting seat's store) and then the match's checks, so the UI and the
bots never build a public action by hand.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from typing import Any, Generic

from parlour.errors import MalformedInput, ParlourError
from parlour.fair.commit import Context, Opening, commitment_of
from parlour.fair.encoding import Json, check_text
from parlour.fair.store import PrivateStore
from parlour.games.base import A, AnyGame, Game, S
from parlour.match.config import MatchConfig
from parlour.match.match import Match, Submitted


def new_match_id() -> str:
    return "m-" + secrets.token_hex(8)


def deal_stores(
    game: Game[S, A],
    config: MatchConfig,
    seats: Iterable[int],
    stores: dict[int, PrivateStore] | None = None,
    shared: Mapping[int, Mapping[str, str]] | None = None,
    private: Mapping[int, Mapping[str, Json]] | None = None,
) -> dict[int, PrivateStore]:
    """The private stores of the seats held on this device, with their dealt values committed.

    Online this happens before the public seed is drawn, and the commitments are published
    first (`MatchConfig.dealt`), so no device can deal again once it knows the seed; `shared`
    is what these seats drew from decks dealt across devices."""
    local = list(seats)
    if stores is None:
        stores = {s: PrivateStore(Context(config.match_id, s)) for s in local}
    for seat, values in game.deal(config.setup(), local, shared, private).items():
        for label, value in values.items():
            stores[seat].commit(label, value)
    return stores


def dealt_commitments(stores: dict[int, PrivateStore]) -> dict[str, dict[str, str]]:
    """What each local seat publishes of its dealt values: the commitments, by label."""
    return {
        str(seat): {label: commitment_of(store.context, o) for label, o in store.openings.items()}
        for seat, store in stores.items()
        if store.openings
    }


class Table(Generic[S, A]):
    """A match of a game whose states are `S` and actions `A`, with this device's stores (a
    table read back from a save is an `AnyTable`)."""

    def __init__(self, match: Match[S, A], stores: dict[int, PrivateStore]) -> None:
        self.match = match
        self.stores = stores

    @classmethod
    def new(
        cls, game: Game[S, A], config: MatchConfig, seed: bytes, local_seats: Iterable[int]
    ) -> Table[S, A]:
        return cls(Match(game, config, seed), deal_stores(game, config, local_seats))

    @property
    def game(self) -> Game[S, A]:
        return self.match.game

    @property
    def state(self) -> S:
        return self.match.state

    def legal(self, seat: int) -> list[A]:
        return list(self.game.legal_actions(self.state, seat, self.stores.get(seat)))

    def view(self, seat: int) -> Mapping[str, Json]:
        """What `seat` may see: the public view and that seat's own secrets only."""
        return self.game.seat_view(self.state, seat, self.stores.get(seat))

    def act(self, seat: int, choice: A) -> Submitted:
        """A local seat takes `choice` (as listed by `legal`); refusals change nothing."""
        store = self.stores.get(seat)
        if store is None:
            return Submitted(reason=f"{self.match.seat_name(seat)} is not played on this device.")
        try:
            action = self.game.seal(self.state, seat, choice, store)
        except ParlourError as error:
            return Submitted(reason=error.sentence)
        except (ValueError, KeyError):
            return Submitted(reason="That choice cannot be made now.")
        return self.match.submit(seat, action)

    # -- undo ----------------------------------------------------------------------------

    def undo_floor(self) -> int:
        """The earliest step undo may go back to: just after the last reveal of hidden info."""
        for entry in reversed(self.match.entries):
            if self.game.reveals(self.game.parse_action(entry.action)):
                return entry.seq
        return 0

    def can_undo(self) -> bool:
        return self.match.step > self.undo_floor() and self.match.result() is None

    def undo(self) -> bool:
        if not self.can_undo():
            return False
        self.match.truncate(self.match.step - 1)
        return True

    # -- the end -------------------------------------------------------------------------

    def openings(self, seat: int) -> list[Opening]:
        """What `seat` publishes for the audit: every opening its store holds."""
        return list(self.stores[seat].openings.values())

    # -- persistence ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Json]:
        return {
            "match": self.match.to_json(),
            "stores": {str(s): store.to_json() for s, store in self.stores.items()},
        }

    @classmethod
    def from_json(cls, data: object, games: Mapping[str, AnyGame] | None = None) -> AnyTable:
        check_text(data)
        if not isinstance(data, dict) or not isinstance(data.get("stores"), dict):
            raise MalformedInput("That saved table is damaged.")
        match = Match.from_json(data.get("match"), games)
        stores: dict[int, PrivateStore] = {}
        for key, raw in data["stores"].items():
            store = PrivateStore.from_json(raw)
            if str(store.context.seat) != key or store.context.match_id != match.config.match_id:
                raise MalformedInput("That saved table's private stores do not fit its match.")
            stores[store.context.seat] = store
        return cls(match, stores)


# A table whose game is known only at run time (read from a save, or chosen by id).
AnyTable = Table[Any, Any]
