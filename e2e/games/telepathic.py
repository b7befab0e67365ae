"""Telepathic in the browser tests: a card handed, a set performed, an announcement, an answer."""

from __future__ import annotations

from parlour.games.telepathic.actions import Announce, Continue, HandCard, Perform, Respond

COLOUR_PICTURE = (2, 2)
LESSON_PHOTOS = (1, 4, 7)


def click(page, root: str, state, choice) -> None:
    if isinstance(choice, HandCard):
        page.click(f"{root} [data-cmd=pick-card][data-slot='{choice.slot}']")
        page.click(f"{root} [data-cmd=hand]")
    elif isinstance(choice, Perform):
        page.click(f"{root} [data-cmd=pick-set][data-set='{choice.set_index}']")
        page.click(f"{root} [data-cmd=perform]")
    elif isinstance(choice, Announce):
        page.click(f"{root} [data-cmd=announce-open]")
        for seat, name in choice.claims:
            page.click(f"{root} [data-cmd=claim][data-seat='{seat}'][data-name='{name}']")
        page.click(f"{root} [data-cmd=announce]")
    elif isinstance(choice, Respond):
        announcer = state.announcer
        page.click(f"{root} [data-cmd=claim][data-seat='{announcer}'][data-name='{choice.name}']")
        page.click(f"{root} [data-cmd=answer]")
    elif isinstance(choice, Continue):
        page.click(f"{root} [data-cmd=continue]")
    else:
        raise AssertionError(f"no clicks for {choice}")
