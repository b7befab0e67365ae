"""ESPEERS on the shared play screen: the duel table, the stack, the hand and every prompt (pure).

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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour.games.base import capital, whose
from parlour.games.espeers import stops, words
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
from parlour.games.espeers.cards import CARDS, STARTER_DECKS
from parlour.games.espeers.state import (
    DECK_LABEL,
    EspeersState,
    declared_decks,
    ends_active_phase,
)
from parlour.games.espeers.views import (
    PlayerView,
    PublicView,
    SeatView,
    as_seat_view,
    is_seat_view,
    psi,
)
from parlour.games.zener import SYMBOLS
from parlour.numbers import whole
from parlour.ui.espeers_cards import card_back, card_face, card_label
from parlour.ui.help import help_tip, with_help
from parlour.ui.tree import Node, h, s
from parlour.ui.widgets import last_move_of, you_of
from parlour.ui.zener_art import symbol_icon

if TYPE_CHECKING:
    from parlour.ui.seat import Seat

MAX_BACKS = 7  # card backs drawn for a hand; the count says the rest

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
        f"Lays the card face down with {words.BARRIER_PSI} PSI from your Pool on it: it absorbs "
        "damage to you, and your opponent may guess its symbol to discard it."
    ),
    "attack": (
        f"Discards your barrier, face up, to deal {words.ATTACK_DAMAGE} damage to your opponent."
    ),
    "pass": (
        "Gives Opportunity to the other player: two passes in a row resolve the top card of the "
        "stack, and a pass on an empty stack ends the phase or the turn."
    ),
    stops.THEIR_TURN: (
        "Without it the page passes for you whenever you have nothing to play and nothing "
        "worth cycling; with it, also in the other player's turn whenever their stack is empty. "
        "Each pass is in the log."
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
        mark = last_mark(last_move_of(session), view)
        return h(
            "div",
            {"class": "duel" + (" seated" if me else ""), "data-role": "duel"},
            self._duelist(view, 1 - bottom, mine=False, mark=mark, far=True),
            self._stack(session, view, mark),
            self._duelist(
                view,
                bottom,
                mine=me is not None,
                mark=mark,
                far=False,
                extra=self._barrier_row(session, view) if is_seat_view(view) else None,
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
            sentences.append(_player_sentence(view, seat, me))
        sentences.append(_stack_sentence(view))
        if seat_view is not None:
            hand = seat_view["me"]["hand"]
            names = words.listed([CARDS[c].name for c in hand if c in CARDS])
            sentences.append(
                f"Your hand, {len(hand)} card{'s' if len(hand) != 1 else ''}: {names}."
                if hand
                else "Your hand is empty."
            )
        return sentences

    def _duelist(
        self,
        view: PublicView,
        seat: int,
        mine: bool,
        mark: Mark | None = None,
        far: bool = False,
        extra: Node | None = None,
    ) -> Node:
        p = view["players"][seat]
        here = mark if mark is not None and mark.seat == seat else None
        badges = [
            h("span", {"class": "badge active"}, "Active") if view["active"] == seat else None,
            h("span", {"class": "badge opportunity"}, "Opportunity")
            if view["opportunity"] == seat and _in_play(view)
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
                _tag(here) if here and here.place == "duelist" else None,
            ),
            psi_meter(p, _tag(here) if here and here.place == "psi" else None),
            h(
                "div",
                {"class": "zones"},
                self._barrier(view, seat, mine, here if here and here.place == "barrier" else None),
                None if mine else _backs(p["hand"]),
                _pile("Deck", p["deck"], card_back("small") if p["deck"] else None),
                _discard(p["discard"], here if here and here.place == "discard" else None),
            ),
            extra,
        )

    def _barrier(self, view: PublicView, seat: int, mine: bool, mark: Mark | None = None) -> Node:
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
            f"Your barrier: {words.barrier_words(card, barrier['points'])} Face down to your "
            "opponent."
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
            _tag(mark),
            art,
            h("span", {"class": "zone-label"}, "Barrier · ", points),
            h("span", {"class": "visually-hidden"}, f" {hint}"),
        )

    def _stack(self, session: Seat, view: PublicView, mark: Mark | None = None) -> Node:
        names = [p["name"] for p in view["players"]]
        items = []
        for index, item in enumerate(view["stack"]):
            here = (
                mark if mark is not None and mark.place == "stack" and mark.index == index else None
            )
            css = "stack-card" + (" countered" if item["countered"] else "")
            items.append(
                h(
                    "li",
                    {"class": css + (" last-move" if here else ""), "data-card": item["card"]},
                    _tag(here),
                    card_face(item["card"]),
                    hand_chip(item["card"]),
                    h(
                        "span",
                        {"class": "stack-owner"},
                        capital(whose(names, item["owner"], you_of(session))),
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
        if _in_play(view) and view["pending"] is None:
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
            self._pass_button(session, view),
        )

    def _stops_toggle(self, session: Seat) -> Node | None:
        """One person against bots: the option to let the page pass in the other's turn."""
        seat = session.viewer
        if seat is None or not session.alone_with_bots():
            return None
        on = bool(session.notes_of(seat).get(stops.THEIR_TURN))
        button = h(
            "button",
            {
                "class": "button small stops",
                "data-cmd": stops.THEIR_TURN,
                "type": "button",
                "aria-pressed": "true" if on else "false",
            },
            stops.THEIR_TURN_LABEL,
        )
        helped = with_help(button, f"espeers-{stops.THEIR_TURN}", "Passing", HELP[stops.THEIR_TURN])
        return h("div", {"class": "stops-row"}, helped)

    def auto_pass(self, session: Seat, state: EspeersState, seat: int) -> Pass | None:
        """The pass the page plays for the person at `seat` (see `games/espeers/stops.py`),
        from that seat's own legal actions and its own option."""
        legal = session.game.legal_actions(state, seat, session.table.stores.get(seat))
        their_turn = bool(session.notes_of(seat).get(stops.THEIR_TURN))
        return stops.auto_pass(state, seat, legal, their_turn)

    def turn_words(self, view: PublicView, seat: int) -> str:
        """The chip of a person alone at the table: "Your turn" in their own turn only; in the
        other's turn, Opportunity is a chance to answer."""
        mine = view["active"] == seat or view["phase"] in ("setup", "mulligan")
        return "Your turn" if mine else "Your answer"

    def _pass_button(self, session: Seat, view: PublicView) -> Node | None:
        viewer = session.viewer
        if viewer is None or not any(isinstance(a, Pass) for a in self._legal(session)):
            return None
        state: EspeersState = session.table.state
        button = h(
            "button",
            {"class": "button primary pass", "data-cmd": "pass", "type": "button"},
            "Pass ",
            h("span", {"class": "pass-effect"}, f"({words.pass_effect(state, viewer)})"),
        )
        return with_help(button, "espeers-pass", "Pass", HELP["pass"])

    def _hand(self, session: Seat, view: SeatView) -> Node:
        sel: EspeersSelection = session.selection
        hand = view["me"]["hand"]
        discarding = self._discarding(session, view)
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
            self._discard_bar(session, view) if discarding else self._card_actions(session, view),
        )

    # -- what the selected card can do ---------------------------------------------------

    def _legal(self, session: Seat) -> list[Action]:
        return session.table.legal(session.viewer) if session.viewer is not None else []

    def _selected(self, session: Seat, view: PublicView) -> str | None:
        slot = session.selection.slot
        hand = view["me"]["hand"] if is_seat_view(view) else []
        return hand[slot] if slot is not None and 0 <= slot < len(hand) else None

    def _card_actions(self, session: Seat, view: SeatView) -> Node:
        card = self._selected(session, view)
        if card is None:
            legal = self._legal(session)
            if any(isinstance(a, PlaceBarrier) for a in legal):
                hint = "Choose a card to play, cycle or lay as a barrier."
            elif self._holds_opportunity(session, view):
                hint = "Choose a card to play or cycle."
            else:
                hint = "Choose a card to read it."
            return h("p", {"class": "hint card-actions"}, hint)
        legal = self._legal(session)
        info = CARDS[card]
        buttons = []
        if Play(card) in legal:
            buttons.append(_helped("play", f"Play · {info.cost} PSI", primary=True))
        if Cycle(card) in legal:
            buttons.append(_helped("cycle", f"Cycle: {words.cycle_words(card)}"))
        if PlaceBarrier(card) in legal:
            buttons.append(_helped("barrier", words.LAY_BARRIER))
        why = self._why_not(session, view, card, legal)
        return h(
            "div",
            {"class": "card-actions", "data-role": "card-actions"},
            h("p", {"class": "card-title"}, h("strong", None, info.name), f" — {info.printed()}"),
            h("div", {"class": "choice"}, *buttons) if buttons else None,
            h("p", {"class": "hint"}, why) if why else None,
        )

    def _why_not(self, session: Seat, view: SeatView, card: str, legal: list[Action]) -> str:
        if not self._holds_opportunity(session, view):
            return words.ACT_ONLY_WITH_OPPORTUNITY
        if Play(card) not in legal:
            game = session.game
            return game.play_problem(session.table.state, session.viewer, card) or ""
        return ""

    def _holds_opportunity(self, session: Seat, view: PublicView) -> bool:
        return any(isinstance(a, (Pass, Cycle)) for a in self._legal(session))

    def _discarding(self, session: Seat, view: PublicView) -> bool:
        pending = view["pending"]
        return (
            pending is not None
            and pending["kind"] == "discard"
            and pending["seat"] == session.viewer
        )

    def _discard_bar(self, session: Seat, view: SeatView) -> Node:
        pending = view["pending"]
        need = pending["amount"] if pending else 0
        chosen = len(session.selection.discard)
        return h(
            "div",
            {"class": "card-actions", "data-role": "card-actions"},
            h("p", None, words.discard_prompt(need, chosen)),
            _helped("discard", f"Discard {chosen} card{'s' if chosen != 1 else ''}", primary=True),
        )

    # -- the prompts beside the table ----------------------------------------------------

    def controls(self, session: Seat, view: SeatView) -> Node | None:
        legal = self._legal(session)
        if not legal:
            return None
        first = legal[0]
        if isinstance(first, Mulligan):
            return self._mulligan(session, view, legal)
        if isinstance(first, Predict):
            return self._predict(view)
        if isinstance(first, AssignDamage):
            return self._assign(view, legal)
        # a discard is chosen on the hand itself, and your barrier's attack sits beside it
        return None

    def _mulligan(self, session: Seat, view: SeatView, legal: list[Action]) -> Node:
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
                _helped("keep", "Keep this hand", primary=True),
                _helped("mulligan", f"Mulligan ({cost})") if Mulligan(False) in legal else None,
            ),
        )

    def _predict(self, view: SeatView) -> Node:
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
            _helped("predict-none", "No guess"),
        )

    def _assign(self, view: SeatView, legal: list[Action]) -> Node:
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
                _split_words(a),
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

    def _barrier_row(self, session: Seat, view: SeatView) -> Node | None:
        """Your barrier's own control, beside it on the table: the attack, when it may."""
        me = view["me"]["seat"]
        if view["players"][me]["barrier"] is None:
            return None
        legal = self._legal(session)
        if not any(isinstance(a, BarrierAttack) for a in legal):
            return None
        return h("div", {"class": "barrier-row"}, _helped("attack", words.BARRIER_ATTACK))

    # -- the end -------------------------------------------------------------------------

    def final_details(self, session: Seat) -> Node | None:
        """Both decks and hands, opened: the cards nobody saw during the game."""
        table = session.table
        state: EspeersState = table.state
        decks = declared_decks(table.match.config.variant)
        rows = []
        for seat in (0, 1):
            store = session.store_of(seat)
            hand = session.game.hand_of(state, seat, store) if store else []
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

    def handle(self, session: Seat, event: dict[str, Any]) -> None:
        if session.viewer is None:
            return  # nobody's seat is on screen: nothing to click
        cmd = event.get("cmd")
        sel: EspeersSelection = session.selection
        view = as_seat_view(session.table.view(session.viewer))
        card = self._selected(session, view)
        slot = _int(event.get("slot"))
        if cmd == "card":
            sel.slot = None if slot == sel.slot else slot
        elif cmd == "discard-pick" and slot is not None:
            if slot in sel.discard:
                sel.discard.remove(slot)
            else:
                sel.discard.append(slot)
        elif cmd in ("play", "cycle", "barrier"):
            self._card_command(session, cmd, card)
        elif cmd == "pass":
            session.act(Pass())
        elif cmd == stops.THEIR_TURN:
            notes = session.notes_of(session.viewer)
            notes[stops.THEIR_TURN] = not notes.get(stops.THEIR_TURN)
            session.run_stops()
        elif cmd == "attack":
            self._attack(session)
        elif cmd in ("keep", "mulligan"):
            session.act(Mulligan(cmd == "keep"))
        elif cmd == "predict":
            session.act(Predict(event.get("symbol")))
        elif cmd == "predict-none":
            session.act(Predict(None))
        elif cmd == "assign":
            self._assign_command(session, view, _int(event.get("amount")))
        elif cmd == "discard":
            self._discard_command(session, view)

    def _card_command(self, session: Seat, cmd: str, card: str | None) -> None:
        if card is None:
            session.message = "Choose a card from your hand first."
            return
        if cmd == "play":
            problem = session.game.play_problem(session.table.state, session.viewer, card)
            if problem:
                session.message = problem
                return
            session.act(Play(card))
        elif cmd == "cycle":
            session.act(Cycle(card))
        else:
            problem = session.game.barrier_problem(session.table.state, session.viewer)
            if problem:
                session.message = problem
                return
            session.act(PlaceBarrier(card))

    def _attack(self, session: Seat) -> None:
        attack = next((a for a in self._legal(session) if isinstance(a, BarrierAttack)), None)
        if attack is None:
            problem = session.game.attack_problem(session.table.state, session.viewer)
            session.message = problem or "Your barrier cannot attack now."
            return
        session.act(attack)

    def _assign_command(self, session: Seat, view: SeatView, from_pool: int | None) -> None:
        pending = view["pending"]
        if pending is None or pending["kind"] != "assign" or from_pool is None:
            session.message = "There is no damage to take now."
            return
        session.act(AssignDamage(from_pool, pending["amount"] - from_pool))

    def _discard_command(self, session: Seat, view: SeatView) -> None:
        pending = view["pending"]
        if pending is None or not self._discarding(session, view):
            session.message = "There is nothing to discard now."
            return
        hand = view["me"]["hand"]
        chosen = [hand[i] for i in sorted(set(session.selection.discard)) if 0 <= i < len(hand)]
        need = pending["amount"]
        if len(chosen) != need:
            session.message = f"Choose exactly {need} card{'s' if need > 1 else ''} to discard."
            return
        session.act(Discard(tuple(sorted(chosen))))


