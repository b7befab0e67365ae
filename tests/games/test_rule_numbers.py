"""A number a rule or the set-up fixes reaches every reader (issue 40).

The public view carries what the set-up fixes (Psi Squad's digits and Max, ESP's repetitions
that draw), and the screens state it from there. Each declared number is changed to each of
its choices, a game is played under it, and every sentence the screens say that states such a
number (status, warnings, prompts, help, the log, the result) states the chosen one, never
another. ESP's repetitions are a number the rules fix; the test declares an option for it, as
docs/architecture.md says a newcomer would (the one change), and the warning and the draw
follow the choice.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.games.esp.actions import Move
from parlour.games.psi_squad.options import LENGTH
from parlour.ui.esp.screen import EspScreen
from parlour.words import nth, times
from tests.bots.test_set_up import REPETITIONS, esp_with_repetitions  # noqa: F401 (a fixture)
from tests.games.test_esp import NE, SW, E, W, build
from tests.test_words import _texts
from tests.ui.test_tree_html import screens_of_a_game

ESP = GAMES["esp"]
WORDS = {times(n): n for n in range(1, 7)} | {nth(n): n for n in range(1, 7)}

# Every way a Psi Squad sentence states the digits or the Max: each must be the set-up's.
PSI_STATES = {
    "digits": re.compile(r"\b(\d+)[- ]digits?\b"),
    "max": re.compile(r"\b(?:highest status is|Max(?: of| is)?) (\d+)\b"),
}


@pytest.mark.parametrize("choice", LENGTH.choices, ids=lambda c: str(c.value))
def test_every_psi_squad_sentence_states_the_chosen_digits_and_max(choice):
    names = ("Ada", "Bo", "Cy")
    stated: dict[str, set[int]] = {"digits": set(), "max": set()}
    for tree in screens_of_a_game(
        "psi-squad", names, {"length": choice.value}, f"numbers-{choice.value}".encode()
    ):
        for text in _texts(tree):
            for what, pattern in PSI_STATES.items():
                stated[what] |= {int(m.group(1)) for m in pattern.finditer(text)}
    assert stated == {"digits": {choice.value}, "max": {choice.facts["max"]}}


def _hops(variant: dict[str, int]) -> tuple[list[str], str]:
    """Light's star and Dark's cross hop back and forth until the repetition draws the game:
    every status line said on the way, and the draw's reason."""
    state, _ = build({(0, 0): "L*", (1, 0): "Lo?", (0, 1): "Dx"})
    state = dataclasses.replace(state, setup=dataclasses.replace(state.setup, variant=variant))
    cycle = [Move((0, 0), E), Move((0, 1), NE), Move((2, 0), W), Move((2, -1), SW)]
    said = []
    for ply in range(40):
        state = ESP.apply(state, ply % 2, cycle[ply % 4])
        if state.outcome is not None:
            assert state.outcome.termination is Termination.DRAW
            return said, state.outcome.reason
        said.append(EspScreen().status(ESP.public_view(state), 0))
    raise AssertionError("the hops never drew")


@pytest.mark.usefixtures("esp_with_repetitions")  # tests/bots/test_set_up.py's declaration
@pytest.mark.parametrize("draw_at", [c.value for c in REPETITIONS.choices])
def test_esps_warning_and_draw_state_the_chosen_repetitions(draw_at):
    said, reason = _hops({"repetitions": draw_at})
    warnings = [s for s in said if "time is a draw" in s]
    assert warnings, said  # the warning comes before the draw, whatever the number
    for line in warnings:
        found = re.search(r"seen (\w+(?: times)?); a (\w+) time is a draw", line)
        assert found is not None, line
        assert (WORDS[found.group(1)], WORDS[found.group(2)]) == (draw_at - 1, draw_at), line
    assert reason == f"The same position arose for the {nth(draw_at)} time."
    assert ESP.public_view(build({(0, 0): "L*", (0, 1): "Dx"})[0])["draw_at"] == 3


def test_the_rules_repetitions_are_the_public_views_without_an_option():
    said, reason = _hops({})
    assert [s for s in said if "time is a draw" in s][-1].endswith(
        "This position has been seen twice; a third time is a draw."
    )
    assert reason == "The same position arose for the third time."
