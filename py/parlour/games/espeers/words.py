"""ESPEERS in words: each action as the sentence of the log and the hand-off screen, and the
phase of the turn as the status line says it (pure).

Sentences say only what is public after the action: a card played, cycled or discarded, a
barrier laid face down (never its card until it is shown), a prediction and its answer.
"""

from __future__ import annotations

from typing import Any

from parlour.games.espeers.cards import CARDS, CYCLING
from parlour.games.espeers.rules import (
    HAND,
    AnswerPrediction,
    AssignDamage,
    BarrierAttack,
    Cycle,
    Discard,
    EspeersState,
    Mulligan,
    Pass,
    PlaceBarrier,
    Play,
    Predict,
    RevealBarrier,
    ends_active_phase,
)

CYCLE_WORDS = {
    None: "nothing happens",
    "regain": "{name} regains {n} PSI",
    "draw": "{name} draws {cards}",
}
EFFECT_WORDS = {
    "damage": "{other} is dealt {n} damage",
    "drain": "{n} of {other}'s PSI is drained from Pool to Spent",
    "regain": "{name} regains {n} PSI",
    "draw": "{name} draws {cards}",
    "prevent": "the next {n} damage to {name} this turn is prevented",
    "counter": "the card below it is countered",
}


def cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def card_name(card: str) -> str:
    return CARDS[card].name if card in CARDS else card


