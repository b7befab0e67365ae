"""ESP's set-up, declared as data (games/options.py): two to four players, each a colour."""

from __future__ import annotations

from parlour.games.catalog import entry
from parlour.games.options import Options, Seats

# The seats' colours, in turn order: the names the seats play under and the board draws.
SEAT_COLOURS = ("Light", "Dark", "Violet", "Amber")

GAME = entry("esp")  # its id and name: the catalog's
OPTIONS = Options(
    game=GAME.id,
    name=GAME.name,
    seats=Seats(
        counts=(2, 3, 4),
        default=2,
        legend="Names",
        label=lambda seat: SEAT_COLOURS[seat],
        placeholder=lambda seat: SEAT_COLOURS[seat],
        swatches=True,
    ),
    max_moves=4_000,  # ten times the longest arena game: README, "Replays"
    # the arena's longest game, per seat: 202 steps with 3 seats (easy)
    longest_per_seat=70,
)
