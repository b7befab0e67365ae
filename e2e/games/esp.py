"""ESP in the browser tests: a tile placed, flipped, moved; the rules' pass."""

from __future__ import annotations

from parlour.games import GAMES
from parlour.games.esp.actions import Flip, Move, Pass, Place

COLOUR_PICTURE = (4, 6)  # four seats show every seat colour
LESSON_PHOTOS = (3, 7, 11)


def cell(c: tuple[int, int]) -> str:
    return f"[data-cell='{c[0]},{c[1]}']"


def click(page, root: str, state, choice) -> None:
    if isinstance(choice, Place):
        page.click(f"{root} [data-cmd=tray][data-symbol='{choice.symbol.value}']")
        page.click(f"{root} [data-cmd=face][data-face='{'down' if choice.hidden else 'up'}']")
        page.click(f"{root} {cell(choice.cell)}")
    elif isinstance(choice, Flip):
        page.click(f"{root} {cell(choice.cell)}")
        page.click(f"{root} [data-cmd=flip]")
    elif isinstance(choice, Move):
        landing = GAMES["esp"].landing(state, choice.cell, choice.direction)
        page.click(f"{root} {cell(choice.cell)}")
        page.click(f"{root} {cell(landing)}.target")
    elif isinstance(choice, Pass):  # no legal move: the rules' pass (rare in a random game)
        page.click(f"{root} [data-cmd=pass]")
    else:
        raise AssertionError(f"no clicks for {choice}")
