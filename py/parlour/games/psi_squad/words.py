"""Psi Squad's moves in words, for the game log ("Ann guesses 4000 for Ben's cypher")."""

from __future__ import annotations

from parlour.games.psi_squad.actions import Answer, Guess, SetCypher
from parlour.games.psi_squad.state import PsiState, score, value_of
from parlour.words import Named, agree, possessive


def describe(before: PsiState, seat: int, action: object) -> str:
    """One sentence for `seat` taking `action` in the position `before` (public facts only)."""
    name = Named(before.name(seat))
    if isinstance(action, SetCypher):
        return f"{name:chooses} a cypher and {agree(name, 'seals')} it."
    if isinstance(action, Guess):
        return (
            f"{name:guesses} {action.digits} for {possessive(before.name(action.target))} cypher."
        )
    if isinstance(action, Answer):
        value = value_of(action.correct, action.spotted)
        change = value - before.values[seat]
        guesser = before.name(before.to_move)
        sign = f"+{change}" if change >= 0 else str(change)
        tail = " The cypher is guessed!" if action.spotted == before.length else ""
        # the guess with its answer, in one sentence: the answer alone says nothing
        guessed = (
            f"{guesser} guessed {before.pending.digits} at {name:in}" if before.pending else name
        )
        return (
            f"{guessed}: {action.correct} correct, {action.spotted} spotted: "
            f"Value {value}, {guesser} {sign}.{tail}"
        )
    return f"{name:acts}."


def answer_example(cypher: str = "5678", guess: str = "6789") -> str:
    """A guess's answer worked out by the engine's own scoring, for the help beside Guess: the
    sentence cannot say "correct" where the rules say "spotted" ("6789 against the cypher 5678:
    3 correct, 0 spotted"; digits no test's cypher uses, so a check that no other seat's cypher
    is in the page never meets the help's)."""
    correct, spotted = score(cypher, guess)
    return f"{guess} against the cypher {cypher}: {correct} correct, {spotted} spotted"
