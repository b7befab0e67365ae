"""Psi Squad's set-up, declared as data (games/options.py): the players and the cypher length.

The length fixes the Max (three points per digit, rules "Setting up"), so a length is one line
here and everything else (the engine's check and Max, the form, the rules table, the bots'
solver) reads it from this declaration.
"""

from __future__ import annotations

from parlour.games.catalog import entry
from parlour.games.options import Choice, Option, Options, Seats, numbered


def _length(digits: int, name: str) -> Choice:
    """A game length: its digits per cypher and its Max (always three times the digits)."""
    return Choice(
        digits,
        f"{digits} digits ({name.lower()}, Max {3 * digits})",
        name=name,
        facts={"max": 3 * digits},
    )


LENGTH = Option(
    key="length",
    legend="Cypher length",
    help="Digits in every cypher; a longer cypher makes a longer game and a higher Max.",
    choices=(
        _length(3, "Short"),
        _length(4, "Standard"),
        _length(5, "Long"),
    ),
    default=4,
    table=(("Game", "name"), ("Digits in a cypher", "value"), ("Max", "max")),
    refused="A cypher has {values} digits.",
)

GAME = entry("psi-squad")  # its id and name: the catalog's
OPTIONS = Options(
    game=GAME.id,
    name=GAME.name,
    seats=Seats(
        counts=(2, 3, 4, 5, 6, 7, 8),
        default=3,
        legend="Names, in seat order (play passes to the next seat)",
        label=numbered("Seat"),
        placeholder=numbered("Player"),
    ),
    options=(LENGTH,),
    max_moves=1_200,  # ten times the longest arena game: README, "Replays"
    # the arena's longest game, per seat: 53 steps with 3 seats (medium, 4 digits; 142 with
    # medium against 7 random players, 8 seats, 5 digits)
    longest_per_seat=20,
)

LENGTHS: tuple[int, ...] = tuple(int(v) for v in LENGTH.values)


def max_status(length: int) -> int:
    """The Max of a game with cyphers of `length` digits (a length the game allows)."""
    choice = LENGTH.choice(length)
    if choice is None:
        raise ValueError(f"no {length}-digit game")
    return int(choice.fact("max"))
