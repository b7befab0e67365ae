"""ESPEERS in words: each action as the sentence of the log and the hand-off screen, the phase
of the turn as the status line says it, and every rule the screen explains (pure).

This is the one place the game's rules are put into sentences. Numbers in them come from the
engine (`state.py`: the hand size, a barrier's PSI, the mulligan's cost), never from the text,
so a rule changed there is said right everywhere; the screen (`ui/espeers_*.py`) asks here for
every rule sentence it shows, and the engine's refusals use the same phrases.

Sentences say only what is public after the action: a card played, cycled or discarded, a
barrier laid face down (never its card until it is shown), a prediction and its answer.
"""

from __future__ import annotations

from parlour.games.base import whose
from parlour.games.espeers.actions import (
    Action,
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
from parlour.games.espeers.cards import CARDS, CYCLING
from parlour.games.espeers.state import (
    ATTACK_DAMAGE,
    BARRIER_PSI,
    FREE_MULLIGANS,
    HAND,
    MULLIGAN_PSI,
    EspeersState,
    PendingKind,
    ends_active_phase,
    mulligan_cost,
)
from parlour.games.espeers.views import PublicView
from parlour.words import Named, agree, capital, possessive, with_verb

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def in_words(n: int) -> str:
    """A small number as a word ("six"); larger ones as digits."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


# -- the rules, as the screen explains them ---------------------------------------------------

# When each kind of card may be played.
KIND_WHEN = {
    "PK": "only in your own Active phase",
    "Impulse": "whenever you hold Opportunity",
}
DISCARD_DOWN = f"discards down to {in_words(HAND)} cards"  # the end of an Active phase
DISCARD_DOWN_YOU = f"discard down to {in_words(HAND)} cards"
STACK_RULE = "The top card resolves first, when both pass in a row."
ACT_ONLY_WITH_OPPORTUNITY = "You can act only while you hold Opportunity."
BARRIER_FACE_DOWN = f"A face-down card with {BARRIER_PSI} PSI on it."
LAY_BARRIER = f"Lay face down as a barrier · {BARRIER_PSI} PSI"
BARRIER_ATTACK = f"Barrier attack: {ATTACK_DAMAGE} damage"
ASSIGN_RULE = (
    "These PSI leave the game. Take them from your Pool (ready to spend this turn) "
    "or from Spent (back to your Pool at your next Refresh)."
)
_FREE = (
    "The first mulligan is free"
    if FREE_MULLIGANS == 1
    else f"The first {in_words(FREE_MULLIGANS)} mulligans are free"
)
MULLIGAN_RULE = (
    f"Keep these {in_words(HAND)} cards, or shuffle them back and draw {in_words(HAND)} new "
    f"ones. {_FREE}; each further one moves {MULLIGAN_PSI} PSI from Pool to Spent."
)
# What the game waits for, when it waits on one player's decision (the engine's refusal of
# anything else).
PENDING_SENTENCES: dict[PendingKind, str] = {
    "predict": "{name} may name one symbol for the new barrier, or none.",
    "answer": "{name} must say whether the prediction is right.",
    "assign": "{name:chooses} where the damage is taken from.",
    "reveal-barrier": "{name} must show the barrier card that took the damage.",
    "discard": f"{{name:{DISCARD_DOWN}}}.",
}
# The same waits as the status line says them.
PENDING_STATUS: dict[PendingKind, str] = {
    "predict": "{name} may guess the new barrier's symbol.",
    "assign": "{name:chooses} where {amount} damage comes from.",
    "discard": f"{{name:{DISCARD_DOWN}}}.",
}
# ... and addressed to the one person playing alone against the bot.
YOUR_PENDING_STATUS: dict[PendingKind, str] = {
    "predict": "You may guess the new barrier's symbol.",
    "answer": "Say whether the prediction is right.",
    "reveal-barrier": "Show the barrier card that took the damage.",
    "assign": "Choose where {amount} damage comes from.",
    "discard": f"{capital(DISCARD_DOWN_YOU)}.",
}

# What cycling a card does, at its foot and on its Cycle button (CYCLING, by its symbol).
CYCLE_FOOT = {
    None: "no cycling ability",
    "regain": "regain {n}",
    "draw": "draw {n}",
}
# ... and in the log, once it happened.
CYCLE_WORDS = {
    None: "nothing happens",
    "regain": "{name:in regains} {n} PSI",
    "draw": "{name:in draws} {cards}",
}
EFFECT_WORDS = {
    "damage": "{other:in is} dealt {n} damage",
    "drain": "{n} of {other:'s} PSI is drained from Pool to Spent",
    "regain": "{name:in regains} {n} PSI",
    "draw": "{name:in draws} {cards}",
    "prevent": "the next {n} damage to {name:in} this turn is prevented",
    "counter": "the card below it is countered",
}
# What a pass leads to: in the log's words (`pass_meaning`) and the Pass button's.
PASS_MEANING = {
    "end-active": "end your Active phase",
    "respond": "{other} may still respond",
    "act": "{other} may still act",
    "resolves": "{card} resolves",
    "end-turn": "end your turn",
    "turn-ends": "{active:'s} turn ends",
}
PASS_BUTTON = {
    **PASS_MEANING,
    "respond": "{other} can still answer",
    "act": "{other} can still act",
}


def cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def card_name(card: object) -> str:
    """A card's name; anything else (an opening's value is any JSON) as it is."""
    return CARDS[card].name if isinstance(card, str) and card in CARDS else str(card)


def listed(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def cycle_words(card: str) -> str:
    """What cycling `card` does, short: "regain 2", "draw 1", or "no cycling ability"."""
    ability = CYCLING[CARDS[card].symbol]
    if ability is None:
        return CYCLE_FOOT[None]
    verb, n = ability
    return CYCLE_FOOT[verb].format(n=n)


def cycle_text(card: str) -> str:
    """What cycling this card does, in the words printed at its foot."""
    words = cycle_words(card)
    return words if CYCLING[CARDS[card].symbol] is None else f"cycle: {words}"


def mulligan_price(taken: int) -> str:
    """The next mulligan's cost, for its button: "free" or "costs 1 PSI"."""
    cost = mulligan_cost(taken)
    return "free" if cost == 0 else f"costs {cost} PSI"


