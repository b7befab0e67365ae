"""Count to Ten's set-up: two or three players, and the total that wins."""

from __future__ import annotations

from parlour.games.catalog import entry
from parlour.games.options import Choice, Option, Options, Seats, numbered

GAME = entry("count-to-ten")  # its id and name: the catalog's (in the copy that holds it)

OPTIONS = Options(
    game=GAME.id,
    name=GAME.name,
    seats=Seats(
        counts=(2, 3),
        default=2,
        legend="Names",
        label=numbered("Seat"),
        placeholder=numbered("Player"),
    ),
    options=(
        Option(
            key="target",
            legend="Target",
            help="The total that wins: who says it first.",
            choices=(Choice(10, "Ten", name="ten"), Choice(20, "Twenty", name="twenty")),
            default=10,
        ),
    ),
    max_moves=40,
)
