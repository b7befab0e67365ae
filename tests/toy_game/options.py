"""Second Sight's set-up: two players, and how many rounds."""

from __future__ import annotations

from parlour.games.catalog import entry
from parlour.games.options import Choice, Option, Options, Seats, numbered

GAME = entry("second-sight")  # its id and name: the catalog's (in the copy that holds it)

ROUNDS = (3, 5)

OPTIONS = Options(
    game=GAME.id,
    name=GAME.name,
    seats=Seats(
        counts=(2,),
        default=2,
        legend="Names",
        label=numbered("Seat"),
        placeholder=numbered("Player"),
    ),
    options=(
        Option(
            key="rounds",
            legend="Rounds",
            help="How many rounds of sealing and guessing.",
            choices=(Choice(3, "Three", name="three"), Choice(5, "Five", name="five")),
            default=3,
        ),
    ),
    max_moves=6 * max(ROUNDS) * 10,  # six steps a round; ten times the longest game
    longest_per_seat=3 * max(ROUNDS),
)
