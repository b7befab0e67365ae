"""A prompt never offers a button that contradicts its sentence (issue 39, a general check):
over whole pass-and-play games of all four games, seen by each seat to move, every enabled
button that states a count of something ("Discard 2 cards") states the count its prompt's
sentence states of the same thing ("choose 2 cards to discard"), and a button that splits an
amount ("1 from Pool + 2 from Spent") splits the amount its heading asks for ("Take 3 damage").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.match import bot_seats
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.play import PlaySession
from parlour.ui.screens import screen_for
from parlour.ui.tree import Node

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
WORDS |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "no": 0}
COUNT = re.compile(r"\b(\d+|" + "|".join(WORDS) + r") ([a-z]+)\b", re.IGNORECASE)
SPLIT = re.compile(r"^\d+ from [A-Za-z]+(?: \+ \d+ from [A-Za-z]+)*$")
PROMPTS = ("p", "h2", "h3", "legend")


def counts(text: str) -> dict[str, set[int]]:
    """Each thing the text counts ("2 cards": card), with the counts it says of it."""
    found: dict[str, set[int]] = {}
    for number, noun in COUNT.findall(text):
        n = int(number) if number.isdigit() else WORDS[number.lower()]
        found.setdefault(noun.lower().removesuffix("s"), set()).add(n)
    return found


def text_without_buttons(node: Node) -> str:
    parts = []
    for child in node.children:
        if isinstance(child, str):
            parts.append(child)
        elif child.tag != "button" and "help" not in child.attrs.get("class", ""):
            parts.append(text_without_buttons(child))
    return "".join(parts)


def prompts_and_buttons(node: Node, prompt: list[str]) -> Iterator[tuple[list[str], Node]]:
    """Each enabled button with the sentences of its nearest prompt: the headings and paragraphs
    of the nearest enclosing element that has any."""
    own = [
        text_without_buttons(c)
        for c in node.children
        if isinstance(c, Node) and c.tag in PROMPTS and text_without_buttons(c).strip()
    ]
    here = own or prompt
    for child in node.children:
        if not isinstance(child, Node):
            continue
        if child.tag == "button" and "disabled" not in child.attrs:
            yield here, child
        else:
            yield from prompts_and_buttons(child, here)


def contradictions(tree: Node) -> list[str]:
    found = []
    for prompt, button in prompts_and_buttons(tree, []):
        label = " ".join(button.text().split())
        said = counts(" ".join(prompt))
        for noun, numbers in counts(label).items():
            if noun in said and len(said[noun]) == 1 and numbers != said[noun]:
                found.append(f"{label!r} under {prompt!r}")
        if SPLIT.match(label) and prompt:
            total = sum(int(n) for n in re.findall(r"\d+", label))
            asked = [int(n) for n in re.findall(r"\d+", prompt[0])]
            if asked and total != asked[0]:
                found.append(f"{label!r} splits {total}, under {prompt!r}")
    return found


def test_the_check_finds_a_contradiction():
    from parlour.ui.tree import h

    bad = h(
        "div", None, h("p", None, "Choose 2 cards to discard."), h("button", None, "Discard 1 card")
    )
    good = h("div", None, h("p", None, "Choose 2 cards."), h("button", None, "Discard 2 cards"))
    split = h("section", None, h("h3", None, "Take 3 damage"), h("button", None, "1 from Pool"))
    assert contradictions(bad) and not contradictions(good) and contradictions(split)


def choose_discards(s: PlaySession) -> None:
    """ESPEERS: pick as many cards as the discard asks, so its button is enabled."""
    pending = s.view().get("pending") if s.game.id == "espeers" else None
    if pending and pending.get("kind") == "discard" and pending.get("seat") == s.viewer:
        for slot in range(pending["amount"]):
            s.handle({"cmd": "discard-pick", "slot": str(slot)})


TABLES: list[tuple[str, int, dict]] = [("esp", 2, {}), ("esp", 4, {}), ("espeers", 2, {})]
TABLES += [("psi-squad", 2, {}), ("psi-squad", 5, {"length": 5})]
TABLES += [("telepathic", 2, {"mode": "first"}), ("telepathic", 3, {"arrangement": "director"})]
TABLES += [("telepathic", 4, {"arrangement": "teams", "mode": "challenge", "discard": 2})]


def table_of(game: str, names: tuple[str, ...], options: dict) -> PlaySession:
    config = MatchConfig(game, "m-prompt-counts-01", names, options)
    return PlaySession(
        Table.new(GAMES[game], config, bytes(32), range(len(names))), screen_for(game)
    )


@pytest.mark.parametrize(("game", "seats", "options"), TABLES)
def test_no_enabled_button_states_a_count_its_prompt_contradicts(game, seats, options):
    names = ("Ada", "Bo", "Cy", "Di", "Ed")[:seats]
    checked = 0
    for run in range(2):
        s = table_of(game, names, options)
        rng = Rng(b"prompt counts %s %d %d" % (game.encode(), seats, run))
        for _ in range(600):
            if s.table.match.result() is not None:
                break
            if s.viewer is None:
                assert contradictions(s.render()) == []  # the hand-off
                s.handle({"cmd": "take-device"})
            choose_discards(s)
            assert contradictions(s.render()) == [], game
            checked += 1
            s.act(bot_seats.decide(s.table, s.viewer, "easy", rng.read(32)).choice)
        assert contradictions(s.render()) == []  # the result
    assert checked > 10
