"""ESPEERS on the shared play screen: the duel table put together, the hand, every prompt, the
end and the clicks (pure). Each duelist's side is drawn by duelist.py, the stack by stack.py.

What a seat sees comes from its view only (`games/espeers/views.py`: a `SeatView`, or a
`PublicView` for nobody's seat): its own hand face up and its own barrier card; the opponent's
hand as card backs and a count, its barrier face down. Legality is the engine's: the buttons
offered are exactly the seat's `legal_actions`, and a refused click gets the engine's sentence
(`play_problem`, `barrier_problem`, `attack_problem`). Every rule the screen explains, and every
number in it, comes from the game's words (`games/espeers/words.py`) or the engine; this module
only lays them out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour.games.espeers import stops, words
from parlour.games.espeers.actions import (
    Action,
    AssignDamage,
    BarrierAttack,
    Cycle,
    Discard,
    Mulligan,
    Pass,
    PlaceBarrier,
    Play,
    Predict,
)
from parlour.games.espeers.cards import CARDS, STARTER_DECKS
from parlour.games.espeers.state import (
    DECK_LABEL,
    EspeersState,
    declared_decks,
)
from parlour.games.espeers.views import (
    PublicView,
    SeatView,
    as_seat_view,
    is_seat_view,
    psi,
)
from parlour.numbers import whole
from parlour.ui.espeers.cards import card_face, card_label
from parlour.ui.espeers.controls import (
    HELP,
    assign_tree,
    barrier_row,
    card_actions,
    discard_bar,
    is_discarding,
    mulligan_tree,
    predict_tree,
    selected_card,
)
from parlour.ui.espeers.duelist import duelist
from parlour.ui.espeers.stack import stack_area
from parlour.ui.espeers.table import (
    hand_chip,
    last_mark,
    player_sentence,
    stack_sentence,
)
from parlour.ui.help import help_tip, with_help
from parlour.ui.seat import run_command
from parlour.ui.tree import Node, h
from parlour.ui.widgets import last_move_of

if TYPE_CHECKING:
    from parlour.ui.seat import Seat


@dataclass
class EspeersSelection:
    slot: int | None = None  # the card of the hand in focus (an index into the sorted hand)
    discard: list[int] = field(default_factory=list)  # slots chosen to discard at the end


def _under(state: EspeersState, seat: int, store: Any) -> str | None:
    """The card under a seat's barrier still standing, once its seal is opened (the final
    table; a replay's with everything shown)."""
    barrier = state.players[seat].barrier
    card = store.value(barrier.label) if barrier and store and barrier.label in store else None
    return (
        f" · under the barrier: {CARDS[card].name}"
        if isinstance(card, str) and card in CARDS
        else None
    )


def deck_name(choice: object, opened: object = None) -> str:
    """The deck a seat played, for the final table. `choice` is the set-up's word for it (a
    starter's id, card counts from the deck builder, or "sealed" online); `opened` is the seat's
    opened deck secret ({"cards": [...], ...}) once this device knows it."""
    if isinstance(choice, str) and choice in STARTER_DECKS:
        return STARTER_DECKS[choice]["name"]
    cards = opened.get("cards") if isinstance(opened, dict) else None
    if isinstance(cards, list):
        counts = Counter(c for c in cards if isinstance(c, str))
    elif isinstance(choice, dict):
        counts = Counter({c: n for c, n in choice.items() if isinstance(n, int) and n > 0})
    else:
        return "a sealed deck, not opened yet"
    for starter in STARTER_DECKS.values():
        if +Counter(starter["cards"]) == +counts:
            return starter["name"]
    size = sum(counts.values())
    return f"a deck of their own ({size} card{'s' if size != 1 else ''})"


