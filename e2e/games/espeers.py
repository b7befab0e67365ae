"""ESPEERS in the browser tests: a card chosen and played, cycled or laid; discards; Pass."""

from __future__ import annotations

from parlour.games.espeers.actions import (
    AssignDamage,
    BarrierAttack,
    Cycle,
    Discard,
    Mulligan,
    PlaceBarrier,
    Play,
    Predict,
)

COLOUR_PICTURE = (2, 4)
LESSON_PHOTOS = (2, 4, 9)


def hand_faces(page, root: str) -> list[str]:
    return page.eval_on_selector_all(
        f"{root} [data-role=hand] svg[data-card]", "els => els.map(e => e.dataset.card)"
    )


def click(page, root: str, state, choice) -> None:
    def click(cmd: str, **data: str) -> None:
        attrs = "".join(f"[data-{k}='{v}']" for k, v in data.items())
        page.click(f"{root} [data-cmd='{cmd}']{attrs}")

    if isinstance(choice, Mulligan):
        click("keep" if choice.keep else "mulligan")
    elif isinstance(choice, Predict):
        click("predict", symbol=choice.symbol) if choice.symbol else click("predict-none")
    elif isinstance(choice, AssignDamage):
        click("assign", amount=str(choice.from_pool))
    elif isinstance(choice, Discard):
        hand = hand_faces(page, root)
        for card in choice.cards:
            slot = hand.index(card)
            hand[slot] = ""
            click("discard-pick", slot=str(slot))
        click("discard")
    elif isinstance(choice, (Play, Cycle, PlaceBarrier)):
        click("card", slot=str(hand_faces(page, root).index(choice.card)))
        click({Play: "play", Cycle: "cycle", PlaceBarrier: "barrier"}[type(choice)])
    elif isinstance(choice, BarrierAttack):
        click("attack")
    else:
        click("pass")
