"""Telepathic, by Carl Klutzke, with the project's rulings (docs/rulings.md).

Every seat's condition cards are dealt on its own device and committed; nothing about them is
public until an Announcement, or until a met lose condition is declared with its opening as
proof. After every action on the grid each holder of a lose condition must say "play on" or "the
game is lost" (its device does it by itself); the audit at the end replays the grid and catches
any "play on" said while that seat's lose condition was met.

The arrangements (pair, director, four partners, teams), the modes (first game, standard,
challenge) and the cards a challenge sets aside are declared in options.py; the views are built
in views.py, and the audit at the end is audit.py.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import product

from parlour.errors import CommitmentMismatch, IllegalAction
from parlour.fair.commit import Context, Opening, check_opening, commitment_of
from parlour.fair.encoding import Json
from parlour.fair.rng import Rng
from parlour.fair.store import PrivateStore
from parlour.games.base import Game, Outcome, Sealed, Setup, SharedDeal, Termination
from parlour.games.telepathic import views
from parlour.games.telepathic.actions import (
    Action,
    Announce,
    Continue,
    DeclareLost,
    HandCard,
    Perform,
    PlayOn,
    Respond,
    Reveal,
    SealConditions,
    action_to_json,
    parse_action,
)
from parlour.games.telepathic.audit import check_conditions
from parlour.games.telepathic.grid import (
    ACTION_CARDS,
    CARDS_BY_ID,
    apply_card,
    holds,
)
from parlour.games.telepathic.options import OPTIONS
from parlour.games.telepathic.state import (
    CONDITIONS_LABEL,
    DECKS,
    ROLES,
    ROW_SIZE,
    TeleState,
    conditions_problem,
    next_performer,
    starting_grid,
    unsealed,
)
from parlour.games.telepathic.views import TelePublicView, TeleSeatView
from parlour.words import Named, capital

# -- the game ---------------------------------------------------------------------------------


class Telepathic(Game[TeleState, Action]):
    options = OPTIONS  # its id, name and seat counts too (Game.__init_subclass__)

    def initial_state(self, setup: Setup, seed: bytes) -> TeleState:
        self.check_setup(setup)
        arrangement = OPTIONS.word(setup.variant, "arrangement")
        mode = OPTIONS.word(setup.variant, "mode")
        rng = Rng(seed)
        grid = starting_grid(rng.derive("telepathic:grid"))
        if mode == "first":
            row = tuple(c.id for c in ACTION_CARDS if c.first_game)
            deck: tuple[str, ...] = ()
            removed = 0
        else:
            order = rng.derive("telepathic:deck").shuffled([c.id for c in ACTION_CARDS])
            removed = OPTIONS.number(setup.variant, "discard") if mode == "challenge" else 0
            row, deck = tuple(order[:ROW_SIZE]), tuple(order[ROW_SIZE + removed :])
        return TeleState(
            setup,
            seed,
            arrangement,
            mode,
            grid,
            row,
            deck,
            removed=removed,
            sealed=(None,) * setup.seats,
            # pair: seat 1 is whoever last had a psychic experience (the set-up form asks);
            # the variants start with player 1 as the text says
            active=0,
        )

    # -- who acts ----------------------------------------------------------------------------

    def to_move(self, state: TeleState) -> frozenset[int]:
        phase = state.phase
        if state.outcome is not None:
            return frozenset()
        if phase == "setup":
            return frozenset(unsealed(state))
        if phase == "hand":
            return frozenset({state.active})
        if phase in ("perform", "window"):
            assert state.performer is not None  # set when the card is handed over
            return frozenset({state.performer})
        if phase == "check":
            return frozenset(set(state.holders("lose")) - state.checked)
        if phase == "respond":
            return frozenset({self._responder(state)})
        if phase == "reveal":
            return frozenset(s for s, _ in state.claims if s not in state.revealed)
        return frozenset()

    def _responder(self, state: TeleState) -> int:
        return next(s for s, _ in state.claims if s != state.announcer)

    # -- legal choices -----------------------------------------------------------------------

    def must_announce(self, state: TeleState) -> bool:
        return state.phase == "hand" and all(c is None for c in state.row)

    def announcement_shape(self, state: TeleState, seat: int) -> list[int]:
        """Whose win conditions `seat` would name by announcing now (empty: may not)."""
        arrangement = state.arrangement
        if state.phase == "hand" and arrangement == "pair" and state.turns > 0:
            return [1 - seat]  # either partner, after a completed turn (not only the active one)
        if state.phase == "hand" and seat == state.active:
            if arrangement == "director" and state.turns > 0:  # "at the end of any turn"
                return state.holders("win")
            if arrangement == "four":  # "on your turn, either hand a card or announce"
                return state.holders("win")
        if state.phase == "window" and seat == state.performer and arrangement == "teams":
            return [state.active]
        return []

    def legal_actions(
        self, state: TeleState, seat: int, store: PrivateStore | None
    ) -> list[Action]:
        if seat not in self.to_move(state):
            return self._announcements(state, seat)  # pair: the partner who is not active
        auto = self.auto_action(state, seat, store)
        if auto is not None:
            return [auto]
        actions: list[Action] = []
        if state.phase == "hand":
            actions += [HandCard(i) for i, c in enumerate(state.row) if c is not None]
        elif state.phase == "perform":
            actions += [Perform(i) for i in range(4)]
        elif state.phase == "window":
            actions.append(Continue())
        elif state.phase == "respond":
            assert state.announcer is not None  # set by the Announcement
            kind = state.kind_of(state.announcer)
            actions += [Respond(n) for n in DECKS[kind]]
        return actions + self._announcements(state, seat)

    def _announcements(self, state: TeleState, seat: int) -> list[Action]:
        named = self.announcement_shape(state, seat)
        if not named:
            return []
        options = [DECKS[state.kind_of(s)] for s in named]
        return [Announce(tuple(zip(named, combo, strict=True))) for combo in product(*options)]

    def shared_deals(self, setup: Setup) -> list[SharedDeal]:
        """Four partners and teams: two seats draw one card each from the colour deck, two from
        the shape deck. Online those seats may sit on different devices."""
        arrangement = OPTIONS.word(setup.variant, "arrangement")
        if arrangement not in ("four", "teams"):
            return []
        roles = ROLES[arrangement]
        return [
            SharedDeal(
                kind, tuple(DECKS[kind]), tuple(s for s in range(4) if roles[s][0][0] == kind)
            )
            for kind in ("colour", "shape")
        ]

    def deal(
        self,
        setup: Setup,
        seats: Sequence[int],
        shared: Mapping[int, Mapping[str, str]] | None = None,
        private: Mapping[int, Mapping[str, Json]] | None = None,
    ) -> dict[int, dict[str, Json]]:
        """Deal condition cards to the seats held on this device, each deck without repeats;
        online, a card drawn in a shared deal is that seat's card of that kind."""
        arrangement = OPTIONS.word(setup.variant, "arrangement")
        decks = {
            kind: Rng(secrets.token_bytes(32)).shuffled(cards) for kind, cards in DECKS.items()
        }
        dealt: dict[int, dict[str, Json]] = {}
        for seat in seats:
            hand: dict[str, str] = {}
            for kind, which in ROLES[arrangement][seat]:
                drawn = (shared or {}).get(seat, {}).get(kind)
                hand[which] = drawn if drawn is not None else decks[kind].pop()
            if hand:
                dealt[seat] = {CONDITIONS_LABEL: hand}
        return dealt

    def dealt_labels(self, setup: Setup, seat: int) -> frozenset[str]:
        arrangement = OPTIONS.word(setup.variant, "arrangement")
        return frozenset({CONDITIONS_LABEL}) if ROLES[arrangement][seat] else frozenset()

    def automatic(self, state: TeleState, seat: int) -> bool:
        return seat in self.to_move(state) and state.phase in ("setup", "check", "reveal")

    def forfeit_winners(self, setup: Setup, seat: int) -> frozenset[int]:
        """Partners win or lose together: a stall loses the game for its side; in teams the
        other team wins."""
        if OPTIONS.word(setup.variant, "arrangement") == "teams":
            return frozenset(s for s in range(setup.seats) if s % 2 != seat % 2)
        return frozenset()

    def auto_action(self, state: TeleState, seat: int, store: PrivateStore | None) -> Action | None:
        """Sealing the dealt cards, the check after each action, and the reveals need no choice."""
        if seat not in self.to_move(state) or store is None or CONDITIONS_LABEL not in store:
            return None
        opening = store.opening(CONDITIONS_LABEL)
        if state.phase == "setup":
            return SealConditions(commitment_of(store.context, opening))
        if state.phase == "check":
            lose = opening.value.get("lose")
            return DeclareLost(opening) if lose and holds(state.grid, lose) else PlayOn()
        if state.phase == "reveal":
            return Reveal(opening)
        return None

    # -- apply -------------------------------------------------------------------------------

    def apply(self, state: TeleState, seat: int, action: Action) -> TeleState:
        # to_move names whom the game waits for; in a pair the other partner may also announce
        announcing = isinstance(action, Announce) and self.announcement_shape(state, seat)
        if seat not in self.to_move(state) and not announcing:
            if state.outcome is not None:
                raise IllegalAction("The game is over.")
            raise IllegalAction(f"It is not {state.name(seat)}'s turn.")
        state = replace(state, ply=state.ply + 1)
        phase = state.phase
        if isinstance(action, Announce):
            return self._announce(state, seat, action)
        # Each phase takes its own kind of action.
        if phase == "setup" and isinstance(action, SealConditions):
            return self._seal(state, seat, action)
        if phase == "hand" and isinstance(action, HandCard):
            return self._hand(state, seat, action)
        if phase == "perform" and isinstance(action, Perform):
            return self._perform(state, seat, action)
        if phase == "check" and isinstance(action, (PlayOn, DeclareLost)):
            return self._check(state, seat, action)
        if phase == "window" and isinstance(action, Continue):
            return self._continue(state, seat, action)
        if phase == "respond" and isinstance(action, Respond):
            return self._respond(state, seat, action)
        if phase == "reveal" and isinstance(action, Reveal):
            return self._reveal(state, seat, action)
        raise IllegalAction(PHASE_SENTENCES[phase].format(name=Named(state.name(seat))))

    def _seal(self, state: TeleState, seat: int, action: SealConditions) -> TeleState:
        promised = state.setup.precommitted(seat, CONDITIONS_LABEL)
        if promised is not None and action.commitment != promised:
            raise CommitmentMismatch(
                f"{state.name(seat)} sealed other cards than the ones committed before the "
                "seed was drawn.",
                seat,
            )
        sealed = list(state.sealed)
        sealed[seat] = (action.commitment, state.ply)
        new = replace(state, sealed=tuple(sealed))
        return new if unsealed(new) else replace(new, phase="hand")

    def _hand(self, state: TeleState, seat: int, action: HandCard) -> TeleState:
        if not 0 <= action.slot < len(state.row) or state.row[action.slot] is None:
            raise IllegalAction("Hand over one of the face-up action cards.")
        return replace(state, phase="perform", handed=action.slot, performer=next_performer(state))

    def _perform(self, state: TeleState, seat: int, action: Perform) -> TeleState:
        if not 0 <= action.set_index < 4:
            raise IllegalAction("Choose one of the four sets the card offers.")
        assert state.handed is not None  # set when the card is handed over
        card_id = state.row[state.handed]
        assert card_id is not None  # `_hand` takes only a card that is there
        card = CARDS_BY_ID[card_id]
        grid = apply_card(state.grid, card, action.set_index)
        new = self._use_card(replace(state, grid=grid), card.id)
        new = replace(new, turns=state.turns + 1, checked=frozenset())
        return self._after_check(new) if not new.holders("lose") else replace(new, phase="check")

    def _use_card(self, state: TeleState, card_id: str) -> TeleState:
        """First game: the card goes back to the row. Otherwise discard it and draw."""
        if state.mode == "first":
            return state
        row, deck, used = list(state.row), state.deck, (*state.used, card_id)
        reshuffles = state.reshuffles
        if not deck and self._may_reshuffle(state):
            rng = Rng(state.seed).derive(f"telepathic:reshuffle:{reshuffles}")
            deck, used, reshuffles = tuple(rng.shuffled(used)), (), reshuffles + 1
        assert state.handed is not None  # the card just performed
        row[state.handed] = deck[0] if deck else None
        return replace(state, row=tuple(row), deck=deck[1:], used=used, reshuffles=reshuffles)

    def _may_reshuffle(self, state: TeleState) -> bool:
        if state.arrangement == "teams":
            return True  # whenever the deck runs out
        return state.arrangement == "four" and state.reshuffles == 0  # once

    def _check(self, state: TeleState, seat: int, action: PlayOn | DeclareLost) -> TeleState:
        if isinstance(action, DeclareLost):
            conditions = self._opened(state, seat, action.opening, "the game is lost")
            lose = conditions.get("lose")
            if not lose or not holds(state.grid, lose):
                raise IllegalAction(
                    capital(
                        f"{Named(state.name(seat)):'s} lose condition is not met: the game goes on."
                    )
                )
            reason = (
                capital(
                    f"{Named(state.name(seat)):'s} lose condition ({lose}: three in a line) "
                    "is met: "
                )
                + "the game is lost."
            )
            revealed = {**state.revealed, seat: dict(conditions)}
            return replace(
                state, revealed=revealed, outcome=Outcome(Termination.LOSS, frozenset(), reason)
            )
        new = replace(state, checked=state.checked | {seat})
        if set(new.holders("lose")) <= new.checked:
            return self._after_check(new)
        return new

    def _after_check(self, state: TeleState) -> TeleState:
        if state.arrangement == "teams":
            return replace(state, phase="window")
        return self._next_turn(state)

    def _next_turn(self, state: TeleState) -> TeleState:
        arrangement = state.arrangement
        if arrangement == "pair":
            assert state.performer is not None  # the turn's performer becomes active
            active = state.performer
        elif arrangement == "director":
            active = 0
        else:
            active = (state.active + 1) % 4
        return replace(state, phase="hand", active=active, handed=None, performer=None)

    def _continue(self, state: TeleState, seat: int, action: Continue) -> TeleState:
        return self._next_turn(state)

    def _announce(self, state: TeleState, seat: int, action: Announce) -> TeleState:
        named = self.announcement_shape(state, seat)
        if not named:
            raise IllegalAction(f"{state.name(seat)} cannot make the Announcement now.")
        claimed = [s for s, _ in action.claims]
        if claimed != named:
            raise IllegalAction("Name the win condition of each partner you announce for.")
        for s, name in action.claims:
            if name not in DECKS[state.kind_of(s)]:
                raise IllegalAction(f"{name!r} cannot be {state.name(s)}'s win condition.")
        new = replace(state, claims=action.claims, announcer=seat)
        if state.arrangement in ("pair", "teams"):
            return replace(new, phase="respond")
        return replace(new, phase="reveal")

    def _respond(self, state: TeleState, seat: int, action: Respond) -> TeleState:
        assert state.announcer is not None  # set by the Announcement
        kind = state.kind_of(state.announcer)
        if action.name not in DECKS[kind]:
            raise IllegalAction(f"Name a {kind} for {state.name(state.announcer)}.")
        claims = (*state.claims, (state.announcer, action.name))
        return replace(state, claims=claims, phase="reveal")

    def _reveal(self, state: TeleState, seat: int, action: Reveal) -> TeleState:
        conditions = self._opened(state, seat, action.opening, "their condition cards")
        revealed = {**state.revealed, seat: dict(conditions)}
        new = replace(state, revealed=revealed)
        if all(s in revealed for s, _ in state.claims):
            return replace(new, outcome=self._judge(new))
        return new

    def _opened(
        self, state: TeleState, seat: int, opening: Opening, what: str
    ) -> Mapping[str, str]:
        sealed = state.sealed[seat]
        if sealed is None or opening.label != CONDITIONS_LABEL:
            raise CommitmentMismatch(f"{state.name(seat)} opened the wrong thing.", seat)
        commitment, made = sealed
        context = Context(state.setup.match_id, seat)
        check_opening(context, commitment, opening, who=state.name(seat), what=what, step=made)
        problem = conditions_problem(state, seat, opening.value)
        if problem:
            raise CommitmentMismatch(problem, seat, made)
        conditions: Mapping[str, str] = opening.value  # checked just above
        return conditions

    def _judge(self, state: TeleState) -> Outcome:
        wrong = [
            f"{Named(state.name(s)):'s} win condition is {state.revealed[s]['win']}, not {name}"
            for s, name in state.claims
            if state.revealed[s]["win"] != name
        ]
        unmet = [
            f"{Named(state.name(s)):'s} {state.revealed[s]['win']} is not three in a line"
            for s, _ in state.claims
            if not holds(state.grid, state.revealed[s]["win"])
        ]
        everyone = frozenset(range(state.seats))
        if state.arrangement == "teams":
            assert state.announcer is not None  # only an Announcement is judged
            team = frozenset(s for s in range(4) if s % 2 == state.announcer % 2)
            winners = team if not wrong and not unmet else everyone - team
            names = " and ".join(state.name(s) for s in sorted(winners))
            why = "the Announcement was right" if winners == team else "; ".join(wrong + unmet)
            return Outcome(Termination.WIN, winners, f"{names} win: {why}.")
        if wrong or unmet:
            return Outcome(Termination.LOSS, frozenset(), "; ".join(wrong + unmet) + ".")
        return Outcome(
            Termination.WIN, everyone, "Both win conditions were named and are met on the grid."
        )

    # -- results and views -------------------------------------------------------------------

    def result(self, state: TeleState) -> Outcome | None:
        return state.outcome

    def public_view(self, state: TeleState) -> TelePublicView:
        return views.public_view(state, self.id, self.to_move(state), self.must_announce(state))

    def seat_view(self, state: TeleState, seat: int, store: PrivateStore | None) -> TeleSeatView:
        return views.seat_view(self.public_view(state), state, seat, store)

    def reveals(self, action: Action) -> bool:
        """Sealing, "play on" (my lose condition is not met), a loss and a reveal all tell
        something about a secret: undo stops there."""
        return isinstance(action, (SealConditions, PlayOn, DeclareLost, Reveal))

    # -- the log's JSON ----------------------------------------------------------------------

    def parse_action(self, data: Json) -> Action:
        return parse_action(data)

    def action_to_json(self, action: Action) -> Json:
        return action_to_json(action)

    # -- audit -------------------------------------------------------------------------------

    def sealed(self, state: TeleState) -> list[Sealed]:
        seals = [
            Sealed(seat, CONDITIONS_LABEL, c[0], c[1], "their condition cards")
            for seat, c in enumerate(state.sealed)
            if c is not None and seat not in state.revealed
        ]
        for label in state.setup.shared:  # online: the locks used to deal across devices
            for seat in range(state.seats):
                commitment = state.setup.precommitted(seat, f"sra:{label}")
                if commitment is not None:
                    seals.append(Sealed(seat, f"sra:{label}", commitment, 0, "their deal lock"))
        return seals

    def check_secrets(
        self, states: Sequence[TeleState], opened: Mapping[tuple[int, str], Json]
    ) -> None:
        """Every condition card opened, every deal across devices and every "play on"
        (`audit.py`)."""
        check_conditions(states, opened)


PHASE_SENTENCES = {
    "setup": "First every player seals the condition cards they were dealt.",
    "hand": "{name:hands} an action card to a partner (or makes the Announcement).",
    "perform": "{name:chooses} one of the four sets on the card handed over.",
    "check": "{name} must first say whether {name:their} lose condition is met.",
    "window": "{name} may announce now, or let play go on.",
    "respond": "{name} must answer the Announcement.",
    "reveal": "{name} must open {name:their} condition cards.",
}
