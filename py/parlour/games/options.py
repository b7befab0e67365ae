"""A game's set-up options declared once, as data: the engine checks them, the build writes them.

Each game lists its variant options here (key, allowed values, default, label, one-line help,
and the facts a value fixes, such as Psi Squad's Max) together with its seats (how many, what
each is called, and who may play one: a person or a bot of some level). From that one
declaration:
- `Game.check_setup` refuses an unknown key or value with a sentence, and the engine reads a
  value with its default filled in (`Options.value`), so no default is written twice;
- the build writes the static set-up forms of index.html and the option tables of the rules
  pages (scripts/pages.py), so they stay plain HTML, usable before Python starts;
- the screens take an option's words from here;
- the bots read an option's value through here from the set-up they are given
  (`SeatKnowledge.option`).

Adding a choice is one line of data, e.g. a six-digit Psi Squad game:
`_length(6, "Extra long")` in games/psi_squad/options.py (tests/bots/test_set_up.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from parlour.errors import IllegalAction
from parlour.fair.encoding import Json

Value = int | str


@dataclass(frozen=True)
class SeatKind:
    """Who plays a seat: a person, or a bot at a level (the bots' levels, bots/base.py)."""

    value: str
    label: str


# The kinds every set-up form offers for every seat, in the order shown; medium is the bots'
# default level (issue 15), hard says that it thinks longest.
SEAT_KINDS: tuple[SeatKind, ...] = (
    SeatKind("person", "Person"),
    SeatKind("easy", "Bot: easy"),
    SeatKind("medium", "Bot: medium"),
    SeatKind("hard", "Bot: hard (slower)"),
)
PERSON = "person"
BOT_LEVELS: tuple[str, ...] = tuple(k.value for k in SEAT_KINDS if k.value != PERSON)


@dataclass(frozen=True)
class Choice:
    """One allowed value of an option, with its words and the facts it fixes."""

    value: Value
    label: str  # in the set-up form
    name: str = ""  # a short name, in rules tables ("Standard")
    facts: Mapping[str, Value] = field(default_factory=dict)  # e.g. {"max": 12}
    seats: int | None = None  # a choice that fixes the number of players (an arrangement)

    def fact(self, name: str) -> Value:
        return self.facts[name]


@dataclass(frozen=True)
class Option:
    """A variant option: its key in `Setup.variant`, its choices and default, its words.

    `choices` empty means the value is the game's own to check in `check_setup` (ESPEERS decks,
    which may be decks built by the player); the form for such an option is the game's own.
    `only_with` names another option's value without which this one does not apply (the
    number of cards a challenge game sets aside), so the form shows it only then.
    `table` lists the columns of the rules pages' table of choices: (heading, what fills it),
    where what fills it is "value", "name", "label" or a fact's name.
    """

    key: str
    legend: str
    help: str
    choices: tuple[Choice, ...]
    default: Json
    only_with: tuple[str, Value] | None = None
    table: tuple[tuple[str, str], ...] = ()
    # The sentence when a value is refused: {names} (the choices' names, or values, as "a, b or
    # c"), {values}, {first} and {last} are filled in from the choices.
    refused: str = "{legend}: choose {names}."
    # An option with a value per seat (ESPEERS decks): the choices each seat's select offers,
    # and each seat's default among them; the value itself is the game's to check.
    per_seat: tuple[Choice, ...] = ()
    seat_defaults: tuple[Value, ...] = ()
    per_seat_word: str = ""  # what one seat's value is called ("deck")

    def choice(self, value: Json) -> Choice | None:
        """The choice whose value this is, if any (1 and "1" are different values)."""
        for choice in self.choices:
            if type(choice.value) is type(value) and choice.value == value:
                return choice
        return None

    @property
    def values(self) -> tuple[Value, ...]:
        return tuple(c.value for c in self.choices)

    def refusal(self, value: Json) -> str | None:
        """Why `value` cannot be this option's value, or None if it can (or the game checks)."""
        if not self.choices or self.choice(value) is not None:
            return None
        values = [str(c.value) for c in self.choices]
        return self.refused.format(
            legend=self.legend,
            names=_either([c.name or str(c.value) for c in self.choices]),
            values=_either(values),
            first=values[0],
            last=values[-1],
        )

    def cell(self, choice: Choice, column: str) -> str:
        """What fills a rules-table cell for `choice`."""
        if column == "value":
            return str(choice.value)
        if column in ("name", "label"):
            return str(getattr(choice, column))
        return str(choice.fact(column))


@dataclass(frozen=True)
class Seats:
    """A game's seats as its set-up form offers them."""

    counts: tuple[int, ...]  # the numbers of players the form offers (a radio each)
    default: int
    legend: str  # of the names fieldset
    label: Callable[[int], str]  # a seat's label in the form ("Light", "Seat 1")
    placeholder: Callable[[int], str]  # the name it plays under if left empty
    counted_by: str | None = None  # an option whose choice fixes the count (Telepathic)
    swatches: bool = False  # each seat has a colour, shown beside its name (ESP)
    miscounted: str = "{choice} is played by {need} players, not {seats}."


@dataclass(frozen=True)
class Options:
    """Everything a game's set-up declares: its seats and its variant options."""

    game: str  # the game's id
    name: str  # the game's name, in sentences
    seats: Seats
    options: tuple[Option, ...] = ()
    # The most moves (log entries) a real game can take: about ten times the longest game the
    # arena plays at the weakest level offered, at the largest table (README, "Replays"). A
    # replay holding more was not made by this site, and would only slow the viewer down.
    max_moves: int | None = None
    # The steps per seat of the longest game the arena's sweeps met (docs/bots.md, "Hung
    # games"), rounded up: a game four times as long is hung (bots/arena.py, `move_cap`).
    longest_per_seat: int | None = None

    def option(self, key: str) -> Option:
        for option in self.options:
            if option.key == key:
                return option
        raise KeyError(key)

    def check(self, variant: Mapping[str, Json], seats: int | None = None) -> None:
        """Refuse an unknown key, a value not allowed, or a seat count the choices forbid."""
        keys = [o.key for o in self.options]
        unknown = sorted(repr(k) for k in variant if k not in keys)
        if unknown and not keys:
            raise IllegalAction(f"{self.name} has no variant options (not {_either(unknown)}).")
        if unknown:
            raise IllegalAction(
                f"{self.name} has no option {_either(unknown)}; "
                f"its options are {_either([repr(k) for k in keys])}."
            )
        for option in self.options:
            if option.key in variant:
                problem = option.refusal(variant[option.key])
                if problem:
                    raise IllegalAction(problem)
        self._check_seats(variant, seats)

    def _check_seats(self, variant: Mapping[str, Json], seats: int | None) -> None:
        counted_by = self.seats.counted_by
        if seats is None or counted_by is None:
            return
        choice = self.option(counted_by).choice(self.value(variant, counted_by))
        if choice is not None and choice.seats is not None and choice.seats != seats:
            raise IllegalAction(
                self.seats.miscounted.format(choice=choice.label, need=choice.seats, seats=seats)
            )

    def value(self, variant: Mapping[str, Json], key: str) -> Json:
        """The option's value in this variant, its default if the variant leaves it out."""
        option = self.option(key)
        return variant.get(key, option.default)

    def choice_of(self, variant: Mapping[str, Json], key: str) -> Choice:
        """The declared choice this variant makes for `key` (after `check`)."""
        option = self.option(key)
        choice = option.choice(self.value(variant, key))
        if choice is None:
            raise IllegalAction(option.refusal(self.value(variant, key)) or key)
        return choice

    def number(self, variant: Mapping[str, Json], key: str) -> int:
        """A number option's declared value in this variant (after `check`)."""
        value = self.choice_of(variant, key).value
        if not isinstance(value, int):
            raise TypeError(f"{key} is not a number option")
        return value

    def fixed(self, variant: Mapping[str, Json], key: str, rule: int) -> int:
        """A number the rules fix (ESP's third repetition that draws), or, once the game
        declares an option `key` for it, this variant's choice. The engine and the bots both
        read such a number here, so turning it into an option is the one declaration."""
        if all(option.key != key for option in self.options):
            return rule
        return self.number(variant, key)

    def word(self, variant: Mapping[str, Json], key: str) -> str:
        """A word option's declared value in this variant (after `check`)."""
        return str(self.choice_of(variant, key).value)

    def parse(self, key: str, text: str) -> Json:
        """A form field's text as the option's value ("4" is 4 for a number option)."""
        for choice in self.option(key).choices:
            if str(choice.value) == text:
                return choice.value
        return text


def _either(words: list[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def numbered(word: str) -> Callable[[int], str]:
    """Seat labels "Player 1", "Player 2"... (seats count from 0 inside, from 1 in words)."""
    return lambda seat: f"{word} {seat + 1}"