def discard_prompt(need: int, chosen: int) -> str:
    """The Discard step, said to the player whose hand is over the limit."""
    return (
        f"Your hand is over {HAND}: choose {need} card{'s' if need > 1 else ''} to "
        f"discard ({chosen} chosen). Discarding is not cycling: no symbol ability."
    )


def predict_prompt(owner: str) -> str:
    """The chance to guess the barrier `owner` just laid."""
    return (
        f"{owner} laid a barrier. Name the symbol of its face-down card, once: if you are "
        f"right, the barrier is discarded at once and its {BARRIER_PSI} PSI go to Spent."
    )


def barrier_words(card: str | None, points: int) -> str:
    """One's own barrier, and what it does."""
    name = CARDS[card].name if card in CARDS else "A card"
    return (
        f"{name} lies face down with {points} PSI on it. "
        f"It absorbs up to {BARRIER_PSI} of the next damage to you."
    )


def effect_words(state: EspeersState, owner: int, verb: str, n: int) -> str:
    return EFFECT_WORDS[verb].format(
        name=Named(state.name(owner)), other=Named(state.name(1 - owner)), n=n, cards=cards(n)
    )


# -- the log ----------------------------------------------------------------------------------


def describe(before: EspeersState, seat: int, action: Action) -> str:
    """The sentence for `action` taken by `seat` in the state `before` it."""
    name = Named(before.name(seat))
    other = Named(before.name(1 - seat))
    if isinstance(action, Mulligan):
        return _mulligan(before, seat, action)
    if isinstance(action, Play):
        info = CARDS[action.card]
        return f"{name:plays} {info.name} for {info.cost} PSI: “{info.printed()}” It is suspended."
    if isinstance(action, Cycle):
        return _cycle(before, seat, action.card)
    if isinstance(action, Pass):
        return _pass(before, seat)
    if isinstance(action, PlaceBarrier):
        return f"{name:lays} a barrier: a card face down with {BARRIER_PSI} PSI on it."
    if isinstance(action, Predict):
        if action.symbol is None:
            return f"{name:makes} no guess at the barrier's symbol."
        return f"{name:guesses} that the barrier is a {action.symbol}."
    if isinstance(action, AnswerPrediction):
        if not action.right or action.opening is None:
            return f"{name}: wrong guess, the barrier stays."
        card = card_name(action.opening.value)
        return (
            f"{name}: right guess! The barrier ({card}) is discarded and its {BARRIER_PSI} PSI "
            "go to Spent."
        )
    if isinstance(action, BarrierAttack):
        card = card_name(action.opening.value)
        takes = f"{other:in takes} {ATTACK_DAMAGE} damage"
        return f"{name:discards} the barrier ({card}) to attack: {takes}."
    if isinstance(action, RevealBarrier):
        card = card_name(action.opening.value)
        rest = before.pending.amount if before.pending else 0
        tail = f"; {rest} damage still gets through" if rest else ""
        whose = capital(possessive(name))
        return f"{whose} barrier ({card}) absorbs the damage and is discarded{tail}."
    if isinstance(action, AssignDamage):
        parts = [f"{n} from {zone}" for n, zone in ((action.from_pool, "the Pool"),) if n]
        parts += [f"{action.from_spent} from Spent"] if action.from_spent else []
        total = action.from_pool + action.from_spent
        return f"{name:takes} {total} damage: {listed(parts)}."
    if isinstance(action, Discard):
        names = [card_name(c) for c in action.cards]
        return f"{name:discards} {listed(names)} to get down to {in_words(HAND)} cards."
    return ""  # sealing the deck is routine: nothing to tell