# -- small pieces ------------------------------------------------------------------------------


def _in_play(view: PublicView) -> bool:
    """Opportunity means something: the Active phase or the End of a turn, game not yet over."""
    return view["phase"] in ("active", "end") and view["outcome"] is None


def _int(text: object) -> int | None:
    return whole(text)  # the one integer parser: "²" or "٣" is not a number here


def _button(cmd: str, label: str, primary: bool = False) -> Node:
    css = "button primary" if primary else "button"
    return h("button", {"class": css, "data-cmd": cmd, "type": "button"}, label)


def _helped(cmd: str, label: str, primary: bool = False) -> Node:
    """A control of the game with its "?" (HELP[cmd]), so a newcomer can ask what it does."""
    return with_help(_button(cmd, label, primary), f"espeers-{cmd}", label, HELP[cmd])


# -- the last move, marked on the table ---------------------------------------------------------


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
        return _in_discard(view, seat, action.card, "Just cycled")
    if isinstance(action, Pass):
        if not ends_active_phase(before, seat) and before.passes == 1 and before.stack:
            top = before.stack[-1]
            said = "Resolved, countered" if top.countered else "Just resolved"
            return _in_discard(view, top.owner, top.card, said)
        return Mark("duelist", seat, "Passed")
    if isinstance(action, PlaceBarrier):
        return Mark("barrier", seat, "Just laid") if players[seat]["barrier"] else None
    if isinstance(action, BarrierAttack):
        return _in_discard(view, seat, action.opening.value, "Attacked with")
    if isinstance(action, RevealBarrier):
        return _in_discard(view, seat, action.opening.value, "Absorbed damage")
    if isinstance(action, AnswerPrediction):
        if action.right and action.opening is not None:
            return _in_discard(view, seat, action.opening.value, "Guessed right")
        return Mark("barrier", seat, "Guess missed") if players[seat]["barrier"] else None
    if isinstance(action, Predict):
        said = f"Guessed: {action.symbol}" if action.symbol else "No guess"
        return Mark("barrier", 1 - seat, said) if players[1 - seat]["barrier"] else None
    if isinstance(action, AssignDamage):
        return Mark("psi", seat, f"Took {action.from_pool + action.from_spent} damage")
    if isinstance(action, Discard) and action.cards:
        return _in_discard(view, seat, action.cards[-1], "Just discarded")
    if isinstance(action, Mulligan):
        return Mark("duelist", seat, "Kept the hand" if action.keep else "Took a mulligan")
    return None


