"""The clicks a player makes for a given action, game by game, on any play screen (`root`).

Shared by the pass-and-play journeys and the online ones, so that "how a tile is placed" is
written once. Each takes the action the test chose (from the engine's legal actions) and the
state it was chosen in.
"""

from __future__ import annotations

from parlour.games import GAMES
from parlour.games.esp.actions import Flip, Move, Pass, Place
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
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.games.telepathic.actions import Announce, Continue, HandCard, Perform, Respond


def cell(c: tuple[int, int]) -> str:
    return f"[data-cell='{c[0]},{c[1]}']"


def esp(page, root: str, state, choice) -> None:
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


def hand_faces(page, root: str) -> list[str]:
    return page.eval_on_selector_all(
        f"{root} [data-role=hand] svg[data-card]", "els => els.map(e => e.dataset.card)"
    )


def espeers(page, root: str, state, choice) -> None:
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


def psi(page, root: str, state, choice) -> None:
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


def telepathic(page, root: str, state, choice) -> None:
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


CLICKS = {"esp": esp, "espeers": espeers, "psi-squad": psi, "telepathic": telepathic}
