"""ESPEERS's stack drawn: the suspended cards between the duelists, whose each is and which were
countered, who holds Opportunity, and the Pass button with what passing does now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.base import whose
from parlour.games.espeers import words
from parlour.games.espeers.actions import Pass
from parlour.games.espeers.state import EspeersState
from parlour.games.espeers.views import PublicView
from parlour.ui.espeers.cards import card_face, card_label
from parlour.ui.espeers.controls import HELP, in_play
from parlour.ui.espeers.table import Mark, hand_chip, mark_tag
from parlour.ui.help import help_tip, with_help
from parlour.ui.tree import Node, h
from parlour.words import capital

if TYPE_CHECKING:
    from parlour.ui.seat import Seat


def stack_area(session: Seat, view: PublicView, mark: Mark | None = None) -> Node:
    """The stack between the duelists, the top card last, with who has Opportunity and the Pass."""
    names = [p["name"] for p in view["players"]]
    items = []
    for index, item in enumerate(view["stack"]):
        here = mark if mark is not None and mark.place == "stack" and mark.index == index else None
        css = "stack-card" + (" countered" if item["countered"] else "")
        items.append(
            h(
                "li",
                {"class": css + (" last-move" if here else ""), "data-card": item["card"]},
                mark_tag(here),
                card_face(item["card"]),
                hand_chip(item["card"]),
                h(
                    "span",
                    {"class": "stack-owner"},
                    capital(whose(names, item["owner"], session.you())),
                    h("span", {"class": "visually-hidden"}, f" {card_label(item['card'])}"),
                    h("span", {"class": "countered-word"}, " countered")  # its own line
                    if item["countered"]
                    else None,
                ),
            )
        )
    pile = (
        h(
            "ol",
            {
                "class": "stack-pile",
                "data-role": "stack",
                "aria-label": "Suspended cards, the top one last",
            },
            *items,
        )
        if items
        else h("p", {"class": "stack-empty", "data-role": "stack"}, "Nothing is suspended.")
    )
    waiting = ""
    if in_play(view) and view["pending"] is None:
        waiting = words.opportunity_line(view, session.viewer)
    return h(
        "section",
        {"class": "stack-area", "aria-label": "The stack"},
        h(
            "header",
            {"class": "stack-head"},
            h("h3", None, "The stack"),
            help_tip("espeers-stack", "the stack", HELP["stack"]),
            h("p", {"class": "hint"}, words.STACK_RULE) if items else None,
        ),
        pile,
        h("p", {"class": "opportunity-line", "data-role": "opportunity"}, waiting)
        if waiting
        else None,
        _pass_button(session, view),
    )


def _pass_button(session: Seat, view: PublicView) -> Node | None:
    """Pass, with what passing does now, while it is one of the seat's moves."""
    viewer = session.viewer
    if viewer is None or not any(isinstance(a, Pass) for a in session.legal()):
        return None
    state: EspeersState = session.match.state
    button = h(
        "button",
        {"class": "button primary pass", "data-cmd": "pass", "type": "button"},
        "Pass ",
        h("span", {"class": "pass-effect"}, f"({words.pass_effect(state, viewer)})"),
    )
    return with_help(button, "espeers-pass", "Pass", HELP["pass"])