def _mulligan(before: EspeersState, seat: int, action: Mulligan) -> str:
    name, taken = Named(before.name(seat)), before.players[seat].mulligans
    if action.keep:
        after = f" after {taken} mulligan{'s' if taken > 1 else ''}" if taken else ""
        return f"{name:keeps} the hand{after}."
    cost = mulligan_cost(taken)
    price = "free" if cost == 0 else f"{cost} PSI to Spent"
    draws = agree(name, "draws")
    return f"{name:takes} a mulligan ({price}) and {draws} {in_words(HAND)} new cards."


def _cycle(before: EspeersState, seat: int, card: str) -> str:
    info = CARDS[card]
    ability = CYCLING[info.symbol]
    if ability is None:
        result = CYCLE_WORDS[None]
    else:
        verb, n = ability
        if verb == "regain":
            n = min(n, before.players[seat].spent)
        result = CYCLE_WORDS[verb].format(name=Named(before.name(seat)), n=n, cards=cards(n))
    return f"{Named(before.name(seat)):cycles} {info.name} ({info.symbol}): {result}."


def _pass(before: EspeersState, seat: int) -> str:
    name = Named(before.name(seat))
    if ends_active_phase(before, seat):
        if before.players[seat].hand > HAND:
            return (
                f"{name:passes}: the Active phase ends, and {name:in} "
                f"{agree(name, 'discards')} down to {in_words(HAND)}."
            )
        other = Named(before.name(1 - seat))
        return (
            f"{name:passes}: the Active phase ends, and {other:in} {agree(other, 'has')} a last "
            "Opportunity before the turn ends."
        )
    if before.passes == 0:
        return f"{name:passes}."
    if before.stack:
        top = before.stack[-1]
        info = CARDS[top.card]
        if top.countered:
            return f"{name:passes}: {info.name} resolves, countered, with no effect."
        effects = [effect_words(before, top.owner, verb, n) for verb, n in info.effects]
        return f"{name:passes}: {info.name} resolves: {listed(effects)}."
    return f"{name:passes}: {possessive(before.name(before.active))} turn ends."


# -- what Pass would do ------------------------------------------------------------------------


def _pass_leads_to(state: EspeersState, seat: int) -> str:
    """What pressing Pass would do now, as a key of PASS_MEANING."""
    if ends_active_phase(state, seat):
        return "end-active"
    if state.passes == 0:
        return "respond" if state.stack else "act"
    if state.stack:
        return "resolves"
    return "end-turn" if seat == state.active else "turn-ends"


def _pass_words(table: dict[str, str], state: EspeersState, seat: int) -> str:
    top = CARDS[state.stack[-1].card].name if state.stack else ""
    return table[_pass_leads_to(state, seat)].format(
        other=Named(state.name(1 - seat)), card=top, active=Named(state.name(state.active))
    )


def pass_meaning(state: EspeersState, seat: int) -> str:
    """What pressing Pass would do now ("Pass: Bo may still respond")."""
    return "Pass: " + _pass_words(PASS_MEANING, state, seat)


