"""The one line a copy's catalog gains to register Second Sight (docs/architecture.md, "Adding a
game or an option"): `LINE`, an `Entry(...)` as it is written at the end of
py/parlour/games/catalog.py's `CATALOG`, and `with_the_toy`, the catalog's source with it."""

from __future__ import annotations

LINE = """    Entry(
        "second-sight",
        "Second Sight",
        Page(
            emblem="circle",
            pitch="Seal a symbol, guess your rival's: who reads the other's mind more often?",
            facts=("2 players", "3 min", "Guessing"),
            availability="Against bots, pass and play on one device, online or by link.",
            lede="Pass and play: both players share this device. Each seals a symbol behind a"
            " hand-off screen.",
            hint="Both seal at once; the seals are opened once both have guessed.",
            starting="Sealing the envelopes…",
        ),
        options="tests.toy_game.options:OPTIONS",
        engine="tests.toy_game.rules:SecondSight",
        screen="tests.toy_game.screen:SightScreen",
        lesson="tests.toy_game.lesson:LESSON",
        bots="tests.toy_game.bots:LEVELS",
        facts="tests.toy_game.facts:FACTS",
    ),
"""
END = "    ),\n)\n"  # the last entry's close and CATALOG's


def with_the_toy(catalog: str) -> str:
    """The catalog's source with Second Sight's entry added after the last game's."""
    if catalog.count(END) != 1:
        raise ValueError("the catalog's end is not where the toy's entry expects it")
    return catalog.replace(END, "    ),\n" + LINE + ")\n")
