"""A tiny game used only by the tests, to drive the fair-play core end to end.

Each seat hides a number from 1 to 10 and a "lucky" number from 1 to 10 (both committed). Then,
in seat order, each seat guesses the number of the seat after it. Then every seat reveals its
number; the closest guesses win. The lucky number is never revealed in play: only the audit opens
it and checks it is within 1..10, which exercises `sealed` and `check_secrets`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from parlour.errors import CommitmentMismatch, IllegalAction, MalformedInput
from parlour.fair.commit import Context, Opening, check_opening, is_commitment
from parlour.fair.store import PrivateStore
from parlour.games.base import Game, Outcome, Sealed, Setup, Termination


@dataclass(frozen=True)
class Hide:
    number: str  # commitment
    lucky: str  # commitment


@dataclass(frozen=True)
class Guess:
    value: int


@dataclass(frozen=True)
class Reveal:
    opening: Opening


Action = Hide | Guess | Reveal


@dataclass(frozen=True)
class State:
    setup: Setup
    hidden: tuple[tuple[str, str, int] | None, ...]  # per seat: (number c, lucky c, step)
    guesses: tuple[int | None, ...]
    revealed: tuple[int | None, ...]
    ply: int = 0

    @property
    def seats(self) -> int:
        return self.setup.seats


class HiddenNumbers(Game[State, Action]):
    id = "hidden-numbers"
    name = "Hidden Numbers"
    min_seats = 2
    max_seats = 8

    def initial_state(self, setup: Setup, seed: bytes) -> State:
        n = setup.seats
        return State(setup, (None,) * n, (None,) * n, (None,) * n)

    def phase(self, state: State) -> str:
        if None in state.hidden:
            return "hide"
        if None in state.guesses:
            return "guess"
        return "reveal" if None in state.revealed else "over"

    def to_move(self, state: State) -> frozenset[int]:
        phase = self.phase(state)
        if phase == "hide":
            return frozenset(i for i, h in enumerate(state.hidden) if h is None)
        if phase == "guess":
            return frozenset({state.guesses.index(None)})
        if phase == "reveal":
            return frozenset(i for i, r in enumerate(state.revealed) if r is None)
        return frozenset()

    def legal_actions(self, state: State, seat: int, store: PrivateStore | None) -> list[Action]:
        if seat not in self.to_move(state):
            return []
        phase = self.phase(state)
        if phase == "guess":
            return [Guess(v) for v in range(1, 11)]
        if phase == "reveal" and store is not None and "number" in store:
            return [Reveal(store.opening("number"))]
        return []  # hiding needs fresh commitments: the UI makes them through the store

    def apply(self, state: State, seat: int, action: Action) -> State:
        name = state.setup.seat_names[seat]
        if seat not in self.to_move(state):
            raise IllegalAction(f"It is not {name}'s turn.")
        phase = self.phase(state)
        step = state.ply + 1
        if isinstance(action, Hide) and phase == "hide":
            hidden = list(state.hidden)
            hidden[seat] = (action.number, action.lucky, step)
            return replace(state, hidden=tuple(hidden), ply=step)
        if isinstance(action, Guess) and phase == "guess":
            if not 1 <= action.value <= 10:
                raise IllegalAction("A guess is a number from 1 to 10.")
            guesses = list(state.guesses)
            guesses[seat] = action.value
            return replace(state, guesses=tuple(guesses), ply=step)
        if isinstance(action, Reveal) and phase == "reveal":
            return self._reveal(state, seat, action.opening, step)
        raise IllegalAction(f"{name} cannot do that now.")

    def _reveal(self, state: State, seat: int, opening: Opening, step: int) -> State:
        name = state.setup.seat_names[seat]
        commitment, _, made = state.hidden[seat]  # type: ignore[misc]
        if opening.label != "number":
            raise IllegalAction(f"{name} must reveal their number.")
        context = Context(state.setup.match_id, seat)
        check_opening(context, commitment, opening, who=name, what="their number", step=made)
        if not isinstance(opening.value, int) or not 1 <= opening.value <= 10:
            raise CommitmentMismatch(f"{name} hid {opening.value!r}, not a number from 1 to 10.")
        revealed = list(state.revealed)
        revealed[seat] = opening.value
        return replace(state, revealed=tuple(revealed), ply=step)

    def result(self, state: State) -> Outcome | None:
        if self.phase(state) != "over":
            return None
        n = state.seats
        misses = [abs(state.guesses[s] - state.revealed[(s + 1) % n]) for s in range(n)]
        best = min(misses)
        winners = frozenset(s for s in range(n) if misses[s] == best)
        kind = Termination.WIN if len(winners) == 1 else Termination.SHARED_WIN
        return Outcome(kind, winners, f"closest guess missed by {best}")

    def public_view(self, state: State) -> dict[str, Any]:
        return {
            "commitments": [h[:2] if h else None for h in state.hidden],
            "guesses": list(state.guesses),
            "revealed": list(state.revealed),
        }

    def seat_view(self, state: State, seat: int, store: PrivateStore | None) -> dict[str, Any]:
        view = self.public_view(state)
        if store is not None and "number" in store:
            view["my_number"] = store.value("number")
            view["my_lucky"] = store.value("lucky")
        return view

    def parse_action(self, data: Any) -> Action:
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise MalformedInput("An action must be an object with a type.")
        kind = data["type"]
        if kind == "hide" and set(data) == {"type", "number", "lucky"}:
            return Hide(_commitment(data["number"]), _commitment(data["lucky"]))
        if kind == "guess" and set(data) == {"type", "value"} and type(data["value"]) is int:
            return Guess(data["value"])
        if kind == "reveal" and set(data) == {"type", "opening"}:
            return Reveal(Opening.from_json(data["opening"]))
        raise MalformedInput(f"That is not a {self.name} action.")

    def action_to_json(self, action: Action) -> Any:
        if isinstance(action, Hide):
            return {"type": "hide", "number": action.number, "lucky": action.lucky}
        if isinstance(action, Guess):
            return {"type": "guess", "value": action.value}
        return {"type": "reveal", "opening": action.opening.to_json()}

    def sealed(self, state: State) -> list[Sealed]:
        return [
            Sealed(seat, "lucky", h[1], h[2], "their lucky number")
            for seat, h in enumerate(state.hidden)
            if h is not None
        ]

    def check_secrets(self, states: Sequence[State], opened: Mapping[tuple[int, str], Any]) -> None:
        final = states[-1]
        for (seat, label), value in opened.items():
            if label == "lucky" and not (isinstance(value, int) and 1 <= value <= 10):
                step = final.hidden[seat][2]  # type: ignore[index]
                name = final.setup.seat_names[seat]
                raise CommitmentMismatch(
                    f"{name}'s lucky number {value!r} was never a number from 1 to 10.",
                    seat=seat,
                    step=step,
                )


def _commitment(value: Any) -> str:
    if not is_commitment(value):
        raise MalformedInput("A commitment is 64 hex digits.")
    return value


HIDDEN_NUMBERS = HiddenNumbers()


def hide(store: PrivateStore, number: Any, lucky: Any) -> Hide:
    """The action a seat's device makes: commit through its own store."""
    return Hide(store.commit("number", number), store.commit("lucky", lucky))
