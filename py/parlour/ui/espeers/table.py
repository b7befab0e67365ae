"""ESPEERS's table in pieces: the last move's mark and tag, the table told in sentences ("Describe
the board"), the Psi meters, the hands' card chips and backs, the piles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.games.espeers import words
from parlour.games.espeers.actions import (
    AnswerPrediction,
    AssignDamage,
    BarrierAttack,
    Cycle,
    Discard,
    Mulligan,
    Pass,
    PlaceBarrier,
    Play,
    Predict,
    RevealBarrier,
)
from parlour.games.espeers.cards import CARDS
from parlour.games.espeers.state import EspeersState, ends_active_phase
from parlour.games.espeers.views import (
    PlayerView,
    PublicView,
    is_seat_view,
    psi,
)
from parlour.ui.espeers.cards import card_back, card_face
from parlour.ui.tree import Node, h, s

if TYPE_CHECKING:
    pass


# -- the last move, marked on the table ---------------------------------------------------------

MAX_BACKS = 7  # card backs drawn for a hand; the count says the rest


@dataclass(frozen=True)
class Mark:
    """Where the table marks the last move the log tells, and the words beside it: a dashed
    outline and a tag in words, so the mark never rests on colour alone."""

    place: str  # "stack", "discard", "barrier", "psi" or "duelist"
    seat: int
    words: str  # the tag ("Just played")
    index: int = -1  # the stack item, for "stack"


def last_mark(last: Any, view: PublicView) -> Mark | None:
    """Where the last move shows on the table now: the card played (on the stack), resolved,
    cycled or discarded (on its discard pile), the barrier laid or guessed at, the PSI that took
    damage, or the player who passed. None when nothing of it is left to point at."""
    before, seat, action = (getattr(last, k, None) for k in ("before", "seat", "action"))
    if not isinstance(before, EspeersState) or seat not in (0, 1):
        return None
    players = view["players"]
    if isinstance(action, Play):
        index = len(before.stack)
        stack = view["stack"]
        if index < len(stack) and stack[index]["card"] == action.card:
            return Mark("stack", seat, "Just played", index)
        return None
    if isinstance(action, Cycle):
        return in_discard(view, seat, action.card, "Just cycled")
    if isinstance(action, Pass):
        if not ends_active_phase(before, seat) and before.passes == 1 and before.stack:
            top = before.stack[-1]
            said = "Resolved, countered" if top.countered else "Just resolved"
            return in_discard(view, top.owner, top.card, said)
        return Mark("duelist", seat, "Passed")
    if isinstance(action, PlaceBarrier):
        return Mark("barrier", seat, "Just laid") if players[seat]["barrier"] else None
    if isinstance(action, BarrierAttack):
        return in_discard(view, seat, action.opening.value, "Attacked with")
    if isinstance(action, RevealBarrier):
        return in_discard(view, seat, action.opening.value, "Absorbed damage")
    if isinstance(action, AnswerPrediction):
        if action.right and action.opening is not None:
            return in_discard(view, seat, action.opening.value, "Guessed right")
        return Mark("barrier", seat, "Guess missed") if players[seat]["barrier"] else None
    if isinstance(action, Predict):
        said = f"Guessed: {action.symbol}" if action.symbol else "No guess"
        return Mark("barrier", 1 - seat, said) if players[1 - seat]["barrier"] else None
    if isinstance(action, AssignDamage):
        return Mark("psi", seat, f"Took {action.from_pool + action.from_spent} damage")
    if isinstance(action, Discard) and action.cards:
        return in_discard(view, seat, action.cards[-1], "Just discarded")
    if isinstance(action, Mulligan):
        return Mark("duelist", seat, "Kept the hand" if action.keep else "Took a mulligan")
    return None


def in_discard(view: PublicView, seat: int, card: object, said: str) -> Mark | None:
    """Mark a discard pile, naming the card when it is not the one on top."""
    pile = view["players"][seat]["discard"]
    if not isinstance(card, str) or card not in pile:
        return None
    if pile[-1] != card and card in CARDS:
        said = f"{said}: {CARDS[card].name}"
    return Mark("discard", seat, said)


def mark_tag(mark: Mark | None) -> Node | None:
    """The words of the mark, on the table beside what it marks."""
    if mark is None:
        return None
    return h(
        "span",
        {"class": "last-tag", "data-role": "last-move"},
        h("span", {"class": "visually-hidden"}, "Last move: "),
        mark.words,
    )


# -- the table in sentences ---------------------------------------------------------------------


def player_sentence(view: PublicView, seat: int, me: int | None) -> str:
    """One player's side of the table: PSI, hand, deck, barrier, discard pile."""
    p = view["players"][seat]
    who = f"{p['name']} (you)" if seat == me else p["name"]
    parts = [
        f"{who}: PSI {psi(p)} (Pool {p['pool']}, Spent {p['spent']}, out of the game "
        f"{p['removed']})",
        f"{words.cards(p['hand'])} in hand" if seat != me else None,
        f"{words.cards(p['deck'])} in the deck",
    ]
    barrier = p["barrier"]
    if barrier is None:
        parts.append("no barrier")
    else:
        card = view["me"]["barrier_card"] if seat == me and is_seat_view(view) else None
        what = f"{CARDS[card].name} ({CARDS[card].symbol})" if card in CARDS else "face down"
        parts.append(f"a barrier, {what}, with {barrier['points']} PSI on it")
    if p["shield"]:
        parts.append(f"the next {p['shield']} damage prevented this turn")
    pile = [CARDS[c].name for c in reversed(p["discard"]) if c in CARDS]
    parts.append(
        f"discard pile, newest first: {words.listed(pile)}" if pile else "an empty discard pile"
    )
    return "; ".join(x for x in parts if x) + "."


