"""Psi Squad's lesson: a short two-player game with three-digit cyphers against Bo.

Ada seals a cypher, guesses Bo's 472 with 427 (3 correct, 1 spotted: Value 5, status +5), Bo
guesses hers, Ada rules a digit out in her notes, then guesses 472 (all spotted: Bo's cypher is
guessed, the game ends, and Ada's unguessed cypher earns Max minus its Value).
"""

from __future__ import annotations

from parlour.games import GAMES
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.match.config import MatchConfig
from parlour.match.table import AnyTable, Table, new_match_id
from parlour.ui.lesson_steps import Lesson, Step

NAMES = ("Ada", "Bo (bot)")
SEED = bytes([4]) * 32  # Ada guesses first with this seed (tests/ui/test_tutorial.py)
BO = "472"


def table() -> AnyTable:
    config = MatchConfig("psi-squad", new_match_id(), NAMES, {"length": 3}, bots={"1": "easy"})
    prepared: AnyTable = Table.new(GAMES["psi-squad"], config, SEED, range(2))
    result = prepared.act(1, ChooseCypher(BO))
    assert result.ok, result.reason
    return prepared


ENTER = {"cmd": "key", "key": "Enter"}  # the keyboard's Enter: the pad's Seal or Guess


def digit(d: str, say: str, **more: object) -> Step:
    """A press of a digit's key (or the digit typed on a keyboard)."""
    return Step(
        say,
        {"cmd": "digit", "digit": d},
        f"{d} key",
        also=({"cmd": "key", "key": d},),
        **more,  # type: ignore[arg-type]
    )


STEPS = (
    Step(
        "You are Ada; Bo is a bot. Each of you hides a cypher: here 3 digits, repeats allowed. "
        "On your turn you guess the other's cypher and are told how close you came. Everyone's "
        "status starts at 9, the Max for 3 digits; the highest status at the end wins."
    ),
    digit("1", "Choose your cypher. Press 1."),
    digit("5", "Then 5."),
    digit("8", "Then 8."),
    Step(
        "Seal your cypher: it is locked in with a cryptographic seal, so it cannot change, and "
        "it is checked at the end. Bo has sealed one too.",
        {"cmd": "seal-cypher"},
        "Seal my cypher button",
        moves=True,
        also=(ENTER,),
    ),
    Step(
        "Your turn to guess. First choose whose cypher: Bo's.",
        {"cmd": "target", "seat": "1"},
        "Bo button",
    ),
    digit("4", "Guess 4 2 7. Press 4."),
    digit("2", "Then 2."),
    digit("7", "Then 7."),
    Step(
        "Send your guess. Bo's device answers it from Bo's sealed cypher.",
        {"cmd": "guess"},
        "Guess button",
        moves=True,
        also=(ENTER,),
        replies=(Guess(0, "851"),),
    ),
    Step(
        "Correct and spotted: your 4 2 7 had 3 correct (digits in Bo's cypher, anywhere) and 1 "
        "spotted (the right digit in the right place). Value and status: a cypher's Value is "
        "correct + 2 × spotted of the latest guess at it, here 5; the guesser's status moves by "
        "the change in Value, 0 to 5, so yours went up 5. Bo then guessed yours the same way."
    ),
    Step(
        "Notes: the grid under your guess is yours alone. All three of 4, 2 and 7 are in Bo's "
        "cypher, so 9 cannot be first: tap position 1, digit 9 to rule it out (✕).",
        {"cmd": "note", "note": "0:9"},
        "square for position 1, digit 9",
    ),
    Step(
        "A tap again would make it ? (possible), then ✓ (certain). Now guess again: choose Bo.",
        {"cmd": "target", "seat": "1"},
        "Bo button",
    ),
    digit("4", "One of 4, 2, 7 is in place; try 4 7 2. Press 4."),
    digit("7", "Then 7."),
    digit("2", "Then 2."),
    Step(
        "Guess.",
        {"cmd": "guess"},
        "Guess button",
        moves=True,
        also=(ENTER,),
    ),
)

LESSON = Lesson(
    game="psi-squad",
    title="Learn Psi Squad",
    table=table,
    steps=STEPS,
    done=(
        "All 3 spotted: Bo's cypher is guessed. Its Value went from 5 to 9, so your status rose "
        "4. With two players the game ends when one cypher is left; the owner of the last "
        "unguessed cypher adds Max minus its Value: 9 − 5, 4 more for you. Highest status wins."
    ),
)
