"""Telepathic's set-up, declared as data (games/options.py): arrangement, action cards, challenge.

The arrangement fixes the number of players (pair 2, director 3, four partners or teams 4).
"""

from __future__ import annotations

from parlour.games.catalog import entry
from parlour.games.options import Choice, Option, Options, Seats, numbered

ARRANGEMENT = Option(
    key="arrangement",
    legend="How many, and how",
    help="Two partners, a director with two partners, four partners, or two teams of two.",
    choices=(
        Choice("pair", "Two partners", name="pair", seats=2),
        Choice("director", "Director mode (3: player 1 directs)", name="director", seats=3),
        Choice("four", "Four partners", name="four partners", seats=4),
        Choice("teams", "Two teams of two (1 and 3 against 2 and 4)", name="teams", seats=4),
    ),
    default="pair",
    table=(("Arrangement", "label"), ("Players", "seats")),
    refused="Choose {names}.",
)

MODE = Option(
    key="mode",
    legend="Action cards",
    help="First game: four cards, reused. Standard: the whole deck. Challenge: some set aside.",
    choices=(
        Choice("first", "First game (four cards, reused)", name="first game"),
        Choice("standard", "Standard", name="standard"),
        Choice("challenge", "Challenge", name="challenge"),
    ),
    default="standard",
    table=(("Action cards", "label"),),
    refused="The mode is {names}.",
)

DISCARD = Option(
    key="discard",
    legend="Challenge: cards set aside unseen",
    help="How many action cards a challenge game sets aside, face down, before play.",
    choices=(Choice(1, "1"), Choice(2, "2"), Choice(3, "3")),
    default=1,
    only_with=("mode", "challenge"),
    table=(("Cards set aside in a challenge game", "label"),),
    refused="A challenge game sets aside {first} to {last} action cards.",
)

GAME = entry("telepathic")  # its id and name: the catalog's
OPTIONS = Options(
    game=GAME.id,
    name=GAME.name,
    seats=Seats(
        counts=(2, 3, 4),
        default=2,
        legend="Names, in seat order",
        label=numbered("Player"),
        placeholder=numbered("Player"),
        counted_by="arrangement",
        miscounted="That arrangement is played by {need} players, not {seats}.",
    ),
    options=(ARRANGEMENT, MODE, DISCARD),
    max_moves=900,  # ten times the longest arena game: README, "Replays"
    longest_per_seat=25,  # the arena's longest game, per seat: 94 steps with 4 seats (teams)
)

# Players per arrangement, and the modes, as the engine reads them.
ARRANGEMENTS: dict[str, int] = {str(c.value): c.seats or 0 for c in ARRANGEMENT.choices}
MODES: tuple[str, ...] = tuple(str(v) for v in MODE.values)