class EspeersScreen:
    # the person's standing option, kept for their next game against the bot (saved_game.py)
    remembered = (stops.STANDING,)

    def new_selection(self) -> EspeersSelection:
        return EspeersSelection()

    def describe(self, before: EspeersState, seat: int, action: Action) -> str:
        return words.describe(before, seat, action)

    # -- words on screen -----------------------------------------------------------------

    def status(self, view: PublicView, viewer: int, you: int | None = None) -> str:
        return words.status(view, you)

    def seat_line(self, view: PublicView, seat: int) -> str:
        p = view["players"][seat]
        return f"PSI {psi(p)} · {p['hand']} in hand · deck {p['deck']}"

    # -- the table -----------------------------------------------------------------------

    def board(self, session: Seat, view: PublicView) -> Node:
        me = view["me"] if is_seat_view(view) else None
        bottom = me["seat"] if me else 0
        mark = last_mark(last_move_of(session.match, self), view)
        return h(
            "div",
            {"class": "duel" + (" seated" if me else ""), "data-role": "duel"},
            duelist(view, 1 - bottom, mine=False, mark=mark, far=True),
            stack_area(session, view, mark),
            duelist(
                view,
                bottom,
                mine=me is not None,
                mark=mark,
                far=False,
                extra=barrier_row(session, view) if is_seat_view(view) else None,
            ),
            self._hand(session, view) if is_seat_view(view) else None,
            self._stops_toggle(session),  # an option of the page, under the table
        )

    def describe_board(self, view: PublicView, viewer: int | None) -> list[str]:
        """The table in sentences, for "Describe the board": what a glance at it tells the seat
        on screen (its own hand and barrier card; of the other seat only what is public)."""
        seat_view = view if is_seat_view(view) else None
        me = seat_view["me"]["seat"] if seat_view else None
        sentences = [words.status(view)]
        order = (1 - me, me) if me is not None else (0, 1)
        for seat in order:
            sentences.append(player_sentence(view, seat, me))
        sentences.append(stack_sentence(view))
        if seat_view is not None:
            hand = seat_view["me"]["hand"]
            names = words.listed([CARDS[c].name for c in hand if c in CARDS])
            sentences.append(
                f"Your hand, {len(hand)} card{'s' if len(hand) != 1 else ''}: {names}."
                if hand
                else "Your hand is empty."
            )
        return sentences

    def _stops_toggle(self, session: Seat) -> Node | None:
        """One person against bots: the standing option (games/espeers/stops.py)."""
        seat = session.viewer
        if seat is None or not session.alone_with_bots():
            return None
        on = bool(session.notes_of(seat).get(stops.STANDING))
        button = h(
            "button",
            {
                "class": "button small toggle stops",
                "data-cmd": stops.STANDING,
                "type": "button",
                "aria-pressed": "true" if on else "false",
            },
            stops.STANDING_LABEL,
        )
        helped = with_help(button, f"espeers-{stops.STANDING}", "Passing", HELP[stops.STANDING])
        return h("div", {"class": "stops-row"}, helped)

    def auto_pass(
        self, state: EspeersState, seat: int, legal: list[Action], notes: dict
    ) -> Pass | None:
        """The pass the page plays for the person at `seat` (see `games/espeers/stops.py`),
        from that seat's own legal actions and its own option (in its notes)."""
        return stops.auto_pass(state, seat, legal, bool(notes.get(stops.STANDING)))

    def turn_words(self, view: PublicView, seat: int) -> str:
        """The chip of a person alone at the table: "Your turn" in their own turn only; in the
        other's turn, Opportunity is a chance to answer."""
        mine = view["active"] == seat or view["phase"] in ("setup", "mulligan")
        return "Your turn" if mine else "Your answer"

    def _hand(self, session: Seat, view: SeatView) -> Node:
        sel: EspeersSelection = session.selection
        hand = view["me"]["hand"]
        discarding = is_discarding(session, view)
        current = sel.slot if sel.slot is not None and sel.slot < len(hand) else 0
        buttons = []
        for slot, card in enumerate(hand):
            chosen = slot in sel.discard if discarding else slot == sel.slot
            buttons.append(
                h(
                    "button",
                    {
                        "class": "hand-card" + (" chosen" if chosen else ""),
                        "type": "button",
                        "data-cmd": "discard-pick" if discarding else "card",
                        "data-slot": slot,
                        # a card played or drawn takes out or puts in its own button alone; the
                        # others are matched by their card, not rewritten into their neighbour
                        "data-key": card,
                        "aria-pressed": "true" if chosen else "false",
                        "tabindex": "0" if slot == current else "-1",
                    },
                    # the name a reader hears is the card's words; the drawing says it again
                    h("span", {"class": "visually-hidden"}, card_label(card)),
                    h("span", {"aria-hidden": "true"}, card_face(card), hand_chip(card)),
                )
            )
        title = f"Your hand · {len(hand)} card{'s' if len(hand) != 1 else ''}"
        return h(
            "section",
            {"class": "hand", "aria-label": "Your hand"},
            h(
                "header",
                {"class": "hand-head"},
                h("h3", None, title),
                help_tip("espeers-hand", "your hand", HELP["hand"]),
            ),
            h(
                "div",
                {"class": "hand-cards", "data-roving": "hand", "data-role": "hand"},
                *buttons,
            )
            if buttons
            else h("p", {"class": "hint"}, "Your hand is empty."),
            discard_bar(session, view) if discarding else card_actions(session, view),
        )

    # -- the prompts beside the table ----------------------------------------------------

    def controls(self, session: Seat, view: SeatView) -> Node | None:
        legal = session.legal()
        if not legal:
            return None
        first = legal[0]
        if isinstance(first, Mulligan):
            return mulligan_tree(session, view, legal)
        if isinstance(first, Predict):
            return predict_tree(view)
        if isinstance(first, AssignDamage):
            return assign_tree(view, legal)
        # a discard is chosen on the hand itself, and your barrier's attack sits beside it
        return None

    # -- the end -------------------------------------------------------------------------

    def final_details(self, session: Seat) -> Node | None:
        """Both decks and hands, opened: the cards nobody saw during the game."""
        state: EspeersState = session.match.state
        decks = declared_decks(session.match.config.variant)
        rows = []
        for seat in (0, 1):
            store = session.opened(seat)
            hand = session.match.game.hand_of(state, seat, store) if store else []
            opened = store.value(DECK_LABEL) if store is not None and DECK_LABEL in store else None
            rows.append(
                h(
                    "tr",
                    None,
                    h("th", {"scope": "row"}, state.name(seat)),
                    h("td", None, deck_name(decks[seat], opened)),
                    h("td", None, str(state.players[seat].psi)),
                    h(
                        "td",
                        None,
                        ", ".join(CARDS[c].name for c in hand) or "—",
                        _under(state, seat, store),
                    ),
                )
            )
        return h(
            "table",
            {"class": "espeers-final", "data-role": "final"},
            h(
                "thead",
                None,
                h("tr", None, *(h("th", None, t) for t in ("Player", "Deck", "PSI", "Hand"))),
            ),
            h("tbody", None, *rows),
        )

    # -- clicks --------------------------------------------------------------------------

    def handle(self, session: Seat, event: dict[str, Any]) -> str | None:
        if session.viewer is None:
            return None  # nobody's seat is on screen: nothing to click
        return run_command(COMMANDS, self, session, event)

    def _seat_view(self, session: Seat) -> SeatView:
        return as_seat_view(session.view())

    def _choose_card(self, session: Seat, event: dict) -> None:
        sel: EspeersSelection = session.selection
        slot = _int(event.get("slot"))
        sel.slot = None if slot == sel.slot else slot

    def _pick_discard(self, session: Seat, event: dict) -> None:
        sel: EspeersSelection = session.selection
        slot = _int(event.get("slot"))
        if slot is None:
            return
        if slot in sel.discard:
            sel.discard.remove(slot)
        else:
            sel.discard.append(slot)

    def _with_card(self, session: Seat, event: dict) -> str | None:
        card = selected_card(session, self._seat_view(session))
        return self._card_command(session, event["cmd"], card)

    def _pass(self, session: Seat, _event: dict) -> None:
        session.act(Pass())

    def _toggle_standing(self, session: Seat, _event: dict) -> None:
        notes = session.notes_of(session.viewer)
        notes[stops.STANDING] = not notes.get(stops.STANDING)
        session.run_stops()

    def _keep_or_mulligan(self, session: Seat, event: dict) -> None:
        session.act(Mulligan(event["cmd"] == "keep"))

    def _predict(self, session: Seat, event: dict) -> None:
        session.act(Predict(event.get("symbol")))

    def _predict_none(self, session: Seat, _event: dict) -> None:
        session.act(Predict(None))

    def _assign(self, session: Seat, event: dict) -> str | None:
        return self._assign_command(session, self._seat_view(session), _int(event.get("amount")))

    def _discard(self, session: Seat, _event: dict) -> str | None:
        return self._discard_command(session, self._seat_view(session))

    def _card_command(self, session: Seat, cmd: str, card: str | None) -> str | None:
        if card is None:
            return "Choose a card from your hand first."
        if cmd == "play":
            problem = session.match.game.play_problem(session.match.state, session.viewer, card)
            if problem:
                return problem
            session.act(Play(card))
        elif cmd == "cycle":
            session.act(Cycle(card))
        else:
            problem = session.match.game.barrier_problem(session.match.state, session.viewer)
            if problem:
                return problem
            session.act(PlaceBarrier(card))
        return None

    def _attack(self, session: Seat, _event: dict) -> str | None:
        attack = next((a for a in session.legal() if isinstance(a, BarrierAttack)), None)
        if attack is None:
            problem = session.match.game.attack_problem(session.match.state, session.viewer)
            return problem or "Your barrier cannot attack now."
        session.act(attack)
        return None

    def _assign_command(self, session: Seat, view: SeatView, from_pool: int | None) -> str | None:
        pending = view["pending"]
        if pending is None or pending["kind"] != "assign" or from_pool is None:
            return "There is no damage to take now."
        session.act(AssignDamage(from_pool, pending["amount"] - from_pool))
        return None

    def _discard_command(self, session: Seat, view: SeatView) -> str | None:
        pending = view["pending"]
        if pending is None or not is_discarding(session, view):
            return "There is nothing to discard now."
        hand = view["me"]["hand"]
        chosen = [hand[i] for i in sorted(set(session.selection.discard)) if 0 <= i < len(hand)]
        need = pending["amount"]
        if len(chosen) != need:
            return f"Choose exactly {need} card{'s' if need > 1 else ''} to discard."
        session.act(Discard(tuple(sorted(chosen))))
        return None


# -- small pieces ------------------------------------------------------------------------------


def _int(text: object) -> int | None:
    return whole(text)  # the one integer parser: "²" or "٣" is not a number here


# ESPEERS's clicks: each command the screen draws (`data-cmd`).
COMMANDS: dict[str, Callable[[EspeersScreen, Seat, dict], str | None]] = {
    "card": EspeersScreen._choose_card,
    "discard-pick": EspeersScreen._pick_discard,
    "play": EspeersScreen._with_card,
    "cycle": EspeersScreen._with_card,
    "barrier": EspeersScreen._with_card,
    "pass": EspeersScreen._pass,
    stops.STANDING: EspeersScreen._toggle_standing,
    "attack": EspeersScreen._attack,
    "keep": EspeersScreen._keep_or_mulligan,
    "mulligan": EspeersScreen._keep_or_mulligan,
    "predict": EspeersScreen._predict,
    "predict-none": EspeersScreen._predict_none,
    "assign": EspeersScreen._assign,
    "discard": EspeersScreen._discard,
}
