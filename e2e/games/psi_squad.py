"""Psi Squad in the browser tests: a cypher sealed, a target and a guess keyed in."""

from __future__ import annotations

from parlour.games.psi_squad.actions import ChooseCypher, Guess

COLOUR_PICTURE = (3, 3)
LESSON_PHOTOS = (4, 9, 11)


def click(page, root: str, state, choice) -> None:
    if isinstance(choice, ChooseCypher):
        digits, cmd = choice.digits, "seal-cypher"
    elif isinstance(choice, Guess):
        page.click(f"{root} [data-cmd=target][data-seat='{choice.target}']")
        digits, cmd = choice.digits, "guess"
    else:
        raise AssertionError(f"no clicks for {choice}")
    for d in digits:
        page.click(f"{root} [data-cmd=digit][data-digit='{d}']")
    page.click(f"{root} [data-cmd={cmd}]")
