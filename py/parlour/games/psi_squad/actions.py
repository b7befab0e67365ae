"""Psi Squad's actions and their JSON, as the match log writes them (pure), and the guesses a
seat may make, listed without being made (`GuessView`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from parlour.errors import MalformedInput
from parlour.fair.commit import is_commitment
from parlour.fair.encoding import Json
from parlour.games.psi_squad.options import LENGTHS


@dataclass(frozen=True)
class ChooseCypher:
    """A seat's private choice at set-up; `seal` turns it into SetCypher on its own device."""

    digits: str


@dataclass(frozen=True)
class SetCypher:
    commitment: str


@dataclass(frozen=True)
class Guess:
    target: int
    digits: str


@dataclass(frozen=True)
class Answer:
    correct: int
    spotted: int


Action = ChooseCypher | SetCypher | Guess | Answer


class GuessView(Sequence[Guess]):
    """Every legal guess, lazily: targets x 10^n cyphers, without building the list."""

    def __init__(self, targets: list[int], length: int) -> None:
        self.targets = targets
        self.length = length
        self.per_target: int = 10**length

    def __len__(self) -> int:
        return len(self.targets) * self.per_target

    def __getitem__(self, index: int) -> Guess:  # type: ignore[override]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        target, number = divmod(index, self.per_target)
        return Guess(self.targets[target], str(number).zfill(self.length))

    def __iter__(self) -> Iterator[Guess]:
        return (self[i] for i in range(len(self)))

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, Guess)
            and action.target in self.targets
            and is_cypher(action.digits, self.length)
        )


def is_cypher(text: object, length: int) -> bool:
    return isinstance(text, str) and len(text) == length and text.isascii() and text.isdigit()


def parse_action(data: Json) -> Action:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedInput("A Psi Squad action must be an object with a type.")
    kind, keys = data["type"], set(data)
    if kind == "cypher" and keys == {"type", "commitment"} and is_commitment(data["commitment"]):
        return SetCypher(data["commitment"])
    digits = data.get("digits")
    if (
        kind == "guess"
        and keys == {"type", "target", "digits"}
        and type(data["target"]) is int
        and any(is_cypher(digits, n) for n in LENGTHS)
    ):
        return Guess(data["target"], data["digits"])
    if kind == "answer" and keys == {"type", "correct", "spotted"}:
        c, s = data["correct"], data["spotted"]
        if type(c) is int and type(s) is int:
            return Answer(c, s)
    raise MalformedInput("That is not a Psi Squad action.")


def action_to_json(action: Action) -> Json:
    if isinstance(action, SetCypher):
        return {"type": "cypher", "commitment": action.commitment}
    if isinstance(action, Guess):
        return {"type": "guess", "target": action.target, "digits": action.digits}
    if isinstance(action, Answer):
        return {"type": "answer", "correct": action.correct, "spotted": action.spotted}
    raise ValueError("a chosen cypher must be sealed before it is written down")
