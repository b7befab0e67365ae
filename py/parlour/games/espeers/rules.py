"""ESPEERS's rules (playtest rules with the project's rulings, and its own card pool): who acts,
what is legal, and what each action does to the state (pure).

The game is split by concern, and this module is only the rules:
- `cards.py` and `cards.json`: the card pool, the starter decks, what makes a deck legal;
- `state.py`: the game's numbers and the state every device agrees on;
- `actions.py`: the actions and their JSON in the match log;
- `start.py`: decks sealed, opening hands, mulligans; `resolve.py`: a card resolving, its
  effects, damage and draws; `decisions.py`: what a decision the game waits for does;
- `hands.py`: each seat's hand replayed from its deck and the public events, and the audit;
- `views.py`: what a seat sees (typed), `words.py`: the game in sentences.

Hidden information and how it stays honest:
- Each seat's deck (its 30 cards and a private seed) is committed at set-up. Its order is
  SHA-256(private seed, public seed, mulligans): the owner committed before the public seed was
  known, so cannot stack the deck; the opponent never sees the private seed, so cannot know it.
- Draws stay private: the public state only counts cards. A card becomes public when it is
  played, cycled or discarded; a barrier is a committed card until it is discarded.
- Every event that touches a hand is recorded publicly (`events`), so the audit at the end can
  open both decks, deal them again, and check that every card played, cycled, discarded or put
  under a barrier was really in that hand, and that every barrier prediction was answered truly.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations

from parlour.errors import IllegalAction
from parlour.fair.commit import commitment_of
from parlour.fair.encoding import Json
from parlour.fair.rng import Rng
from parlour.fair.store import PrivateStore
from parlour.games.base import Game, Outcome, Sealed, Setup
from parlour.games.espeers import views
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
    SealDeck,
    action_to_json,
    parse_action,
)
from parlour.games.espeers.cards import CARDS, CYCLING, deck_problem, resolve_deck
from parlour.games.espeers.decisions import decide, end_active, show_barrier
from parlour.games.espeers.hands import check_hands, replay_hand
from parlour.games.espeers.options import DEFAULT_DECKS, OPTIONS
from parlour.games.espeers.resolve import add_event, damage, draw, effect, resolve_top, set_player
from parlour.games.espeers.start import mulligan, seal_deck
from parlour.games.espeers.state import (
    ATTACK_DAMAGE,
    BARRIER_PSI,
    DECK_LABEL,
    DECK_SEED_BYTES,
    HAND,
    SEALED,
    Barrier,
    EspeersState,
    Pending,
    Player,
    StackItem,
    barrier_label,
    declared_decks,
    ends_active_phase,
    mulligan_cost,
)
from parlour.games.espeers.words import KIND_WHEN
from parlour.games.zener import Symbol

# -- the game ---------------------------------------------------------------------------------


class Espeers(Game[EspeersState, Action]):
    options = OPTIONS  # its id, name and seat counts too (Game.__init_subclass__)

    def check_setup(self, setup: Setup) -> None:
        super().check_setup(setup)
        decks = declared_decks(setup.variant)
        if not isinstance(decks, list) or len(decks) != 2:
            raise IllegalAction("Each of the two players brings one deck.")
        for deck in decks:
            if deck == SEALED:
                continue  # the player's own deck, sealed on their device: checked at the end
            try:
                problem = deck_problem(resolve_deck(deck))
            except ValueError:
                problem = "That deck is not one Psi Parlour knows."
            if problem:
                raise IllegalAction(problem)

    def initial_state(self, setup: Setup, seed: bytes) -> EspeersState:
        self.check_setup(setup)
        first = Rng(seed).derive("espeers:first").below(2)
        return EspeersState(
            setup, seed, (Player(), Player()), first=first, active=first, opportunity=first
        )

    def deal(
        self,
        setup: Setup,
        seats: Sequence[int],
        shared: Mapping[int, Mapping[str, str]] | None = None,
        private: Mapping[int, Mapping[str, Json]] | None = None,
    ) -> dict[int, dict[str, Json]]:
        """Each seat's deck with a fresh private seed, committed on its own device."""
        decks = declared_decks(setup.variant)
        dealt: dict[int, dict[str, Json]] = {}
        for seat in seats:
            choice = decks[seat]
            if choice == SEALED:  # online: the deck this device's player chose, never shown
                choice = (private or {}).get(seat, {}).get("deck", DEFAULT_DECKS[seat])
            try:
                cards = resolve_deck(choice)  # may be a damaged choice kept on this device
            except ValueError:
                raise IllegalAction("That deck is not one Psi Parlour knows.") from None
            problem = deck_problem(cards)
            if problem:
                raise IllegalAction(problem)
            dealt[seat] = {DECK_LABEL: {"cards": cards, "seed": secrets.token_hex(DECK_SEED_BYTES)}}
        return dealt

    def dealt_labels(self, setup: Setup, seat: int) -> frozenset[str]:
        return frozenset({DECK_LABEL})

    # -- who acts ----------------------------------------------------------------------------

    def to_move(self, state: EspeersState) -> frozenset[int]:
        if state.outcome is not None:
            return frozenset()
        if state.phase == "setup":
            return frozenset(s for s in (0, 1) if state.sealed[s] is None)
        if state.pending is not None:
            return frozenset({state.pending.seat})
        if state.phase == "mulligan":
            order = (state.first, 1 - state.first)
            return frozenset({next(s for s in order if s not in state.mulligan_done)})
        return frozenset({state.opportunity})

    # -- private knowledge: a seat's own hand ------------------------------------------------

    def hand_of(self, state: EspeersState, seat: int, store: PrivateStore | None) -> list[str]:
        """The seat's hand, rebuilt from its own deck and the public events."""
        if store is None or DECK_LABEL not in store:
            return []
        return replay_hand(store.value(DECK_LABEL), state.seed, state.events, seat, store)

    # -- legal choices -----------------------------------------------------------------------

    def legal_actions(
        self, state: EspeersState, seat: int, store: PrivateStore | None
    ) -> list[Action]:
        if seat not in self.to_move(state):
            return []
        auto = self.auto_action(state, seat, store)
        if auto is not None:
            return [auto]
        if state.phase == "setup":
            return []  # only the seat's own device can seal its deck
        pending = state.pending
        if pending is not None:
            return self._pending_choices(state, seat, pending, store)
        me = state.players[seat]
        if state.phase == "mulligan":
            keep: list[Action] = [Mulligan(True)]
            return keep + ([Mulligan(False)] if self.mulligan_cost(state, seat) <= me.pool else [])
        hand = self.hand_of(state, seat, store)
        actions: list[Action] = [Pass()]
        for card in sorted(set(hand)):
            if self.play_problem(state, seat, card) is None:
                actions.append(Play(card))
            actions.append(Cycle(card))
        if self.barrier_problem(state, seat) is None:
            actions += [PlaceBarrier(card) for card in sorted(set(hand))]
        if me.barrier is not None and self.attack_problem(state, seat) is None and store:
            label = me.barrier.label
            if label in store:
                actions.append(BarrierAttack(store.opening(label)))
        return actions

    def _pending_choices(
        self, state: EspeersState, seat: int, pending: Pending, store: PrivateStore | None
    ) -> list[Action]:
        me = state.players[seat]
        choices: list[Action] = []
        if pending.kind == "predict":
            choices.append(Predict(None))
            choices += [Predict(s.value) for s in Symbol]
        elif pending.kind == "assign":
            n = pending.amount
            choices += [
                AssignDamage(p, n - p) for p in range(n + 1) if p <= me.pool and n - p <= me.spent
            ]
        elif pending.kind == "discard":
            hand = sorted(self.hand_of(state, seat, store))
            picks = dict.fromkeys(combinations(hand, me.hand - HAND)) if hand else {}
            choices += [Discard(cards) for cards in picks]
        return choices

    def auto_action(
        self, state: EspeersState, seat: int, store: PrivateStore | None
    ) -> Action | None:
        """Sealing the deck, answering a prediction and showing a used barrier need no choice."""
        if seat not in self.to_move(state) or store is None or DECK_LABEL not in store:
            return None
        if state.phase == "setup":
            return SealDeck(commitment_of(store.context, store.opening(DECK_LABEL)))
        pending = state.pending
        barrier = state.players[seat].barrier
        if pending is None or barrier is None or barrier.label not in store:
            return None
        opening = store.opening(barrier.label)
        if pending.kind == "answer":
            right = CARDS[opening.value].symbol == state.prediction
            return AnswerPrediction(right, opening if right else None)
        if pending.kind == "reveal-barrier":
            return RevealBarrier(opening)
        return None

    def automatic(self, state: EspeersState, seat: int) -> bool:
        if seat not in self.to_move(state):
            return False
        pending = state.pending
        return state.phase == "setup" or (
            pending is not None and pending.kind in ("answer", "reveal-barrier")
        )

    def mulligan_cost(self, state: EspeersState, seat: int) -> int:
        """The PSI `seat`'s next mulligan costs: the first is free, each further one costs
        MULLIGAN_PSI."""
        return mulligan_cost(state.players[seat].mulligans)

    def play_problem(self, state: EspeersState, seat: int, card: str) -> str | None:
        info = CARDS.get(card)
        if info is None:
            return "There is no such card."
        when = f"PK cards are played {KIND_WHEN['PK']}."
        if info.kind == "PK" and seat != state.active:
            return when
        if info.kind == "PK" and state.phase != "active":
            return f"Your Active phase is over: {when}"
        if info.cost > state.players[seat].pool:
            return f"{info.name} costs {info.cost} PSI; your Pool has {state.players[seat].pool}."
        return None

    def barrier_problem(self, state: EspeersState, seat: int) -> str | None:
        me = state.players[seat]
        if seat != state.active or state.phase != "active" or state.stack:
            return "A barrier goes down in your own Active phase, with nothing on the stack."
        if me.barrier is not None:
            return "You already have a barrier."
        if me.pool < BARRIER_PSI:
            return f"A barrier needs {BARRIER_PSI} PSI from your Pool."
        if me.hand < 1:
            return "A barrier needs a card from your hand."
        return None

    def attack_problem(self, state: EspeersState, seat: int) -> str | None:
        barrier = state.players[seat].barrier
        if seat != state.active or state.phase != "active" or state.stack:
            return "A barrier attacks in your own Active phase, with nothing on the stack."
        if barrier is None:
            return "You have no barrier."
        if barrier.placed_turn >= state.turn:
            return "A barrier can attack only in a later turn than the one it went down."
        return None

    # -- apply -------------------------------------------------------------------------------

    def seal(self, state: EspeersState, seat: int, action: Action, store: PrivateStore) -> Action:
        """On the seat's own device: refuse a card the hand does not hold (a peer's engine cannot
        see the hand; the audit catches it there), and seal a barrier card face down."""
        missing = self.missing_cards(state, seat, action, store)
        if missing:
            raise IllegalAction(f"You do not hold {CARDS[missing].name}.")
        if isinstance(action, PlaceBarrier) and action.card is not None:
            label = barrier_label(state.players[seat].barriers_made)
            return PlaceBarrier(None, store.commit(label, action.card, replace=True))
        return action

    def missing_cards(
        self, state: EspeersState, seat: int, action: Action, store: PrivateStore
    ) -> str | None:
        """The first card `action` takes from the hand that the hand does not hold."""
        if isinstance(action, (Play, Cycle, PlaceBarrier)) and action.card is not None:
            wanted = [action.card]
        elif isinstance(action, Discard):
            wanted = list(action.cards)
        else:
            return None
        short = Counter(wanted) - Counter(self.hand_of(state, seat, store))
        return next((card for card in short if card in CARDS), None)

    def apply(self, state: EspeersState, seat: int, action: Action) -> EspeersState:
        if seat not in self.to_move(state):
            if state.outcome is not None:
                raise IllegalAction("The game is over.")
            raise IllegalAction(f"It is not {state.name(seat)}'s move.")
        state = replace(state, ply=state.ply + 1)
        if state.phase == "setup":
            if not isinstance(action, SealDeck):
                raise IllegalAction("First both players seal their decks.")
            return seal_deck(state, seat, action)
        if state.pending is not None:
            return decide(state, seat, action)
        if state.phase == "mulligan":
            if not isinstance(action, Mulligan):
                raise IllegalAction(f"{state.name(seat)} keeps this hand or takes a mulligan.")
            return mulligan(state, seat, action.keep)
        if isinstance(action, Play):
            return self._play(state, seat, action)
        if isinstance(action, Cycle):
            return self._cycle(state, seat, action)
        if isinstance(action, Pass):
            return self._pass(state, seat)
        if isinstance(action, PlaceBarrier):
            return self._place_barrier(state, seat, action)
        if isinstance(action, BarrierAttack):
            return self._barrier_attack(state, seat, action)
        raise IllegalAction("That cannot be done now.")

    # playing

    def _play(self, state: EspeersState, seat: int, action: Play) -> EspeersState:
        problem = self.play_problem(state, seat, action.card)
        if problem:
            raise IllegalAction(problem)
        me = state.players[seat]
        if me.hand < 1:
            raise IllegalAction("Your hand is empty.")
        info = CARDS[action.card]
        state = set_player(
            state, seat, pool=me.pool - info.cost, spent=me.spent + info.cost, hand=me.hand - 1
        )
        state = add_event(state, seat, "play", action.card)
        return replace(
            state,
            stack=(*state.stack, StackItem(seat, action.card)),
            opportunity=1 - seat,
            passes=0,
        )

    def _cycle(self, state: EspeersState, seat: int, action: Cycle) -> EspeersState:
        info = CARDS.get(action.card)
        me = state.players[seat]
        if info is None or me.hand < 1:
            raise IllegalAction("Cycle a card from your hand.")
        state = set_player(state, seat, hand=me.hand - 1, discard=(*me.discard, action.card))
        state = add_event(state, seat, "cycle", action.card)
        ability = CYCLING[info.symbol]
        state = replace(state, passes=0)
        if ability is None:
            return state
        return effect(state, seat, *ability)

    def _pass(self, state: EspeersState, seat: int) -> EspeersState:
        """The Active player passing on an empty stack ends the Active phase (Discard, then End
        follow); any other pass hands Opportunity over, and the second pass in a row resolves
        the top card, or, in End with nothing on the stack, ends the turn."""
        if ends_active_phase(state, seat):
            return end_active(replace(state, passes=0))
        passes = state.passes + 1
        if passes < 2:
            return replace(state, passes=passes, opportunity=1 - seat)
        if state.stack:
            return resolve_top(replace(state, passes=0))
        return self._next_turn(replace(state, passes=0))

    # barriers

    def _place_barrier(self, state: EspeersState, seat: int, action: PlaceBarrier) -> EspeersState:
        problem = self.barrier_problem(state, seat)
        if problem:
            raise IllegalAction(problem)
        if action.commitment is None or action.card is not None:
            raise IllegalAction("A barrier card must be sealed face-down before it is placed.")
        me = state.players[seat]
        label = barrier_label(me.barriers_made)
        barrier = Barrier(action.commitment, label, state.turn, state.ply)
        state = set_player(
            state,
            seat,
            barrier=barrier,
            barriers_made=me.barriers_made + 1,
            pool=me.pool - BARRIER_PSI,
            hand=me.hand - 1,
        )
        state = add_event(state, seat, "barrier", label)
        return replace(state, pending=Pending("predict", 1 - seat), passes=0)

    def _barrier_attack(
        self, state: EspeersState, seat: int, action: BarrierAttack
    ) -> EspeersState:
        problem = self.attack_problem(state, seat)
        if problem:
            raise IllegalAction(problem)
        state = show_barrier(replace(state, passes=0), seat, action.opening)
        return damage(state, 1 - seat, ATTACK_DAMAGE)

    # the next turn

    def _next_turn(self, state: EspeersState) -> EspeersState:
        nxt = 1 - state.active
        state = set_player(state, state.active, shield=0)
        p = state.players[nxt]
        state = set_player(state, nxt, pool=p.pool + p.spent, spent=0, shield=0)  # Refresh
        state = replace(
            state, phase="active", active=nxt, opportunity=nxt, turn=state.turn + 1, passes=0
        )
        return draw(state, nxt, 1)  # Draw

    # -- results and views -------------------------------------------------------------------

    def result(self, state: EspeersState) -> Outcome | None:
        return state.outcome

    def public_view(self, state: EspeersState) -> views.PublicView:
        """What everybody may see (`views.PublicView`)."""
        return views.public_view(state, self.to_move(state))

    def seat_view(
        self, state: EspeersState, seat: int, store: PrivateStore | None
    ) -> views.SeatView:
        """The public view plus `seat`'s own hand and barrier card (`views.SeatView`)."""
        barrier = state.players[seat].barrier
        under = store.value(barrier.label) if barrier and store and barrier.label in store else None
        hand = self.hand_of(state, seat, store)
        return views.seat_view(self.public_view(state), seat, hand, under)

    def reveals(self, action: Action) -> bool:
        return not isinstance(action, (Pass, Predict, AssignDamage))

    # -- the log's JSON ----------------------------------------------------------------------

    def parse_action(self, data: Json) -> Action:
        return parse_action(data)

    def action_to_json(self, action: Action) -> Json:
        return action_to_json(action)

    # -- audit -------------------------------------------------------------------------------

    def sealed(self, state: EspeersState) -> list[Sealed]:
        out = [
            Sealed(seat, DECK_LABEL, c[0], c[1], "their deck")
            for seat, c in enumerate(state.sealed)
            if c is not None
        ]
        for seat, p in enumerate(state.players):
            if p.barrier is not None:
                out.append(
                    Sealed(
                        seat,
                        p.barrier.label,
                        p.barrier.commitment,
                        p.barrier.step,
                        "their barrier card",
                    )
                )
        return out

    def check_secrets(
        self, states: Sequence[EspeersState], opened: Mapping[tuple[int, str], Json]
    ) -> None:
        """Deal both decks again and check every card that left a hand was in it (`hands.py`)."""
        check_hands(states[-1], opened)
