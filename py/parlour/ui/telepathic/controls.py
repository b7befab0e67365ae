"""Telepathic's controls: the turn's choices (a card to hand over, a set to perform), the
announcement and its answer, what the others are waiting for, and the seat's own cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.games.telepathic.grid import CARDS_BY_ID, set_names
from parlour.games.telepathic.rules import DECKS, TeleState
from parlour.games.telepathic.views import TelePublicView, TeleSeatView
from parlour.ui.help import help_tip, with_help
from parlour.ui.tree import Node, h
from parlour.ui.widgets import waiting_tree
from parlour.words import and_list, capital, name_in, possessive

if TYPE_CHECKING:
    from parlour.ui.seat import Seat

PLURALS = {"circle": "circles", "triangle": "triangles", "cross": "crosses", "star": "stars"}


@dataclass
class TeleSelection:
    slot: int | None = None  # the card the active player is about to hand over
    set_index: int | None = None  # the set the performer is previewing
    claims: dict[int, str] | None = None  # names being chosen for an Announcement
    announcing: bool = False


def in_a_line(card: str) -> str:
    """A condition card in words: "three stars in a line", "three blue in a line"."""
    return f"three {PLURALS.get(card, card)} in a line"


def announce_button() -> Node:
    """ "Make the Announcement", with its "?"."""
    return with_help(
        h(
            "button",
            {"class": "button", "data-cmd": "announce-open", "type": "button"},
            "Make the Announcement",
        ),
        "tele-announce-open",
        "Make the Announcement",
        "Opens the Announcement: you name win conditions aloud, and that ends the game.",
    )


def waiting_for(session: Seat, view: TelePublicView) -> Node | None:
    """While other seats act (online: each device shows its own seat throughout). A pair's
    waiting partner may still make the Announcement."""
    names = [seat["name"] for seat in view["seats"]]
    waiting = [s for s in view["to_move"] if s != session.viewer]
    if not waiting:
        return None
    phase = view["phase"]
    if phase == "hand" and view["must_announce"]:
        doing = "to make the Announcement"
    elif phase == "hand":
        receiver = view["receiver"]
        whom = "you" if receiver == session.viewer else names[receiver]
        doing = f"to hand an action card to {whom}"
    else:
        doing = {
            "setup": "to seal their condition cards",
            "perform": "to choose where the card acts",
            "check": "to check their lose condition",
            "window": "to announce or play on",
            "respond": "to answer the Announcement",
            "reveal": "to open their condition cards",
        }.get(phase, "to act")
    panel = waiting_tree(names, waiting, doing)
    if session.match.game.announcement_shape(session.match.state, session.viewer):
        panel.children.append(announce_button())
    return panel


def my_cards(view: TeleSeatView) -> Node:
    me = view["me"]
    items = []
    for which in ("win", "lose"):
        card = me["conditions"].get(which)
        if card is None:
            continue
        met = " — met on the grid now" if me["met"].get(which) else ""
        items.append(
            h(
                "li",
                {"class": f"condition {which}", "data-role": f"my-{which}", "data-card": card},
                h("strong", None, "Win: " if which == "win" else "Lose: "),
                f"{in_a_line(card)}{met}",
            )
        )
    body = (
        h("ul", None, *items)
        if items
        else h("p", None, "You are the director: you hold no condition cards.")
    )
    return h(
        "section",
        {"class": "controls my-cards"},
        h("h3", None, "Your condition cards"),
        body,
        h("p", {"class": "hint"}, "Only you see these. No talking, no gestures."),
    )


def turn_controls(session: Seat, view: TelePublicView) -> Node | None:
    viewer, phase = session.viewer, view["phase"]
    names = [seat["name"] for seat in view["seats"]]
    sel: TeleSelection = session.selection
    if sel.announcing or (phase == "respond" and viewer in view["to_move"]):
        return announcement(session, view)
    if phase == "hand" and viewer == view["active"]:
        performer = name_in(names[view["receiver"]])
        parts = []
        if not view["must_announce"]:
            # the card and its "Hand it" button sit under the grid (action_cards.py, `card_row`)
            parts.append(
                h(
                    "p",
                    None,
                    f"Choose a face-up action card under the grid to hand to {performer}, "
                    "then hand it.",
                    help_tip(
                        "tele-pick-card",
                        "the action cards",
                        "Choosing a card (a click, or the arrow keys and Enter) only marks it; "
                        "it is handed over when you press Hand it.",
                    ),
                )
            )
        if session.match.game.announcement_shape(session.match.state, viewer):
            parts.append(announce_button())
        return h("section", {"class": "controls"}, h("h3", None, "Your turn"), *parts)
    if phase == "perform" and viewer == view["performer"]:
        card = CARDS_BY_ID[view["handed"]]
        stop = sel.set_index if sel.set_index is not None else 0
        options = [
            h(
                "button",
                {
                    "class": "button small",
                    "data-cmd": "pick-set",
                    "data-set": str(i),
                    # the page gives the focus back to the button of this name after a redraw
                    "data-name": name,
                    "aria-pressed": "true" if sel.set_index == i else "false",
                    "tabindex": "0" if i == stop else "-1",
                    "type": "button",
                },
                name,
            )
            for i, name in enumerate(set_names(card.sets))
        ]
        return h(
            "section",
            {"class": "controls"},
            h("h3", None, f"{names[view['active']]} handed you {card.name}"),
            h(
                "p",
                {"id": "tele-sets-label"},
                "Choose where it acts; the grid shows a preview before you confirm.",
                help_tip(
                    "tele-pick-set",
                    "the sets",
                    f"Each button previews {card.name} acting on that "
                    f"{card.sets.rstrip('s')}; nothing changes until you press Do it.",
                ),
            ),
            h(
                "div",
                {
                    "class": "choice",
                    "role": "group",
                    "aria-labelledby": "tele-sets-label",
                    "data-roving": "sets",
                },
                *options,
            ),
            with_help(
                h(
                    "button",
                    {"class": "button primary", "data-cmd": "perform", "type": "button"},
                    "Do it",
                ),
                "tele-perform",
                "Do it",
                "Applies the card to the set you chose; the grid changes for everyone.",
            ),
        )
    if phase == "window" and viewer == view["performer"]:
        return h(
            "section",
            {"class": "controls"},
            h(
                "p",
                None,
                f"You may announce {possessive(names[view['active']])} win condition now.",
            ),
            h(
                "div",
                {"class": "choice"},
                announce_button(),
                with_help(
                    h(
                        "button",
                        {"class": "button primary", "data-cmd": "continue", "type": "button"},
                        "Play on",
                    ),
                    "tele-continue",
                    "Play on",
                    "Lets the game go on without an Announcement: the next card is handed.",
                ),
            ),
        )
    return None


def announcement(session: Seat, view: TelePublicView) -> Node:
    state: TeleState = session.match.state
    viewer = session.viewer
    sel: TeleSelection = session.selection
    names = [seat["name"] for seat in view["seats"]]
    claims = sel.claims or {}
    if view["phase"] == "respond":
        announcer = view["announcer"]
        said = "; ".join(f"{possessive(names[s])} win is {n}" for s, n in view["claims"])
        targets = [announcer]
        intro = [
            h("p", None, f"{names[announcer]} announced: {said}."),
            h("p", None, f"Now name {possessive(names[announcer])} win condition."),
        ]
        submit = "answer"
    else:
        targets = session.match.game.announcement_shape(state, viewer)
        intro = [
            h(
                "p",
                None,
                "Name the win condition of " + and_list([names[t] for t in targets]) + ".",
            )
        ]
        submit = "announce"
    groups = []
    for target in targets:
        kind = state.kind_of(target)
        stop = claims.get(target, DECKS[kind][0])
        buttons = [
            h(
                "button",
                {
                    "class": "button small",
                    "data-cmd": "claim",
                    "data-seat": str(target),
                    "data-name": option,
                    "type": "button",
                    "aria-pressed": "true" if claims.get(target) == option else "false",
                    "tabindex": "0" if option == stop else "-1",
                },
                option,
            )
            for option in DECKS[kind]
        ]
        label = f"claim-{target}-label"
        groups.append(
            h(
                "div",
                {"class": "claim"},
                h(
                    "p",
                    {"class": "hint", "id": label},
                    f"{capital(possessive(names[target]))} win ({kind}):",
                ),
                h(
                    "div",
                    {
                        "class": "choice",
                        "role": "group",
                        "aria-labelledby": label,
                        "data-roving": "claim",
                    },
                    *buttons,
                ),
            )
        )
    cancel = (
        with_help(
            h(
                "button",
                {"class": "button", "data-cmd": "announce-close", "type": "button"},
                "Not now",
            ),
            "tele-announce-close",
            "Not now",
            "Closes the Announcement without saying anything; the game goes on.",
        )
        if submit == "announce" and not view["must_announce"]
        else None
    )
    word = "Answer" if submit == "answer" else "Announce"
    send = with_help(
        h("button", {"class": "button primary", "data-cmd": submit, "type": "button"}, word),
        f"tele-{submit}",
        word,
        ("Names the announcer's win condition" if submit == "answer" else "Says the names")
        + "; the game ends, won only if every name is right and every win condition is met.",
    )
    return h(
        "section",
        {"class": "controls announcement", "role": "group", "aria-label": "The Announcement"},
        h("h3", None, "The Announcement"),
        *intro,
        *groups,
        h("div", {"class": "choice"}, send, cancel),
    )
