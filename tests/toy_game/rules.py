"""Count to Ten: in turn, each player adds 1 or 2 to a shared total; who reaches the target wins.
No secrets: the smallest game the site's machinery can hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from parlour.errors import IllegalAction, MalformedInput
from parlour.fair.encoding import Json
from parlour.fair.store import PrivateStore
from parlour.games.base import Game, Outcome, Setup, Termination
from tests.toy_game.options import OPTIONS


@dataclass(frozen=True)
class State:
    seats: int
    target: int
    total: int = 0
    turn: int = 0


class CountToTen(Game[State, int]):
    options = OPTIONS  # its id, name and seat counts too

    def initial_state(self, setup: Setup, seed: bytes) -> State:
        return State(setup.seats, OPTIONS.number(setup.variant, "target"))

    def to_move(self, state: State) -> frozenset[int]:
        return frozenset() if self.result(state) else frozenset({state.turn % state.seats})

    def legal_actions(self, state: State, seat: int, store: PrivateStore | None) -> Sequence[int]:
        return [1, 2] if seat in self.to_move(state) else []

    def apply(self, state: State, seat: int, action: int) -> State:
        if seat not in self.to_move(state) or action not in (1, 2):
            raise IllegalAction("Add 1 or 2, in turn.")
        return State(
            state.seats, state.target, min(state.total + action, state.target), state.turn + 1
        )

    def result(self, state: State) -> Outcome | None:
        if state.total < state.target:
            return None
        winner = (state.turn - 1) % state.seats
        return Outcome(Termination.WIN, frozenset({winner}), "reached the target")

    def public_view(self, state: State) -> Mapping[str, Json]:
        return {"total": state.total, "target": state.target, "turn": state.turn}

    def seat_view(self, state: State, seat: int, store: PrivateStore | None) -> Mapping[str, Json]:
        return self.public_view(state)

    def parse_action(self, data: Json) -> int:
        if data not in (1, 2):
            raise MalformedInput("An action of Count to Ten is 1 or 2.")
        return int(data)  # type: ignore[arg-type]

    def action_to_json(self, action: int) -> Json:
        return action
