"""Telepathic's face-up action cards: each card's face (its arrow, name, sets and compass rose)
and the row under the grid, from which the seat handing a card over picks it and hands it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.games.base import named
from parlour.games.telepathic.grid import CARDS_BY_ID
from parlour.games.telepathic.options import MODE
from parlour.games.telepathic.views import TelePublicView
from parlour.ui.help import with_help
from parlour.ui.telepathic.controls import TeleSelection
from parlour.ui.tree import Node, h
from parlour.words import agree, name_in

if TYPE_CHECKING:
    from parlour.ui.seat import Seat

ARROWS = {
    "shift-north": "↑",
    "shift-south": "↓",
    "shift-east": "→",
    "shift-west": "←",
    "rotate-cw": "↻",
    "rotate-ccw": "↺",
    "spin-half": "⟲",
    "flip-column": "⇅",
    "flip-row": "⇄",
    "swap-halves": "⇵",
}
SETS_WORDS = {"columns": "columns A–D", "rows": "rows 1–4", "quadrants": "the four quadrants"}
COMPASS_TITLE = "N↑: north is the top of the grid (row 1); the card acts that way round."


def card_face(card_id: str) -> list[Node | None]:
    """An action card as drawn: its arrow, its name, which sets it offers, its compass rose."""
    card = CARDS_BY_ID[card_id]
    sets, which = SETS_WORDS[card.sets].rsplit(" ", 1)
    return [
        h("span", {"class": "card-arrow", "aria-hidden": "true"}, ARROWS[card.effect]),
        h("span", {"class": "card-name"}, card.name),
        # "columns A–D" never breaks at the dash on a narrow card
        h("span", {"class": "card-sets"}, f"{sets} ", h("span", {"class": "range"}, which)),
        # Quadrant cards have no compass rose; the others always point north.
        h("span", {"class": "compass", "aria-hidden": "true", "title": COMPASS_TITLE}, "N↑")
        if card.sets != "quadrants"
        else None,
    ]


def card_row(session: Seat, view: TelePublicView) -> Node:
    """The face-up cards. The seat handing one over picks it here and hands it with the
    button right after the cards (so Tab follows the turn: a card, then "Hand it"); the
    arrow keys move along the cards (`data-roving`), one Tab stop for the row."""
    sel: TeleSelection = session.selection
    choosing = view["phase"] == "hand" and session.viewer == view["active"]
    choosing = choosing and not view["must_announce"] and not sel.announcing
    names = [seat["name"] for seat in view["seats"]]
    performer, you = view["performer"], session.you()
    live = [slot for slot, card_id in enumerate(view["row"]) if card_id is not None]
    stop = sel.slot if sel.slot in live else (live[0] if live else None)
    cards = []
    for slot, card_id in enumerate(view["row"]):
        if card_id is None:
            cards.append(h("div", {"class": "action-card empty"}, "used"))
            continue
        pressed = "true" if sel.slot == slot else "false"
        attrs: dict[str, Any] = {
            "class": "action-card",
            "type": "button",
            "data-slot": str(slot),
        }
        if choosing:
            attrs.update({"data-cmd": "pick-card", "aria-pressed": pressed})
            attrs["tabindex"] = "0" if slot == stop else "-1"
        else:
            attrs["disabled"] = True
        handed = view["handed_slot"] == slot and view["phase"] == "perform"
        if handed:
            attrs["class"] += " handed"
        tag = (
            h("span", {"class": "handed-tag"}, f"handed to {named(names, performer, you)}")
            if handed and performer is not None
            else None
        )
        cards.append(h("button", attrs, *card_face(card_id), tag))
    mode = MODE.choice(view["mode"])
    deck = f"{view['deck']} in the deck" if view["mode"] != "first" or not mode else mode.name
    compass = any(c and CARDS_BY_ID[c].sets != "quadrants" for c in view["row"])
    receiver = view["receiver"]
    hand = (
        h(
            "div",
            {"class": "hand-it"},
            with_help(
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "hand", "type": "button"},
                    f"Hand it to {name_in(names[receiver])}",
                ),
                "tele-hand",
                "Hand it",
                f"Gives the chosen card to {name_in(names[receiver])}, who "
                f"{agree(names[receiver], 'decides')} where it acts; "
                "nothing may be said about it.",
            ),
        )
        if choosing and receiver is not None
        else None
    )
    return h(
        "section",
        {"class": "card-row", "aria-label": "Face-up action cards"},
        h(
            "div",
            {"class": "cards", **({"data-roving": "cards"} if choosing else {})},
            *cards,
        ),
        hand,
        h(
            "p",
            {"class": "hint"},
            f"Action cards · {deck} · {view['used']} used",
            h("span", {"class": "compass-key"}, " · N↑: north is the top of the grid")
            if compass
            else None,
        ),
    )
