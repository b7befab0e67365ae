"""The tables the suites play, from each game's facts (games/<game>/facts.py): a new game's
examples reach every suite parametrised over the games, and no test keeps a list of them."""

from __future__ import annotations

import re

from parlour.games.catalog import ids
from parlour.games.declared import facts_for
from parlour.games.facts import Example

Setup = tuple[str, tuple[str, ...], dict]


def examples(more: bool = False) -> list[tuple[str, Example]]:
    """Every game's example tables, in the catalog's order (with `more`, its further ones)."""
    return [
        (game, example)
        for game in ids()
        for example in (*facts_for(game).examples, *(facts_for(game).more if more else ()))
    ]


def setups(more: bool = False) -> list[Setup]:
    """(game, names, variant) of every example: the tables of a pass-and-play game."""
    return [(game, e.names, dict(e.variant)) for game, e in examples(more)]


def largest() -> list[Setup]:
    """One table of every game: its example with the most seats (the first of those)."""
    found: dict[str, Setup] = {}
    for game, names, variant in setups():
        if game not in found or len(names) > len(found[game][1]):
            found[game] = (game, names, variant)
    return list(found.values())


def labels(more: bool = False) -> list[str]:
    """Each example's label as a test id: "ESP, 3" is "esp-3"."""
    return [re.sub(r"[^a-z0-9]+", "-", e.label.lower()).strip("-") for _, e in examples(more)]


def large_psi_squad() -> list[Example]:
    """Psi Squad's tables of 5 to 8 seats (issue 38's goal for play by link: under 5% of sends
    split): two bots at each count, as the facts' eight (which is among them), and eight people
    each on their own device."""
    short = {"length": 3}
    return [
        *(
            Example(f"Psi Squad, {n} (two bots)", n, short, {n - 3: "easy", n - 2: "easy"})
            for n in (5, 6, 7)
        ),
        *(e for e in facts_for("psi-squad").more if e.seats == 8),
        Example("Psi Squad, 8 (no bot)", 8, short),
    ]
