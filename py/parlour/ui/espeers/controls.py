"""ESPEERS's controls: what the selected card can do (or why not), the discard bar, the mulligan,
the prediction, the damage to assign, the barrier row; and each control's "?" (HELP)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.espeers import stops, words
from parlour.games.espeers.actions import (
    Action,
    AssignDamage,
    BarrierAttack,
    Cycle,
    Mulligan,
    Pass,
    PlaceBarrier,
    Play,
)
from parlour.games.espeers.cards import CARDS
from parlour.games.espeers.state import ATTACK_DAMAGE, BARRIER_PSI
from parlour.games.espeers.views import (
    PublicView,
    SeatView,
    is_seat_view,
)
from parlour.games.zener import SYMBOLS
from parlour.ui.espeers.table import split_words
from parlour.ui.help import help_tip, with_help
from parlour.ui.tree import Node, h
from parlour.ui.zener_art import symbol_icon

if TYPE_CHECKING:
    from parlour.ui.seat import Seat

# The "?" beside each of the game's own controls: one sentence each, in the game's words.
HELP = {
    "hand": "Choose a card to see what it can do now: play it, cycle it, or lay it as a barrier.",
    "play": (
        "Pays the card's cost from your Pool and puts it on the stack, suspended: it resolves "
        "when both players pass in a row, unless it is answered first."
    ),
    "cycle": (
        "Discards the card for the small ability at its foot instead of playing it: it costs "
        "nothing and you keep Opportunity."
    ),
    "barrier": (
        f"Lays the card face down with {BARRIER_PSI} PSI from your Pool on it: it absorbs "
        "damage to you, and your opponent may guess its symbol to discard it."
    ),
    "attack": (f"Discards your barrier, face up, to deal {ATTACK_DAMAGE} damage to your opponent."),
    "pass": (
        "Gives Opportunity to the other player: two passes in a row resolve the top card of the "
        "stack, and a pass on an empty stack ends the phase or the turn."
    ),
    stops.STANDING: (
        "Without it the page passes for you only when Pass is all you can do. With it, also "
        "whenever no card of your opponent's waits on top of the stack (your own cards resolve "
        "by themselves, and their turn goes by), except in your own Active phase, and when the "
        "only other choice is a cycle that does nothing. Each pass and each card that resolves "
        "is in the log."
    ),
    "stack": (
        "Played cards wait here, suspended, so the other player can answer them; the top card "
        "resolves first."
    ),
    "keep": "Starts the game with these cards.",
    "mulligan": "Shuffles these cards back into your deck and draws a new opening hand.",
    "predict": (
        "Name the symbol you think is on the new barrier: a right guess discards it and its PSI "
        "go to Spent; a wrong one leaves it standing."
    ),
    "predict-none": "Leaves the new barrier standing without a guess.",
    "assign": "Choose how much of the damage comes out of your Pool and how much out of Spent.",
    "discard": "Discards the chosen cards, to keep six in hand at the end of your Active phase.",
}


def in_play(view: PublicView) -> bool:
    """Opportunity means something: the Active phase or the End of a turn, game not yet over."""
    return view["phase"] in ("active", "end") and view["outcome"] is None


def button(cmd: str, label: str, primary: bool = False) -> Node:
    css = "button primary" if primary else "button"
    return h("button", {"class": css, "data-cmd": cmd, "type": "button"}, label)


def helped(cmd: str, label: str, primary: bool = False) -> Node:
    """A control of the game with its "?" (HELP[cmd]), so a newcomer can ask what it does."""
    return with_help(button(cmd, label, primary), f"espeers-{cmd}", label, HELP[cmd])


def selected_card(session: Seat, view: PublicView) -> str | None:
    slot = session.selection.slot
    hand = view["me"]["hand"] if is_seat_view(view) else []
    return hand[slot] if slot is not None and 0 <= slot < len(hand) else None


def card_actions(session: Seat, view: SeatView) -> Node:
    card = selected_card(session, view)
    if card is None:
        legal = session.legal()
        if any(isinstance(a, PlaceBarrier) for a in legal):
            hint = "Choose a card to play, cycle or lay as a barrier."
        elif holds_opportunity(session, view):
            hint = "Choose a card to play or cycle."
        else:
            hint = "Choose a card to read it."
        return h("p", {"class": "hint card-actions"}, hint)
    legal = session.legal()
    info = CARDS[card]
    buttons = []
    if Play(card) in legal:
        buttons.append(helped("play", f"Play · {info.cost} PSI", primary=True))
    if Cycle(card) in legal:
        buttons.append(helped("cycle", f"Cycle: {words.cycle_words(card)}"))
    if PlaceBarrier(card) in legal:
        buttons.append(helped("barrier", words.LAY_BARRIER))
    why = why_not(session, view, card, legal)
    return h(
        "div",
        {"class": "card-actions", "data-role": "card-actions"},
        h("p", {"class": "card-title"}, h("strong", None, info.name), f" — {info.printed()}"),
        h("div", {"class": "choice"}, *buttons) if buttons else None,
        h("p", {"class": "hint"}, why) if why else None,
    )


def why_not(session: Seat, view: SeatView, card: str, legal: list[Action]) -> str:
    if not holds_opportunity(session, view):
        return words.ACT_ONLY_WITH_OPPORTUNITY
    if Play(card) not in legal:
        game = session.match.game
        return game.play_problem(session.match.state, session.viewer, card) or ""
    return ""


def holds_opportunity(session: Seat, view: PublicView) -> bool:
    return any(isinstance(a, (Pass, Cycle)) for a in session.legal())


def is_discarding(session: Seat, view: PublicView) -> bool:
    pending = view["pending"]
    return (
        pending is not None and pending["kind"] == "discard" and pending["seat"] == session.viewer
    )


def discard_bar(session: Seat, view: SeatView) -> Node:
    pending = view["pending"]
    need = pending["amount"] if pending else 0
    chosen = len(session.selection.discard)
    # the button says what the sentence asks, and waits for exactly that many cards
    label = f"Discard {need} card{'s' if need != 1 else ''} ({chosen} of {need} chosen)"
    confirm = button("discard", label, primary=True)
    if chosen != need:
        confirm.attrs["disabled"] = ""
    return h(
        "div",
        {"class": "card-actions", "data-role": "card-actions"},
        h("p", None, words.discard_prompt(need, chosen)),
        with_help(confirm, "espeers-discard", label, HELP["discard"]),
    )


def mulligan_tree(session: Seat, view: SeatView, legal: list[Action]) -> Node:
    me = view["players"][view["me"]["seat"]]
    cost = words.mulligan_price(me["mulligans"])
    return h(
        "section",
        {"class": "controls", "aria-label": "Your opening hand"},
        h("h3", None, "Your opening hand"),
        h("p", None, words.MULLIGAN_RULE),
        h(
            "div",
            {"class": "choice"},
            helped("keep", "Keep this hand", primary=True),
            helped("mulligan", f"Mulligan ({cost})") if Mulligan(False) in legal else None,
        ),
    )


def predict_tree(view: SeatView) -> Node:
    owner = view["players"][1 - view["me"]["seat"]]["name"]
    buttons = [
        h(
            "button",
            {
                "class": "button symbol-choice",
                "data-cmd": "predict",
                "data-symbol": symbol.value,
                "type": "button",
            },
            symbol_icon(symbol.value),
            symbol.value,
        )
        for symbol in SYMBOLS
    ]
    return h(
        "section",
        {"class": "controls", "aria-label": "Guess the barrier"},
        h(
            "h3",
            None,
            "Guess the barrier",
            help_tip("espeers-predict", "a guess", HELP["predict"]),
        ),
        h("p", None, words.predict_prompt(owner)),
        h("div", {"class": "choice symbols"}, *buttons),
        helped("predict-none", "No guess"),
    )


def assign_tree(view: SeatView, legal: list[Action]) -> Node:
    pending = view["pending"]
    amount = pending["amount"] if pending else 0
    buttons = [
        h(
            "button",
            {
                "class": "button",
                "data-cmd": "assign",
                "data-amount": a.from_pool,
                "type": "button",
            },
            split_words(a),
        )
        for a in legal
        if isinstance(a, AssignDamage)
    ]
    return h(
        "section",
        {"class": "controls", "aria-label": "Take the damage"},
        h(
            "h3",
            None,
            f"Take {amount} damage",
            help_tip("espeers-assign", "taking damage", HELP["assign"]),
        ),
        h("p", None, words.ASSIGN_RULE),
        h("div", {"class": "choice"}, *buttons),
    )


def barrier_row(session: Seat, view: SeatView) -> Node | None:
    """Your barrier's own control, beside it on the table: the attack, when it may."""
    me = view["me"]["seat"]
    if view["players"][me]["barrier"] is None:
        return None
    legal = session.legal()
    if not any(isinstance(a, BarrierAttack) for a in legal):
        return None
    return h("div", {"class": "barrier-row"}, helped("attack", words.BARRIER_ATTACK))
