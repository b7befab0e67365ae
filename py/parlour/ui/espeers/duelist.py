"""ESPEERS's duelists: each seat's side of the table drawn (its name and badges, its PSI, its
barrier, face down to the other seat, its hand's backs, deck and discard pile)."""

from __future__ import annotations

from parlour.games.espeers import words
from parlour.games.espeers.cards import CARDS
from parlour.games.espeers.views import PublicView, is_seat_view
from parlour.ui.espeers.cards import card_back, card_face
from parlour.ui.espeers.controls import in_play
from parlour.ui.espeers.table import (
    Mark,
    card_backs,
    discard_pile,
    mark_tag,
    pile_of,
    psi_meter,
)
from parlour.ui.tree import Node, h


def duelist(
    view: PublicView,
    seat: int,
    mine: bool,
    mark: Mark | None = None,
    far: bool = False,
    extra: Node | None = None,
) -> Node:
    """One duelist's side of the table: name and badges, PSI, barrier, hand (backs, for the
    other seat), deck and discard; `extra` under them (the seat's own barrier row)."""
    p = view["players"][seat]
    here = mark if mark is not None and mark.seat == seat else None
    badges = [
        h("span", {"class": "badge active"}, "Active") if view["active"] == seat else None,
        h("span", {"class": "badge opportunity"}, "Opportunity")
        if view["opportunity"] == seat and in_play(view)
        else None,
        h("span", {"class": "badge shield"}, f"prevents next {p['shield']}")
        if p["shield"]
        else None,
    ]
    # a spectator's table (the end, a replay) has two players, nobody's opponent
    who = "you" if mine else "opponent" if is_seat_view(view) else "player"
    place = "far" if far else "near"
    return h(
        "section",
        {
            "class": f"duelist {who} {place} seat-{seat}",
            "data-seat": seat,
            "aria-label": f"{p['name']} ({'your table' if mine else who})",
        },
        h(
            "header",
            {"class": "duelist-head"},
            h("strong", {"class": "who"}, p["name"]),
            *badges,
            mark_tag(here) if here and here.place == "duelist" else None,
        ),
        psi_meter(p, mark_tag(here) if here and here.place == "psi" else None),
        h(
            "div",
            {"class": "zones"},
            _barrier(view, seat, mine, here if here and here.place == "barrier" else None),
            None if mine else card_backs(p["hand"]),
            pile_of("Deck", p["deck"], card_back("small") if p["deck"] else None),
            discard_pile(p["discard"], here if here and here.place == "discard" else None),
        ),
        extra,
    )


def _barrier(view: PublicView, seat: int, mine: bool, mark: Mark | None = None) -> Node:
    barrier = view["players"][seat]["barrier"]
    if barrier is None:
        return h(
            "div",
            {"class": "zone barrier empty", "data-role": "barrier"},
            h("span", {"class": "slot-empty"}, "No barrier"),
        )
    card = view["me"]["barrier_card"] if mine and is_seat_view(view) else None
    art = card_face(card, "small") if card in CARDS else card_back("small")
    # on a phone the label takes two lines, "Barrier ·" over "2 PSI"
    points = h("span", {"class": "barrier-psi"}, f"{barrier['points']} PSI")
    hint = (
        f"Your barrier: {words.barrier_words(card, barrier['points'])} Face down to your opponent."
        if card is not None and card in CARDS
        else words.BARRIER_FACE_DOWN
    )
    return h(
        "div",
        {
            "class": "zone barrier" + (" last-move" if mark else ""),
            "data-role": "barrier",
            "title": hint,
        },
        mark_tag(mark),
        art,
        h("span", {"class": "zone-label"}, "Barrier · ", points),
        h("span", {"class": "visually-hidden"}, f" {hint}"),
    )