def stack_sentence(view: PublicView) -> str:
    names = [p["name"] for p in view["players"]]
    stack = view["stack"]
    if not stack:
        return "The stack is empty."
    items = [
        f"{names[i['owner']]}'s {CARDS[i['card']].name}"
        + (" (countered)" if i["countered"] else "")
        for i in reversed(stack)
        if i["card"] in CARDS
    ]
    return f"On the stack, top first: {words.listed(items)}."


def split_words(action: AssignDamage) -> str:
    parts = []
    if action.from_pool:
        parts.append(f"{action.from_pool} from Pool")
    if action.from_spent:
        parts.append(f"{action.from_spent} from Spent")
    return " + ".join(parts)


def psi_meter(p: PlayerView, tag: Node | None = None) -> Node:
    """Ten pips: Pool (filled), barrier (gold), Spent (ring), removed (faint cross); `tag` marks
    the last move when it was damage taken here."""
    barrier = p["barrier"]["points"] if p["barrier"] else 0
    kinds = (
        ["pool"] * p["pool"]
        + ["barrier"] * barrier
        + ["spent"] * p["spent"]
        + ["out"] * p["removed"]
    )
    pips = [
        s("circle", {"class": f"pip {kind}", "cx": f"{9 + 16 * i}", "cy": "9", "r": "6.5"})
        for i, kind in enumerate(kinds)
    ]
    words = f"Pool {p['pool']} · Spent {p['spent']}"
    words += f" · Barrier {barrier}" if barrier else ""
    words += f" · Out {p['removed']}"
    return h(
        "div",
        {"class": "psi" + (" last-move" if tag is not None else ""), "data-role": "psi"},
        tag,
        s(
            "svg",
            {
                "viewBox": f"0 0 {16 * max(10, len(kinds))} 18",
                "class": "psi-pips",
                "aria-hidden": "true",
            },
            *pips,
        ),
        h(
            "span",
            {"class": "psi-words"},
            h("strong", None, f"PSI {psi(p)}"),
            " · ",
            words,
        ),
    )


def hand_chip(card: str) -> Node:
    """A card of the hand as a line of words (cost, name, kind): what a phone shows in place of
    the drawing, whose print is too fine to read there (parlour.css picks one per width)."""
    info = CARDS[card]
    return h(
        "span",
        {"class": f"hand-chip {info.kind.lower()}", "aria-hidden": "true"},
        h("span", {"class": "chip-cost"}, str(info.cost)),
        h("span", {"class": "chip-name"}, info.name),
        h("span", {"class": "chip-kind"}, info.kind),
    )


def card_backs(count: int) -> Node:
    backs = [card_back("small") for _ in range(min(count, MAX_BACKS))]
    return h(
        "div",
        {"class": "zone hand-backs", "data-role": "hand-backs", "title": f"{count} cards in hand"},
        h("div", {"class": "fan"}, *backs) if backs else h("span", {"class": "slot-empty"}, "—"),
        h("span", {"class": "zone-label"}, f"Hand · {count}"),
    )


def pile_of(label: str, count: int, art: Node | None) -> Node:
    return h(
        "div",
        {"class": "zone pile", "data-role": label.lower()},
        art if art is not None else h("span", {"class": "slot-empty"}, "empty"),
        h("span", {"class": "zone-label"}, f"{label} · {count}"),
    )


def discard_pile(cards: list[str], mark: Mark | None = None) -> Node:
    """The discard pile: its top card, drawn and named in words (a small card's own print is
    too fine to read on a phone), and every card in it, newest first, behind "All"."""
    top = card_face(cards[-1], "small") if cards else None
    pile = pile_of("Discard", len(cards), top)
    tag = mark_tag(mark)
    if tag is not None:
        pile.attrs["class"] += " last-move"
        pile.children.insert(0, tag)
    if not cards:
        return pile
    pile.children.append(h("span", {"class": "top-name"}, CARDS[cards[-1]].name))
    names = [h("li", None, CARDS[c].name) for c in reversed(cards)]
    pile.children.append(
        h(
            "details",
            {"class": "discard-list"},
            h("summary", None, "All", h("span", {"class": "visually-hidden"}, " discarded cards")),
            h("ol", None, *names),
        )
    )
    return pile