def _in_discard(view: PublicView, seat: int, card: object, said: str) -> Mark | None:
    """Mark a discard pile, naming the card when it is not the one on top."""
    pile = view["players"][seat]["discard"]
    if not isinstance(card, str) or card not in pile:
        return None
    if pile[-1] != card and card in CARDS:
        said = f"{said}: {CARDS[card].name}"
    return Mark("discard", seat, said)


def _tag(mark: Mark | None) -> Node | None:
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


def _player_sentence(view: PublicView, seat: int, me: int | None) -> str:
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


def _stack_sentence(view: PublicView) -> str:
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


def _split_words(action: AssignDamage) -> str:
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


def _backs(count: int) -> Node:
    backs = [card_back("small") for _ in range(min(count, MAX_BACKS))]
    return h(
        "div",
        {"class": "zone hand-backs", "data-role": "hand-backs", "title": f"{count} cards in hand"},
        h("div", {"class": "fan"}, *backs) if backs else h("span", {"class": "slot-empty"}, "—"),
        h("span", {"class": "zone-label"}, f"Hand · {count}"),
    )


def _pile(label: str, count: int, art: Node | None) -> Node:
    return h(
        "div",
        {"class": "zone pile", "data-role": label.lower()},
        art if art is not None else h("span", {"class": "slot-empty"}, "empty"),
        h("span", {"class": "zone-label"}, f"{label} · {count}"),
    )


def _discard(cards: list[str], mark: Mark | None = None) -> Node:
    """The discard pile: its top card, drawn and named in words (a small card's own print is
    too fine to read on a phone), and every card in it, newest first, behind "All"."""
    top = card_face(cards[-1], "small") if cards else None
    pile = _pile("Discard", len(cards), top)
    if mark is not None:
        pile.attrs["class"] += " last-move"
        pile.children.insert(0, _tag(mark))
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
