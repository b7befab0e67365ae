"""Every sentence that names a seat, through the one place that writes them (parlour.words), and
the numbers a help text or a rules page states, worked out by the engine (issue 39)."""

from __future__ import annotations

import re
from functools import cache
from html import unescape
from pathlib import Path

import pytest

from parlour.games.psi_squad.state import score, value_of
from parlour.games.psi_squad.words import answer_example
from parlour.ui.psi_squad.screen import PsiScreen
from parlour.ui.tree import Node
from parlour.words import YOU, Named, agree, plural, possessive, theirs, with_verb
from tests.test_conformance import SETUPS
from tests.ui.test_tree_html import screens_of_a_game

NAMES = (YOU, "Jess", "Ben (bot)", "Cass")  # "You", a name ending in s, a bot's
INDEX = Path(__file__).resolve().parent.parent / "index.html"
# What no sentence may say: "You's", "of You's", "You wins", "You is"; a third-person name
# with the verb "you" takes ("Jess win", "Ben (bot) have"; "You and Jess win" is right).
WRONG = re.compile(
    r"\b[Yy]ou's"
    r"|\bYou (?:is|has|was|does|(?!always\b)[a-z]*[^s' ]s)\b"
    r"|(?<!and )\b(?:Jess|Ben \(bot\)|Cass) (?:win|are|have|hold|were|do|place|flip|pass|"
    r"guess|choose|take|play|draw|regain|discard|keep|hand|show)\b"
)


def test_a_name_in_a_sentence():
    assert [possessive(n) for n in ("Ada", "Jess", "Ben (bot)", YOU)] == [
        "Ada's",
        "Jess's",
        "Ben (bot)'s",
        "your",
    ]
    assert theirs("Jess") == "Jess's" and theirs(YOU) == "yours"
    assert (
        with_verb("Ben (bot)", "wins") == "Ben (bot) wins" and with_verb(YOU, "wins") == "You win"
    )
    assert agree(YOU, "has") == "have" and agree("Jess", "passes") == "passes"
    assert [plural(v) for v in ("passes", "tries", "is dealt", "catches", "goes")] == [
        "pass",
        "try",
        "are dealt",
        "catch",
        "go",
    ]
    said = "{n:regains} 2; {n:'s} PSI; to {n:in}; and {n:in draws} 1; {n:their} cards"
    assert said.format(n=Named(YOU)) == "You regain 2; your PSI; to you; and you draw 1; your cards"
    assert said.format(n=Named("Jess")) == (
        "Jess regains 2; Jess's PSI; to Jess; and Jess draws 1; their cards"
    )


def _texts(node: Node | str) -> list[str]:
    if isinstance(node, str):
        return [node]
    said = [v for k in ("aria-label", "title") if isinstance(v := node.attrs.get(k), str)]
    return said + [t for child in node.children for t in _texts(child)]


@cache
def _sentences(setup: int, turn: int) -> tuple[str, ...]:
    game_id, names, variant = SETUPS[setup]
    seats = (NAMES[turn:] + NAMES[:turn])[: len(names)]
    found: set[str] = set()
    for tree in screens_of_a_game(game_id, seats, variant, f"{game_id}-words-{turn}".encode()):
        found.update(_texts(tree))
    return tuple(sorted(found))


@pytest.mark.parametrize("turn", range(2))
@pytest.mark.parametrize("setup", range(len(SETUPS)), ids=[s[0] for s in SETUPS])
def test_every_sentence_of_whole_games_with_you_jess_and_a_bot_agrees(setup, turn):
    """Issue 39: after "Play on from here" the page said "2 of You's", "You's waves", "You
    places". Whole games (log, status, hand-offs, help, result) with a seat called "You", one
    called Jess and a bot, in two seatings: no sentence breaks the one rule."""
    sentences = _sentences(setup, turn)
    assert any(YOU in s for s in sentences)
    wrong = sorted({m.group(0) + " in: " + s[:120] for s in sentences for m in WRONG.finditer(s)})
    assert wrong == []


# -- numbers stated in help texts and the rules pages, worked out by the engine ----------------


def _help_texts(node: Node | str) -> list[str]:
    if isinstance(node, str):
        return []
    own = [node.text()] if node.attrs.get("role") == "tooltip" else []
    return own + [t for child in node.children for t in _help_texts(child)]


def test_psi_squads_help_beside_guess_says_what_correct_and_spotted_mean():
    """Issue 39: the "?" beside Guess said "correct (right place) and spotted (anywhere)", the
    wrong way round; its example is worked out by the engine's scoring."""
    screen = PsiScreen()
    tree = Node("div", {}, screen._pad("", 4, "guess", "Guess"))
    (said,) = [t for t in _help_texts(tree) if "spotted" in t]
    correct = re.search(r"correct \(([^)]*)\)", said)
    spotted = re.search(r"spotted \(([^)]*)\)", said)
    assert correct and "anywhere" in correct.group(1) and "place" not in correct.group(1)
    assert spotted and "place" in spotted.group(1)
    _check_answers(said)
    assert answer_example() == "6789 against the cypher 5678: 3 correct, 0 spotted"


def _check_answers(text: str) -> None:
    """Every "GUESS against the cypher CYPHER: C correct, S spotted" in `text`, recomputed."""
    found = re.findall(r"(\d+) against the cypher (\d+): (\d+) correct, (\d+) spotted", text)
    assert found
    for guess, cypher, correct, spotted in found:
        assert score(cypher, guess) == (int(correct), int(spotted)), (guess, cypher)


def test_psi_squads_worked_example_on_its_rules_page_is_the_engines_scoring():
    page = unescape(INDEX.read_text(encoding="utf-8"))
    example = page[page.index("Example (standard game, Max 12)") :]
    cypher = re.search(r"Dee's cypher is (\d+)", example).group(1)
    rows = re.findall(
        r"<tr><td>(\w+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>([^<]*)</td>"
        r"<td>([^<]*)</td><td>(\d+) → (\d+)</td></tr>",
        example[: example.index("</table>")],
    )
    assert len(rows) == 4
    status = {"Ana": 12, "Ben": 12, "Cal": 12}
    previous = 0
    for who, guess, correct, spotted, new, change, before, after in rows:
        c, s = score(cypher, guess)
        value = value_of(c, s)
        assert (int(correct), int(spotted)) == (c, s), guess
        assert new.endswith(f"= {value}") or new == str(value), new
        assert change.replace("−", "-").endswith(f"{value - previous:+d}".replace("+0", "0"))
        assert int(before) == status[who] and int(after) == status[who] + value - previous
        status[who], previous = int(after), value