def pass_effect(state: EspeersState, seat: int) -> str:
    """What passing leads to, for the Pass button ("Pass (Bo can still answer)"), said as what
    the other player can still do."""
    return _pass_words(PASS_BUTTON, state, seat)


# -- the phase, from the public view (the status line and the line above the Pass button) ----


def status(view: PublicView, you: int | None = None) -> str:
    """The status line: the set-up, a decision the game waits for, the mulligans, or the turn;
    addressed to `you`, the one person playing alone against the bot, when it is theirs."""
    names = [p["name"] for p in view["players"]]
    pending = view["pending"]
    if view["phase"] == "setup":
        return "Shuffling and sealing the decks."
    if pending is not None:
        if pending["seat"] == you:
            sentence = YOUR_PENDING_STATUS.get(pending["kind"], "Waiting for you.")
            return sentence.format(amount=pending["amount"])
        sentence = PENDING_STATUS.get(pending["kind"], "Waiting for {name}.")
        return sentence.format(name=Named(names[pending["seat"]]), amount=pending["amount"])
    if view["phase"] == "mulligan":
        return mulligan_status(view, you)
    return turn_status(view, you)


def mulligan_status(view: PublicView, you: int | None = None) -> str:
    """The opening hands are decided one after the other, the first player first (the one
    Active in turn 1): while that player decides, say who comes next."""
    names = [p["name"] for p in view["players"]]
    deciding = view["to_move"]
    if len(deciding) != 1:
        return "Both players: keep your opening hand or take a mulligan."
    seat = deciding[0]
    if seat == you:
        words = "Keep your opening hand or take a mulligan"
    else:
        takes = agree(names[seat], "takes")
        words = f"{Named(names[seat]):keeps} the opening hand or {takes} a mulligan"
    if seat == view["active"]:
        nxt = (
            "you decide"
            if 1 - seat == you
            else f"{Named(names[1 - seat]):in} {agree(names[1 - seat], 'decides')}"
        )
        return f"{words}; then {nxt}."
    return f"{words}."


def turn_status(view: PublicView, you: int | None = None) -> str:
    """The turn, its phase and who holds Opportunity ("your" and "You hold" for `you`)."""
    names = [p["name"] for p in view["players"]]
    turn, active, holder = view["turn"], view["active"], view["opportunity"]
    if view["phase"] == "discard":
        if active == you:
            return f"Turn {turn} · {capital(DISCARD_DOWN_YOU)}."
        return f"Turn {turn} · {with_verb(names[active], DISCARD_DOWN)}."
    holds = "You hold" if holder == you else with_verb(names[holder], "holds")
    if view["phase"] == "end":
        if holder != active:
            return (
                f"Turn {turn} · {capital(whose(names, holder, you))} last Opportunity"
                f" before {whose(names, active, you)} turn ends."
            )
        return f"Turn {turn} · End of {whose(names, active, you)} turn · {holds} Opportunity."
    active_phase = capital(whose(names, active, you))
    return f"Turn {turn} · {active_phase} Active phase · {holds} Opportunity."


def opportunity_line(view: PublicView, viewer: int | None) -> str:
    """The line above the Pass button: what the viewer may do with Opportunity, or who holds
    it."""
    holder = view["opportunity"]
    if holder == viewer:
        return opportunity_lead(view, holder)
    return f"{with_verb(view['players'][holder]['name'], 'holds')} Opportunity."


def opportunity_lead(view: PublicView, seat: int) -> str:
    """What holding Opportunity lets `seat` do now, in one line."""
    stack = view["stack"]
    if stack and stack[-1]["owner"] != seat:
        top = CARDS[stack[-1]["card"]]
        who = view["players"][1 - seat]["name"]
        whose = capital(possessive(who))
        return f"{whose} {top.name} is suspended: answer it with an Impulse, cycle, or pass."
    if view["phase"] == "end" and seat == view["active"]:
        return "The end of your turn, your Active phase over: play an Impulse, cycle, or pass."
    if view["phase"] == "end":
        active = view["players"][view["active"]]["name"]
        return (
            f"Your last Opportunity before {possessive(active)} turn ends: play an Impulse, "
            "cycle, or pass."
        )
    if seat == view["active"]:
        return "Your Active phase: play cards, cycle, lay or use a barrier, or pass."
    return "You hold Opportunity in your opponent's turn: play an Impulse, cycle, or pass."
