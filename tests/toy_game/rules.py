"""Second Sight: each round both players seal a Zener symbol at once, then each guesses the
other's, in turn (who guesses first changes each round); then both devices open their seals (an
automatic step: the player has nothing to decide), and a right guess scores a point. After the
last round the most points wins; equal points draw.

The symbols are hidden from the seal to its opening, so between rounds nothing is hidden (a
replay's position there may be played on), and an opening checked in play leaves nothing sealed
at the end but a round cut short by a forfeit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from parlour.errors import CommitmentMismatch, IllegalAction
from parlour.fair.commit import Context, check_opening
from parlour.fair.encoding import Json
from parlour.fair.store import PrivateStore
from parlour.games.base import Game, Outcome, Sealed, Setup, Termination
from parlour.games.zener import SYMBOLS, Symbol
from tests.toy_game.actions import (
    Action,
    Choose,
    Guess,
    Reveal,
    Seal,
    action_to_json,
    parse_action,
)
from tests.toy_game.options import OPTIONS
from tests.toy_game.state import Done, SightState, label
from tests.toy_game.views import SightPublicView, SightSeatView

SEATS = (0, 1)


class SecondSight(Game[SightState, Action]):
    options = OPTIONS  # its id, name and seat counts too (Game.__init_subclass__)

    def initial_state(self, setup: Setup, seed: bytes) -> SightState:
        self.check_setup(setup)
        return SightState(setup, OPTIONS.number(setup.variant, "rounds"))

    def to_move(self, state: SightState) -> frozenset[int]:
        stage = state.stage
        if stage == "seal":
            return frozenset(s for s in SEATS if state.sealed[s] is None)
        if stage == "guess":  # in turn: the first to guess changes each round
            first = state.round % 2
            return frozenset({first if state.guesses[first] is None else 1 - first})
        if stage == "reveal":
            return frozenset(s for s in SEATS if state.shown[s] is None)
        return frozenset()

    def legal_actions(
        self, state: SightState, seat: int, store: PrivateStore | None
    ) -> Sequence[Action]:
        if seat not in self.to_move(state):
            return []
        if state.stage == "seal":
            return [Choose(symbol) for symbol in SYMBOLS]
        if state.stage == "guess":
            return [Guess(symbol) for symbol in SYMBOLS]
        key = label(state.round)
        return [Reveal(store.opening(key))] if store is not None and key in store else []

    def automatic(self, state: SightState, seat: int) -> bool:
        return state.stage == "reveal" and seat in self.to_move(state)

    def auto_action(
        self, state: SightState, seat: int, store: PrivateStore | None
    ) -> Action | None:
        """The opening a seat's device sends by itself once both have guessed."""
        if not self.automatic(state, seat):
            return None
        legal = self.legal_actions(state, seat, store)
        return legal[0] if legal else None

    def reveals(self, action: Action) -> bool:
        return isinstance(action, Reveal)

    def seal(self, state: SightState, seat: int, action: Action, store: PrivateStore) -> Action:
        if isinstance(action, Choose):
            if state.stage != "seal" or state.sealed[seat] is not None:
                raise ValueError("this seat's symbol is already sealed")
            if not isinstance(action.symbol, Symbol):
                raise ValueError("that is no symbol")
            return Seal(store.commit(label(state.round), action.symbol.value, replace=True))
        return action

    def apply(self, state: SightState, seat: int, action: Action) -> SightState:
        if seat not in self.to_move(state):
            if state.outcome is not None:
                raise IllegalAction("The game is over.")
            raise IllegalAction(f"It is not {state.name(seat)}'s turn.")
        step = state.ply + 1
        if state.stage == "seal":
            if not isinstance(action, Seal):
                raise IllegalAction("First both players seal a symbol.")
            return replace(
                state, sealed=_put(state.sealed, seat, (action.commitment, step)), ply=step
            )
        if state.stage == "guess":
            if not isinstance(action, Guess) or not isinstance(action.symbol, Symbol):
                raise IllegalAction("Guess the other player's symbol.")
            return replace(state, guesses=_put(state.guesses, seat, action.symbol), ply=step)
        if not isinstance(action, Reveal):
            raise IllegalAction(f"{state.name(seat)} must open their seal.")
        sealed = state.sealed[seat]
        assert sealed is not None
        opening = action.opening
        what = f"their symbol of round {state.round + 1}"
        if opening.label != label(state.round):
            raise CommitmentMismatch(f"{state.name(seat)}'s reveal is not of {what}.", seat)
        context = Context(state.setup.match_id, seat)
        check_opening(context, sealed[0], opening, who=state.name(seat), what=what, step=sealed[1])
        symbol = Symbol.parse(opening.value)
        if symbol is None:
            raise CommitmentMismatch(
                f"{state.name(seat)} sealed {opening.value!r}, no symbol.", seat
            )
        new = replace(state, shown=_put(state.shown, seat, symbol), ply=step)
        return new if None in new.shown else self._score(new)

    def _score(self, state: SightState) -> SightState:
        shown = tuple(s for s in state.shown if s is not None)
        guesses = tuple(g for g in state.guesses if g is not None)
        scores = tuple(state.scores[s] + (guesses[s] == shown[1 - s]) for s in SEATS)
        new = replace(
            state,
            round=state.round + 1,
            sealed=(None, None),
            guesses=(None, None),
            shown=(None, None),
            scores=scores,
            history=(*state.history, Done(shown, guesses)),
        )
        if new.round < new.rounds:
            return new
        best = max(scores)
        winners = frozenset(s for s in SEATS if scores[s] == best)
        said = f"{state.name(0)} {scores[0]}, {state.name(1)} {scores[1]}."
        if len(winners) == 2:
            return replace(new, outcome=Outcome(Termination.DRAW, frozenset(), f"Level: {said}"))
        return replace(
            new, outcome=Outcome(Termination.WIN, winners, f"Most right guesses: {said}")
        )

    def result(self, state: SightState) -> Outcome | None:
        return state.outcome

    def public_view(self, state: SightState) -> SightPublicView:
        return {
            "game": self.id,
            "rounds": state.rounds,
            "round": min(state.round + 1, state.rounds),
            "stage": state.stage,
            "to_move": sorted(self.to_move(state)),
            "seats": [
                {
                    "name": state.name(s),
                    "score": state.scores[s],
                    "sealed": state.sealed[s] is not None,
                    "guess": _name(state.guesses[s]),
                    "shown": _name(state.shown[s]),
                }
                for s in SEATS
            ],
            "history": [
                {"symbols": [s.value for s in d.symbols], "guesses": [g.value for g in d.guesses]}
                for d in state.history
            ],
            "outcome": None if state.outcome is None else state.outcome.to_json(),
        }

    def seat_view(self, state: SightState, seat: int, store: PrivateStore | None) -> SightSeatView:
        key = label(state.round)
        mine = (
            store.value(key)
            if store is not None and key in store and state.stage != "over"
            else None
        )
        return {
            **self.public_view(state),
            "me": {"seat": seat, "symbol": mine if isinstance(mine, str) else None},
        }

    def parse_action(self, data: Json) -> Action:
        return parse_action(data)

    def action_to_json(self, action: Action) -> Json:
        return action_to_json(action)

    def sealed(self, state: SightState) -> list[Sealed]:
        """A round's seals not opened yet (only when a forfeit cut the round short)."""
        return [
            Sealed(s, label(state.round), c[0], c[1], f"their symbol of round {state.round + 1}")
            for s in SEATS
            if (c := state.sealed[s]) is not None and state.shown[s] is None
        ]

    def check_secrets(
        self, states: Sequence[SightState], opened: Mapping[tuple[int, str], Json]
    ) -> None:
        final = states[-1]
        for seal in self.sealed(final):
            value = opened.get((seal.seat, seal.label))
            if (seal.seat, seal.label) in opened and Symbol.parse(value) is None:
                raise CommitmentMismatch(
                    f"{final.name(seal.seat)} sealed {value!r}, which is no symbol.",
                    seal.seat,
                    seal.step,
                )


T = TypeVar("T")


def _put(values: tuple[T | None, ...], seat: int, value: T) -> tuple[T | None, ...]:
    """The pair with `seat`'s value put in."""
    return tuple(value if s == seat else v for s, v in enumerate(values))


def _name(symbol: Symbol | None) -> str | None:
    return None if symbol is None else symbol.value
