"""Psi Squad, by Jonathan A. Leistiko, with the project's rulings (docs/rulings.md).

Each seat's cypher is committed at set-up and never travels: the target's own device answers a
guess (number correct, number spotted) from its secret, and the audit at the end re-checks every
answer ever given against the opened cyphers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from parlour.errors import CommitmentMismatch, IllegalAction
from parlour.fair.encoding import Json
from parlour.fair.rng import Rng
from parlour.fair.store import PrivateStore
from parlour.games.base import Game, Outcome, Sealed, Setup, Termination
from parlour.games.psi_squad.actions import (
    Action,
    Answer,
    ChooseCypher,
    Guess,
    GuessView,
    SetCypher,
    action_to_json,
    is_cypher,
    parse_action,
)
from parlour.games.psi_squad.options import OPTIONS, max_status
from parlour.games.psi_squad.state import (
    CYPHER_LABEL,
    PsiState,
    Record,
    record_json,
    score,
    value_of,
)
from parlour.games.psi_squad.views import PsiPublicView, PsiSeatView

# -- the game ---------------------------------------------------------------------------------


class PsiSquad(Game[PsiState, Action]):
    options = OPTIONS  # its id, name and seat counts too (Game.__init_subclass__)

    def initial_state(self, setup: Setup, seed: bytes) -> PsiState:
        self.check_setup(setup)
        length = OPTIONS.number(setup.variant, "length")
        n = setup.seats
        first = Rng(seed).derive("psi-squad:first").below(n)
        full = max_status(length)
        return PsiState(
            setup, length, (None,) * n, (full,) * n, (0,) * n, (False,) * n, first, first
        )

    def to_move(self, state: PsiState) -> frozenset[int]:
        if state.outcome is not None:
            return frozenset()
        if state.setting_up:
            return frozenset(s for s, c in enumerate(state.cyphers) if c is None)
        if state.pending is not None:
            return frozenset({state.pending.target})
        return frozenset({state.to_move})

    def legal_actions(
        self, state: PsiState, seat: int, store: PrivateStore | None
    ) -> Sequence[Action]:
        """Guesses as a lazy view; an answer only from the target's own store; none at set-up
        (any n digits will do: the seat's device seals its choice)."""
        if seat not in self.to_move(state) or state.setting_up:
            return []
        if state.pending is not None:
            if store is None or CYPHER_LABEL not in store:
                return []
            return [Answer(*score(store.value(CYPHER_LABEL), state.pending.digits))]
        return GuessView(state.targets(seat), state.length)

    def digits_problem(self, state: PsiState, digits: object, what: str) -> str | None:
        """Why `digits` cannot be a cypher (or a guess at one) in this game, in words."""
        n = state.length
        if not isinstance(digits, str) or not digits:
            return f"Type the {n} digits of your {what}."
        if not (digits.isascii() and digits.isdigit()):
            return f"A cypher is made of digits only: type {n} digits from 0 to 9."
        if len(digits) != n:
            return f"A cypher has exactly {n} digits; that {what} has {len(digits)}."
        return None

    def guess_problem(
        self, state: PsiState, seat: int, target: object, digits: object
    ) -> str | None:
        """Why this guess is refused, in words; None when it is legal."""
        problem = self.digits_problem(state, digits, "guess")
        if problem:
            return problem
        if not isinstance(target, int) or not 0 <= target < state.seats:
            return "Choose whose cypher you are guessing."
        if target == seat:
            return "You cannot guess your own cypher."
        if state.guessed[target]:
            return f"{state.name(target)}'s cypher has already been guessed."
        return None

    def automatic(self, state: PsiState, seat: int) -> bool:
        return state.pending is not None and seat == state.pending.target

    def auto_action(self, state: PsiState, seat: int, store: PrivateStore | None) -> Action | None:
        """The answer a target's device gives by itself (the player has nothing to decide)."""
        if state.pending is not None and seat == state.pending.target:
            legal = self.legal_actions(state, seat, store)
            return legal[0] if legal else None
        return None

    def reveals(self, action: Action) -> bool:
        """An answer tells something about a secret cypher: undo stops there."""
        return isinstance(action, Answer)

    # -- apply -------------------------------------------------------------------------------

    def seal(self, state: PsiState, seat: int, action: Action, store: PrivateStore) -> Action:
        if isinstance(action, ChooseCypher):
            if state.cyphers[seat] is not None:  # sealed already: never overwrite its opening
                raise ValueError("this seat's cypher is already sealed")
            if not is_cypher(action.digits, state.length):
                raise ValueError(f"a cypher is {state.length} digits")
            return SetCypher(store.commit(CYPHER_LABEL, action.digits, replace=True))
        return action

    def apply(self, state: PsiState, seat: int, action: Action) -> PsiState:
        if seat not in self.to_move(state):
            if state.outcome is not None:
                raise IllegalAction("The game is over.")
            raise IllegalAction(f"It is not {state.name(seat)}'s turn.")
        step = state.ply + 1
        if state.setting_up:
            if not isinstance(action, SetCypher):
                raise IllegalAction("First every player chooses a cypher.")
            cyphers = list(state.cyphers)
            cyphers[seat] = (action.commitment, step)
            return replace(state, cyphers=tuple(cyphers), ply=step)
        if state.pending is not None:
            if not isinstance(action, Answer):
                raise IllegalAction(f"{state.name(seat)} must answer the guess first.")
            return self._answer(state, seat, action, step)
        if not isinstance(action, Guess):
            raise IllegalAction(f"{state.name(seat)} must guess a cypher.")
        problem = self.guess_problem(state, seat, action.target, action.digits)
        if problem:
            raise IllegalAction(problem)
        return replace(state, pending=action, ply=step)

    def _answer(self, state: PsiState, seat: int, answer: Answer, step: int) -> PsiState:
        n = state.length
        c, s = answer.correct, answer.spotted
        if not (0 <= s <= c <= n) or (s == n - 1 and c == n):
            raise IllegalAction(f"{c} correct and {s} spotted is not a possible answer.")
        guess = state.pending
        assert guess is not None
        guesser = state.to_move
        value = value_of(c, s)
        change = value - state.values[seat]
        record = Record(step, guesser, seat, guess.digits, c, s, value, change)
        status = list(state.status)
        status[guesser] += change
        values = list(state.values)
        values[seat] = value
        guessed = list(state.guessed)
        guessed[seat] = s == n
        new = replace(
            state,
            status=tuple(status),
            values=tuple(values),
            guessed=tuple(guessed),
            pending=None,
            history=state.history.plus(record),
            ply=step,
            to_move=(guesser + 1) % state.seats,
        )
        left = [x for x in range(new.seats) if not new.guessed[x]]
        if len(left) <= 1:
            return self._finish(new, left)
        return new

    def _finish(self, state: PsiState, left: list[int]) -> PsiState:
        status = list(state.status)
        bonus = None
        if left:
            last = left[0]
            bonus = (last, state.max - state.values[last])
            status[last] += bonus[1]
        best = max(status)
        winners = frozenset(s for s, v in enumerate(status) if v == best)
        ranking = ", ".join(
            f"{state.name(s)} {status[s]}"
            for s in sorted(range(state.seats), key=lambda x: -status[x])
        )
        kind = Termination.WIN if len(winners) == 1 else Termination.SHARED_WIN
        reason = f"Only one cypher is left unguessed. Final status: {ranking}."
        return replace(
            state, status=tuple(status), bonus=bonus, outcome=Outcome(kind, winners, reason)
        )

    # -- results and views -------------------------------------------------------------------

    def result(self, state: PsiState) -> Outcome | None:
        return state.outcome

    def public_view(self, state: PsiState) -> PsiPublicView:
        return {
            "game": self.id,
            "length": state.length,
            "max": state.max,
            "stage": "setup" if state.setting_up else "play",
            "to_move": sorted(self.to_move(state)),
            "first": state.first,
            "seats": [
                {
                    "name": state.name(s),
                    "status": state.status[s],
                    "value": state.values[s],
                    "guessed": state.guessed[s],
                    "ready": state.cyphers[s] is not None,
                    "commitment": c[0] if (c := state.cyphers[s]) else None,
                }
                for s in range(state.seats)
            ],
            "pending": None
            if state.pending is None
            else {
                "guesser": state.to_move,
                "target": state.pending.target,
                "digits": state.pending.digits,
            },
            "history": [record_json(r) for r in state.history],
            "bonus": None
            if state.bonus is None
            else {"seat": state.bonus[0], "points": state.bonus[1]},
            "outcome": None if state.outcome is None else state.outcome.to_json(),
        }

    def seat_view(self, state: PsiState, seat: int, store: PrivateStore | None) -> PsiSeatView:
        view = self.public_view(state)
        mine = store.value(CYPHER_LABEL) if store is not None and CYPHER_LABEL in store else None
        return {**view, "me": {"seat": seat, "cypher": mine}}

    # -- the log's JSON ----------------------------------------------------------------------

    def parse_action(self, data: Json) -> Action:
        return parse_action(data)

    def action_to_json(self, action: Action) -> Json:
        return action_to_json(action)

    # -- audit -------------------------------------------------------------------------------

    def sealed(self, state: PsiState) -> list[Sealed]:
        return [
            Sealed(seat, CYPHER_LABEL, c[0], c[1], "their cypher")
            for seat, c in enumerate(state.cyphers)
            if c is not None
        ]

    def check_secrets(
        self, states: Sequence[PsiState], opened: Mapping[tuple[int, str], Json]
    ) -> None:
        """Every cypher is n digits, and every answer ever given was the truth."""
        final = states[-1]
        for seat, c in enumerate(final.cyphers):
            if c is None or (seat, CYPHER_LABEL) not in opened:
                continue  # not opened (that seat is unverified): nothing to check
            cypher = opened[(seat, CYPHER_LABEL)]
            if not is_cypher(cypher, final.length):
                raise CommitmentMismatch(
                    f"{final.name(seat)}'s cypher {cypher!r} is not {final.length} digits.",
                    seat,
                    c[1],
                )
        for r in final.history:
            if (r.target, CYPHER_LABEL) not in opened:
                continue
            cypher = opened[(r.target, CYPHER_LABEL)]
            truth = score(cypher, r.digits)
            if truth != (r.correct, r.spotted):
                raise CommitmentMismatch(
                    f"{final.name(r.target)} answered {r.correct} correct, {r.spotted} spotted "
                    f"to {final.name(r.guesser)}'s guess {r.digits} at move {r.step}, but the "
                    f"cypher {cypher} gives {truth[0]} correct, {truth[1]} spotted.",
                    r.target,
                    r.step,
                )