def listed(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def effect_words(state: EspeersState, owner: int, verb: str, n: int) -> str:
    return EFFECT_WORDS[verb].format(
        name=state.name(owner), other=state.name(1 - owner), n=n, cards=cards(n)
    )


def card_text(card: str) -> str:
    """A card's rules text as printed on it (the opponent and you, from its owner's side)."""
    return CARDS[card].text()


def describe(before: EspeersState, seat: int, action: Any) -> str:
    """The sentence for `action` taken by `seat` in the state `before` it."""
    name = before.name(seat)
    other = before.name(1 - seat)
    if isinstance(action, Mulligan):
        return _mulligan(before, seat, action)
    if isinstance(action, Play):
        info = CARDS[action.card]
        return f"{name} plays {info.name} for {info.cost} PSI: “{info.printed()}” It is suspended."
    if isinstance(action, Cycle):
        return _cycle(before, seat, action.card)
    if isinstance(action, Pass):
        return _pass(before, seat)
    if isinstance(action, PlaceBarrier):
        return f"{name} lays a barrier: a card face down with 2 PSI on it."
    if isinstance(action, Predict):
        if action.symbol is None:
            return f"{name} makes no guess at the barrier's symbol."
        return f"{name} guesses that the barrier is a {action.symbol}."
    if isinstance(action, AnswerPrediction):
        if not action.right or action.opening is None:
            return f"{name}: wrong guess, the barrier stays."
        card = card_name(action.opening.value)
        return f"{name}: right guess! The barrier ({card}) is discarded and its 2 PSI go to Spent."
    if isinstance(action, BarrierAttack):
        card = card_name(action.opening.value)
        return f"{name} discards the barrier ({card}) to attack: {other} takes 1 damage."
    if isinstance(action, RevealBarrier):
        card = card_name(action.opening.value)
        rest = before.pending.amount if before.pending else 0
        tail = f"; {rest} damage still gets through" if rest else ""
        return f"{name}'s barrier ({card}) absorbs the damage and is discarded{tail}."
    if isinstance(action, AssignDamage):
        parts = [f"{n} from {zone}" for n, zone in ((action.from_pool, "the Pool"),) if n]
        parts += [f"{action.from_spent} from Spent"] if action.from_spent else []
        total = action.from_pool + action.from_spent
        return f"{name} takes {total} damage: {listed(parts)}."
    if isinstance(action, Discard):
        names = [card_name(c) for c in action.cards]
        return f"{name} discards {listed(names)} to get down to six cards."
    return ""  # sealing the deck is routine: nothing to tell


def _mulligan(before: EspeersState, seat: int, action: Mulligan) -> str:
    name, taken = before.name(seat), before.players[seat].mulligans
    if action.keep:
        after = f" after {taken} mulligan{'s' if taken > 1 else ''}" if taken else ""
        return f"{name} keeps the hand{after}."
    cost = "free" if taken == 0 else "1 PSI to Spent"
    return f"{name} takes a mulligan ({cost}) and draws six new cards."


def _cycle(before: EspeersState, seat: int, card: str) -> str:
    info = CARDS[card]
    ability = CYCLING[info.symbol]
    if ability is None:
        result = CYCLE_WORDS[None]
    else:
        verb, n = ability
        if verb == "regain":
            n = min(n, before.players[seat].spent)
        result = CYCLE_WORDS[verb].format(name=before.name(seat), n=n, cards=cards(n))
    return f"{before.name(seat)} cycles {info.name} ({info.symbol}): {result}."


def _pass(before: EspeersState, seat: int) -> str:
    name = before.name(seat)
    if ends_active_phase(before, seat):
        if before.players[seat].hand > HAND:
            return f"{name} passes: the Active phase ends, and {name} discards down to six."
        other = before.name(1 - seat)
        return (
            f"{name} passes: the Active phase ends, and {other} has a last Opportunity before "
            "the turn ends."
        )
    if before.passes == 0:
        return f"{name} passes."
    if before.stack:
        top = before.stack[-1]
        info = CARDS[top.card]
        if top.countered:
            return f"{name} passes: {info.name} resolves, countered, with no effect."
        effects = [effect_words(before, top.owner, verb, n) for verb, n in info.effects]
        return f"{name} passes: {info.name} resolves: {listed(effects)}."
    return f"{name} passes: {before.name(before.active)}'s turn ends."


def pass_meaning(state: EspeersState, seat: int) -> str:
    """What pressing Pass would do now, for the label of the one Pass button."""
    other = state.name(1 - seat)
    if ends_active_phase(state, seat):
        return "Pass: end your Active phase"
    if state.passes == 0:
        if state.stack:
            return f"Pass: {other} may still respond"
        return f"Pass: {other} may still act"
    if state.stack:
        return f"Pass: {CARDS[state.stack[-1].card].name} resolves"
    if seat == state.active:
        return "Pass: end your turn"
    return f"Pass: {state.name(state.active)}'s turn ends"


# -- the phase, from the public view (the status line and the line above the Pass button) ----


def turn_status(view: dict) -> str:
    """The turn, its phase and who holds Opportunity."""
    names = [p["name"] for p in view["players"]]
    turn, active, holder = view["turn"], names[view["active"]], names[view["opportunity"]]
    if view["phase"] == "discard":
        return f"Turn {turn} · {active} discards down to six cards."
    if view["phase"] == "end":
        if view["opportunity"] != view["active"]:
            return f"Turn {turn} · {holder}'s last Opportunity before {active}'s turn ends."
        return f"Turn {turn} · End of {active}'s turn · {active} holds Opportunity."
    return f"Turn {turn} · {active}'s Active phase · {holder} holds Opportunity."


def opportunity_lead(view: dict, seat: int) -> str:
    """What holding Opportunity lets `seat` do now, in one line."""
    stack = view["stack"]
    if stack and stack[-1]["owner"] != seat:
        top = CARDS[stack[-1]["card"]]
        who = view["players"][1 - seat]["name"]
        return f"{who}'s {top.name} is suspended: answer it with an Impulse, cycle, or pass."
    if view["phase"] == "end" and seat == view["active"]:
        return "The end of your turn, your Active phase over: play an Impulse, cycle, or pass."
    if view["phase"] == "end":
        active = view["players"][view["active"]]["name"]
        return (
            f"Your last Opportunity before {active}'s turn ends: play an Impulse, cycle, or pass."
        )
    if seat == view["active"]:
        return "Your Active phase: play cards, cycle, lay or use a barrier, or pass."
    return "You hold Opportunity in your opponent's turn: play an Impulse, cycle, or pass."
