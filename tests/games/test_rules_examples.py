"""Rules help that cannot drift from the rules (issue 39): every number a rules page of
index.html, a "?" help sentence, a lesson's words or the ESPEERS card list (cards.json's card
texts, the card faces, docs/espeers-cards.md) states is read out of its own sentence and worked
out by the engine, so a text edited to a wrong number, or an engine changed under its text,
fails here.

Each test names the sentence it reads with a regular expression tied to its words; a sentence
that is reworded so that the expression no longer finds it fails too, and is then to be pointed
at again, not dropped. Numbers are played out through the engine (a position built and moved,
a lesson followed, a barrier hit, a mulligan taken) wherever the number is something the engine
does; rule data (cards.json, the engine's constants) stands in only where the number is data.

Already checked elsewhere, and not again here: Psi Squad's help beside Guess and the guesses of
its worked example (tests/test_words.py), Telepathic's example of play from the rules text
(tests/games/test_telepathic.py), each ESPEERS card's effects as the engine resolves them
(tests/games/test_espeers.py, EFFECTS), the balance figures of docs/espeers-cards.md
(tests/bots/test_espeers_balance_figures.py), the generated option tables (test_options.py).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from html import unescape
from pathlib import Path

import pytest

from parlour.games import GAMES
from parlour.games.base import Termination
from parlour.games.esp.actions import Move
from parlour.games.esp.hexgrid import neighbours, step
from parlour.games.esp.options import SEAT_COLOURS
from parlour.games.esp.rules import repetitions_for_draw
from parlour.games.esp.state import SET_LENGTH
from parlour.games.espeers.actions import (
    AssignDamage,
    BarrierAttack,
    Mulligan,
    Pass,
    PlaceBarrier,
    Play,
    Predict,
)
from parlour.games.espeers.cards import (
    CARDS,
    CYCLING,
    DECK_SIZE,
    MAX_COPIES,
    STARTER_DECKS,
    deck_list,
)
from parlour.games.psi_squad.actions import ChooseCypher, Guess
from parlour.games.psi_squad.state import score
from parlour.games.telepathic.grid import (
    ACTION_CARDS,
    COLOURS,
    LINE,
    SHAPES,
    SIZE,
    TILES,
    cell_name,
    set_names,
)
from parlour.games.telepathic.options import DISCARD
from parlour.match.config import MatchConfig
from parlour.match.table import Table
from parlour.ui.esp.board import cell_name as esp_cell_name
from parlour.ui.espeers.cards import card_face, card_label
from parlour.ui.espeers.controls import HELP
from parlour.ui.tutorial import TutorialSession, lesson_for
from tests.games.test_esp import build, line
from tests.games.test_espeers import (
    A_HEAD,
    B_HEAD,
    B_SLAM,
    act,
    autos,
    barrier_down,
    deck_with,
    end_turn,
    stacked_table,
    started,
)
from tests.ui.test_tutorial import run_bots

ROOT = Path(__file__).resolve().parents[2]
PAGE = unescape((ROOT / "index.html").read_text(encoding="utf-8"))
CARDS_DOC = " ".join((ROOT / "docs" / "espeers-cards.md").read_text(encoding="utf-8").split())
CARDS_JSON = json.loads((ROOT / "py/parlour/games/espeers/cards.json").read_text())

_WORDS = "zero one two three four five six seven eight nine ten eleven twelve sixteen"
NUMBER_WORDS = {w: n for w, n in zip(_WORDS.split(), [*range(13), 16], strict=True)}
ORDINALS = {w: n for n, w in enumerate(("zeroth", "first", "second", "third", "fourth"))}
E, SE, SW, W, NW, NE = range(6)


def number(said: str) -> int:
    """A number as a sentence says it: "3", "three", "Sixteen"."""
    return int(said) if said.isdigit() else NUMBER_WORDS[said.lower()]


def plain(html: str) -> str:
    """Text without its tags, its white space made single."""
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def section_html(ident: str) -> str:
    start = PAGE.index(f'<section id="{ident}"')
    return PAGE[start : PAGE.index("</section>", start)]


def said(pattern: str, text: str) -> tuple[str, ...]:
    """The numbers (the groups) of the one sentence `pattern` finds in `text`."""
    found = re.search(pattern, text)
    assert found, f"no sentence {pattern!r} (reworded? point the test at it again)"
    return found.groups()


# -- ESP ---------------------------------------------------------------------------------------

ESP = GAMES["esp"]
ESP_RULES = plain(section_html("rules-esp"))
SYMBOL_CODES = {"circle": "o", "cross": "x", "waves": "~", "square": "#", "star": "*"}


def test_esp_rules_page_numbers_are_the_engines():
    """The tiles each seat gets (its tray at the start), a set's length, the repetition."""
    tiles, each, kinds = said(
        r"(\w+) tiles per player in that player's colour: (\w+) each of the (\w+) Zener symbols",
        ESP_RULES,
    )
    state = ESP.initial_state(MatchConfig("esp", "m-rules-esp", ("Ada", "Bo")).setup(), bytes(32))
    tray = Counter(ESP.seat_view(state, 0, None)["me"]["tray"])
    assert sum(tray.values()) == number(tiles)
    assert set(tray.values()) == {number(each)} and len(tray) == number(kinds)
    (length,) = said(r"A set is (\w+) consecutive cells", ESP_RULES)
    assert number(length) == SET_LENGTH
    (time,) = said(r"the same position arises for the (\w+) time", ESP_RULES)
    assert ORDINALS[time] == repetitions_for_draw(state.setup)


def test_esp_cell_names_on_the_rules_page_are_the_boards():
    first, steps, second = said(
        r'So "([^"]+)" is (\w+) cells to the right of the centre, and "([^"]+)" is one step '
        r"further, down and to the right",
        ESP_RULES,
    )
    east = step((0, 0), E, number(steps))
    assert esp_cell_name(east) == first
    assert esp_cell_name(step(east, SE)) == second


def test_esps_scoring_example_on_its_rules_page():
    """The example's line is built from its own words: the mover's tile jumps into its place
    in a line of the other four, and the engine counts the set."""
    mover, moved, reads = said(
        r"Example: (\w+) moves an? (\w+) into a line that now reads ([^.]+), all symbol-up\.",
        ESP_RULES,
    )
    tiles = [tuple(part.split()) for part in reads.split(", ")]
    seat = SEAT_COLOURS.index(mover)
    gap = tiles.index((mover, moved))
    codes = [f"{owner[0]}{SYMBOL_CODES[symbol]}" for owner, symbol in tiles]
    codes[gap] = "."
    target = (gap, 0)
    # the mover's tile two cells south-east of its place, a hidden tile between to jump over,
    # and one more hidden tile, so the line's two halves are one group
    placed = {**line((0, 0), E, " ".join(codes))}
    hidden = [step(target, SE), step(target, SW)]
    for cell, symbol in zip(hidden, ("circle", "cross"), strict=True):
        placed[cell] = f"{SEAT_COLOURS[1 - seat][0]}{SYMBOL_CODES[symbol]}?"
    placed[step(target, SE, 2)] = f"{mover[0]}{SYMBOL_CODES[moved]}"
    state, _ = build(placed, to_move=seat)
    after = ESP.apply(state, seat, Move(step(target, SE, 2), NW))
    assert after.board[target].owner == seat and after.board[target].symbol.value == moved

    up, different = said(
        r"all symbol-up\. (\w+) symbol-up tiles, (\w+) different symbols", ESP_RULES
    )
    (window,) = after.sets
    assert len(window) == number(up) == len({after.board[c].symbol for c in window})
    assert number(different) == len(window)
    most, many, other, few, winner, won, lost = said(
        r"(\w+) owns (\w+) of them and (\w+) (\w+), so (\w+) wins (\d+):(\d+)\.", ESP_RULES
    )
    counts = Counter(SEAT_COLOURS[after.board[c].owner] for c in window)
    assert counts == {most: number(many), other: number(few)}
    assert (number(won), number(lost)) == (
        counts[winner],
        counts[other if winner == most else most],
    )
    assert after.outcome.termination is Termination.WIN
    assert after.outcome.winners == {SEAT_COLOURS.index(winner)}


def test_esps_tie_example_on_its_rules_page_goes_to_the_mover():
    """The tie the example names is the text's figure 5: a move that completes sets of ten
    different tiles. Every new set holds the moved tile, so two sets share it and hold at most
    nine: it takes three (a line of six, two sets, crossing a line of five)."""
    sets, tiles, split_a, split_b, mover = said(
        r"Had the move completed (\w+) sets made of (\w+) different tiles split (\d+):(\d+), "
        r"(\w+) would still win as the mover",
        ESP_RULES,
    )
    placed = {
        **line((0, 0), E, "Lo . L~ D# L* Do"),
        **line((1, -2), SE, "Lo D~ . L# D*"),
        (0, 1): "Lx",
        (-1, 2): "Dx",
    }
    seat = SEAT_COLOURS.index(mover)
    state, _ = build(placed, to_move=seat)
    after = ESP.apply(state, seat, Move((-1, 2), NE))
    union = {c for window in after.sets for c in window}
    assert len(after.sets) == number(sets) and len(union) == number(tiles)
    assert sorted(Counter(after.board[c].owner for c in union).values()) == sorted(
        [int(split_a), int(split_b)]
    )
    assert after.outcome.termination is Termination.WIN and after.outcome.winners == {seat}


def lesson_walk(game: str) -> tuple[list[tuple[str, object, object, dict]], TutorialSession]:
    """A lesson followed to its end: each step's words, the state its words are shown over, the
    state after its press (and the bot's replies), and its event."""
    s = TutorialSession(lesson_for(game))
    seen = []
    while s.step is not None:
        current, before = s.step, s.table.state
        s.handle(current.event)
        run_bots(s)
        seen.append((current.say, before, s.table.state, current.event))
    return seen, s


def at(walk: list, opening: str) -> tuple[str, object, object, dict]:
    (found,) = [w for w in walk if w[0].startswith(opening)]
    return found


def test_esps_lesson_states_the_boards_numbers():
    walk, session = lesson_walk("esp")
    say, first, _, _ = walk[0]
    down, left = said(r"(\w+) tiles are already down; each of you has (\w+) left to place", say)
    assert len(first.board) == number(down)
    for seat in (0, 1):  # each seat's tray, as its own screen shows it
        tray = ESP.seat_view(first, seat, session.table.stores[seat])["me"]["tray"]
        assert len(tray) == number(left)
    for opening, pattern in (
        ("The two-touch rule", r"The highlighted cell touches (\w+):"),
        ("Enclosure", r"The highlighted cell touches (\w+) tiles"),
    ):
        say, state, _, event = at(walk, opening)
        (touches,) = said(pattern, say)
        cell = tuple(int(n) for n in event["cell"].split(","))
        assert sum(n in state.board for n in neighbours(cell)) == number(touches), opening

    ours, our_symbols, theirs, their_symbols = said(
        r"the five tiles of the set are (\w+) of yours \(([^)]*)\) and (\w+) of Bo's "
        r"\(([^)]*)\), so you win",
        session.lesson.done,
    )
    final = session.table.state
    union = {c for window in final.sets for c in window}
    for seat, count, symbols in ((0, ours, our_symbols), (1, theirs, their_symbols)):
        mine = [final.board[c].symbol.value for c in union if final.board[c].owner == seat]
        assert len(mine) == number(count) and sorted(mine) == sorted(symbols.split(", "))
    assert final.outcome.winners == {0}


# -- ESPEERS: what the engine does, measured once ----------------------------------------------

ESPEERS = GAMES["espeers"]
ESPEERS_RULES = plain(section_html("rules-espeers"))


@cache
def measured() -> dict[str, int]:
    """ESPEERS' numbers as the engine plays them: PSI and hand at the start, the mulligans'
    prices, a barrier's cost and points, the draw of a turn, the hand after a Discard, a
    barrier attack's damage."""
    got: dict[str, int] = {}
    table = stacked_table((deck_with(A_HEAD), deck_with(B_HEAD)))
    autos(table)
    ada = table.state.players[0]
    got["start psi"], got["hand"] = ada.psi, ada.hand
    for price in ("first mulligan", "second mulligan"):
        pool = table.state.players[0].pool
        act(table, 0, Mulligan(False))
        got[price] = pool - table.state.players[0].pool

    table = started((deck_with(A_HEAD), deck_with(B_HEAD)))
    pool = table.state.players[0].pool
    act(table, 0, PlaceBarrier("mind-spike"))
    act(table, 1, Predict(None))
    barrier = table.state.players[0].barrier
    got["barrier cost"], got["barrier points"] = pool - table.state.players[0].pool, barrier.points
    attack = BarrierAttack(table.stores[0].opening(barrier.label))
    hand = table.state.players[1].hand
    end_turn(table)
    got["draw"] = table.state.players[1].hand - hand
    act(table, 1, Pass())  # Bo's Active phase ends with seven cards: Discard
    assert table.state.pending.kind == "discard"
    act(table, 1, table.legal(1)[0])
    got["discard down to"] = table.state.players[1].hand
    act(table, 0, Pass())  # Ada's turn 3: her barrier may attack
    psi = table.state.players[1].psi
    act(table, 0, attack)
    got["attack damage"] = psi - table.state.players[1].psi
    return got


@cache
def barrier_hit(damage: int) -> dict[str, int]:
    """Bo's PK card of `damage` damage on Ada's barrier: what the barrier absorbed (the points
    that went to Spent), what Ada still takes, and the PSI she loses."""
    (card,) = [c for c in B_SLAM if CARDS[c].effects == (("damage", damage),)]
    table = barrier_down(head_b=B_SLAM)
    ada = table.state.players[0]
    assert ada.spent == 0 and ada.barrier is not None
    psi = ada.psi
    act(table, 1, Play(card))
    act(table, 0, Pass())
    act(table, 1, Pass())
    pending = table.state.pending
    absorbed = table.state.players[0].spent
    rest = 0
    if pending is not None:
        assert pending.kind == "assign" and pending.seat == 0
        rest = pending.amount
        act(table, 0, AssignDamage(rest, 0))
    assert table.state.players[0].barrier is None
    return {"absorbed": absorbed, "rest": rest, "lost": psi - table.state.players[0].psi}


def test_espeers_rules_page_numbers_are_the_engines():
    m = measured()
    text = ESPEERS_RULES
    checks = [
        (r"Each of you has (\d+) PSI", [m["start psi"]]),
        (
            r"A deck of exactly (\d+) cards per player, with no more than (\w+) copies",
            [DECK_SIZE, MAX_COPIES],  # what deck_problem refuses a deck by
        ),
        (r"(\d+) PSI points per player", [m["start psi"]]),
        (
            r"Put your (\d+) PSI in your Pool, shuffle your deck and draw (\d+) cards",
            [m["start psi"], m["hand"]],
        ),
        (
            r"shuffle the hand back and draw (\d+) fresh cards\. The first mulligan is free; each "
            r"one after that costs (\d+) PSI",
            [m["hand"], m["second mulligan"]],
        ),
        (r"Draw: draw (\w+) card", [m["draw"]]),
        (r"if you hold more than (\d+) cards, discard down to (\d+)", [m["hand"]] * 2),
        (r"move (\d+) PSI from your Pool onto it", [m["barrier cost"]]),
        (r"the barrier is discarded and its (\d+) points go to your Spent", [m["barrier points"]]),
        (r"absorbs up to (\d+) points of that one damage event", [barrier_hit(3)["absorbed"]]),
        (r"move its points to Spent to deal (\d+) damage", [m["attack damage"]]),
        (r"each further one moves (\d+) PSI from Pool to Spent", [m["second mulligan"]]),
        (r"A barrier's (\d+) PSI come from your Pool", [m["barrier cost"]]),
        (r"A barrier blocks up to (\d+) damage of a single", [barrier_hit(3)["absorbed"]]),
        (r"you discard down to (\w+) cards of your choice", [m["discard down to"]]),
        (r"stay in your hand even above (\w+),", [m["discard down to"]]),
    ]
    assert m["first mulligan"] == 0  # "The first mulligan is free"
    for pattern, expected in checks:
        assert [number(n) for n in said(pattern, text)] == expected, pattern


def test_espeers_rules_page_cycling_is_the_engines():
    """The table and the rulings' sentence, symbol by symbol, against what cycling does."""
    table = section_html("rules-espeers")
    table = table[table.index("<th>Cycling ability</th>") : table.index("<h3>Barriers</h3>")]
    rows = dict(re.findall(r"<tr><td>(\w+)</td><td>([^<]+)</td></tr>", table))
    assert {s.lower() for s in rows} == set(CYCLING)
    for symbol, ability in rows.items():
        expected = CYCLING[symbol.lower()]
        if expected is None:
            assert ability == "Nothing"
            continue
        verb, n = expected
        words = "Regain {n} PSI from Spent" if verb == "regain" else "Draw {n} card"
        assert re.fullmatch(words.format(n=n) + "s?", ability), (symbol, ability)
    ruling = said(
        r"Cycling by symbol: circle nothing, star regain (\d+) from Spent, square regain (\d+) "
        r"from Spent, cross draw (\d+), waves draw (\d+)\.",
        ESPEERS_RULES,
    )
    assert [int(n) for n in ruling] == [CYCLING[s][1] for s in ("star", "square", "cross", "waves")]


def test_espeers_barrier_example_on_its_rules_page():
    dealt, absorbed, rest = said(
        r"your opponent's PK card deals (\d+) damage\. The barrier absorbs (\d+) \(those points "
        r"move to your Spent zone\) and is discarded; you take the remaining (\d+)",
        ESPEERS_RULES,
    )
    hit = barrier_hit(int(dealt))
    assert (hit["absorbed"], hit["rest"], hit["lost"]) == (int(absorbed), int(rest), int(rest))
    (small, points) = said(
        r"Had the attack dealt only (\d+), the barrier would absorb it and (\w+) of its points "
        r"would move to Spent",
        ESPEERS_RULES,
    )
    hit = barrier_hit(int(small))
    both = {"both": 2}.get(points) or number(points)
    assert (hit["absorbed"], hit["rest"], hit["lost"]) == (both, 0, 0)
    assert both == measured()["barrier points"]


@pytest.mark.parametrize(
    ("key", "pattern", "measure"),
    [
        ("barrier", r"with (\d+) PSI from your Pool on it", "barrier cost"),
        ("attack", r"to deal (\d+) damage to your opponent", "attack damage"),
        ("discard", r"to keep (\w+) in hand", "discard down to"),
    ],
)
def test_espeers_help_numbers_are_the_engines(key, pattern, measure):
    (n,) = said(pattern, HELP[key])
    assert number(n) == measured()[measure]


def test_espeers_lesson_states_the_psi_as_it_is():
    """Each number the lesson says, against the PSI and hands of the lesson's own game."""
    walk, session = lesson_walk("espeers")
    m = measured()

    def psi(state, seat: int) -> tuple[int, int, int]:
        p = state.players[seat]
        return p.pool, p.spent, p.psi

    say, first, _, _ = walk[0]
    (points,) = said(r"each of you has (\d+) points", say)
    assert psi(first, 0)[2] == psi(first, 1)[2] == int(points)

    say, state, _, _ = at(walk, "Your opening hand")
    six, cost = said(
        r"Your opening hand of (\w+): keep it \(a first mulligan is free, later "
        r"ones cost (\d+) PSI\)",
        say,
    )
    assert state.players[0].hand == number(six) and m["first mulligan"] == 0
    assert m["second mulligan"] == int(cost)

    say, _, _, _ = at(walk, "You go first")
    damage, price = said(r"Choose Mind Spike, a PK card: (\d+) damage for (\d+) PSI", say)
    assert CARDS["mind-spike"].effects == (("damage", int(damage)),)
    assert CARDS["mind-spike"].cost == int(price)

    say, before, after, _ = at(walk, "Play it:")
    (paid,) = said(r"(\d+) PSI moves from your Pool to Spent", say)
    assert psi(before, 0)[0] - psi(after, 0)[0] == psi(after, 0)[1] - psi(before, 0)[1] == int(paid)

    _, played, _, _ = at(walk, "The stack and Opportunity")
    say, drained, _, _ = at(walk, "Mind Drain resolved")
    moved, still = said(
        r"(\d+) of your PSI went from Pool to Spent \(not lost: you still have "
        r"(\d+)\)",
        say,
    )
    assert psi(drained, 0)[1] - psi(played, 0)[1] == int(moved)
    assert psi(played, 0)[0] - psi(drained, 0)[0] == int(moved) and psi(drained, 0)[2] == int(still)

    say, hit, _, _ = at(walk, "Bo took")
    took, left = said(r"Bo took (\d+) damage: that point left the game, so Bo has (\d+) PSI", say)
    assert psi(drained, 1)[2] - psi(hit, 1)[2] == int(took) and psi(hit, 1)[2] == int(left)

    say, before, after, _ = at(walk, "Cycle it")
    (regained,) = said(r"a star regains (\d+) PSI from Spent to your Pool", say)
    assert psi(after, 0)[0] - psi(before, 0)[0] == int(regained)

    say, _, _, _ = at(walk, "Barriers:")
    laid, absorbs = said(
        r"face down with (\d+) PSI from your Pool on it\. It absorbs up to "
        r"(\d+) damage of one attack",
        say,
    )
    _, before, after, _ = at(walk, "Lay it as your barrier")
    assert psi(before, 0)[0] - psi(after, 0)[0] == int(laid) == after.players[0].barrier.points
    assert barrier_hit(3)["absorbed"] == int(absorbs)

    (attack,) = said(r"discard it for (\d+) damage", session.lesson.done)
    assert int(attack) == m["attack damage"]


# -- ESPEERS: every card's text against its data -------------------------------------------------

CARD_DATA = {c["id"]: c for c in CARDS_JSON["cards"]}


def numbers_in(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def stated_effects(card: dict) -> list[int]:
    """The numbers a card's effects state, in order (a counter states none)."""
    return [n for verb, n in card["effects"] if "N" in CARDS_JSON["card_text"][verb]]


@pytest.mark.parametrize("card", list(CARD_DATA))
def test_each_cards_printed_text_and_face_say_its_data(card):
    data = CARD_DATA[card]
    printed = CARDS[card].printed()
    # the text is the wording of each of its effects (cards.json's card_text), in order, and
    # its numbers are the data's
    wording = " ".join(
        re.escape(CARDS_JSON["card_text"][verb])
        .replace("N", r"(\d+)")
        .replace(r"card\(s\)", "cards?")
        for verb, _ in data["effects"]
    )
    found = re.fullmatch(wording, printed)
    assert found, printed
    assert [int(n) for n in found.groups()] == numbers_in(printed) == stated_effects(data)
    face = card_face(card)
    (cost,) = [t for t in face.walk() if getattr(t, "attrs", {}).get("class") == "cost-n"]
    assert cost.text() == str(data["cost"])
    (lines,) = [t for t in face.walk() if getattr(t, "attrs", {}).get("class") == "text"]
    assert " ".join(child.text() for child in lines.children) == printed  # nothing cut off
    (foot,) = [t for t in face.walk() if getattr(t, "attrs", {}).get("class") == "cycle"]
    cycling = CYCLING[data["symbol"]]
    assert numbers_in(foot.text()) == ([] if cycling is None else [cycling[1]])
    label = card_label(card)
    assert said(r"costs (\d+) PSI", label) == (str(data["cost"]),)
    assert label.startswith(f"{data['name']}, {data['kind']},") and printed in label


def docs_pool() -> dict[str, tuple[str, int, list[tuple[str, int]], str]]:
    """docs/espeers-cards.md's pool: name -> (kind, cost, effects, symbol)."""
    pool = CARDS_DOC[CARDS_DOC.index("## The pool") : CARDS_DOC.index("Costs follow")]
    kinds = {"PK": pool[: pool.index("Impulse (")], "Impulse": pool[pool.index("Impulse (") :]}
    found = {}
    for kind, text in kinds.items():
        for name, cost, effects, symbol in re.findall(
            r"([A-Z][a-z]+(?: [A-Z][a-z]+)*) \((\d+): ([a-z0-9 ,]+?), "
            r"(circle|cross|waves|square|star)\)",
            text,
        ):
            parts = [e.split() for e in effects.split(", ")]
            found[name] = (
                kind,
                int(cost),
                [(p[0], int(p[1]) if len(p) > 1 else 1) for p in parts],
                symbol,
            )
    return found


@pytest.mark.parametrize("card", list(CARD_DATA))
def test_each_card_in_docs_espeers_cards_md_is_its_data(card):
    data = CARD_DATA[card]
    listed = docs_pool()
    assert listed[data["name"]] == (
        data["kind"],
        data["cost"],
        [tuple(e) for e in data["effects"]],
        data["symbol"],
    )


def test_docs_espeers_cards_md_pool_and_decks_are_the_data():
    assert sorted(docs_pool()) == sorted(c["name"] for c in CARD_DATA.values())
    (pool,) = said(r"## The pool \((\d+) cards\)", CARDS_DOC)
    assert int(pool) == len(CARDS)
    size, copies = said(
        r"## The starter decks \((\d+) cards each, at most (\d+) copies\)", CARDS_DOC
    )
    for deck in STARTER_DECKS.values():
        assert sum(deck["cards"].values()) == int(size) and max(deck["cards"].values()) <= int(
            copies
        )
    pays, of = said(r"Thought Leech pays back (\w+) of its (\w+)", CARDS_DOC)
    assert CARDS["thought-leech"].cost == number(of)
    assert dict(CARDS["thought-leech"].effects)["regain"] == number(pays)
    cycling = said(
        r"cycling \(circle nothing, star regain (\d+), square regain (\d+), cross draw (\d+), "
        r"waves draw (\d+)\)",
        CARDS_DOC,
    )
    assert [int(n) for n in cycling] == [
        CYCLING[s][1] for s in ("star", "square", "cross", "waves")
    ]
    symbols = said(
        r"Both starters hold the same cycling symbols: (\d+) circle, (\d+) star, (\d+) square, "
        r"(\d+) cross and (\d+) waves",
        CARDS_DOC,
    )
    for deck in STARTER_DECKS.values():
        counts = Counter(CARDS[c].symbol for c in deck_list(deck["cards"]))
        assert [counts[s] for s in ("circle", "star", "square", "cross", "waves")] == [
            int(n) for n in symbols
        ]


@pytest.mark.parametrize("deck", list(STARTER_DECKS))
def test_docs_espeers_cards_md_says_each_starters_copies(deck):
    """Each card of the starter's bullet is counted by the number word before it ("three each
    of Mind Spike, Telekinetic Slam ...", "two Psychic Jab")."""
    name = STARTER_DECKS[deck]["name"]
    start = CARDS_DOC.index(f"- **{name}**")
    bullet = CARDS_DOC[start : CARDS_DOC.index(".", CARDS_DOC.index(":", start))]
    (pk,) = said(rf"\*\*{name}\*\* \(\w+, (\d+) PK\)", bullet)
    cards = STARTER_DECKS[deck]["cards"]
    assert sum(n for c, n in cards.items() if CARDS[c].kind == "PK") == int(pk)
    counted = {}
    for card in CARDS.values():
        for found in re.finditer(re.escape(card.name), bullet):
            words = re.findall(r"\b(one|two|three)\b", bullet[: found.start()])
            counted[card.id] = number(words[-1])
    assert counted == cards


# -- Telepathic --------------------------------------------------------------------------------

TELE = GAMES["telepathic"]
TELE_RULES = plain(section_html("rules-telepathic"))


def tele_start(**variant: object):
    config = MatchConfig("telepathic", "m-rules-tele", ("Mary", "Bob"), variant)
    return TELE.initial_state(config.setup(), bytes(32))


def test_telepathic_rules_page_numbers_are_the_engines():
    tiles, colours, colour_names, shapes, shape_names = said(
        r"(\d+) tiles, one for each mix of (\w+) colours \(([^)]*)\) and (\w+) shapes \(([^)]*)\)",
        TELE_RULES,
    )
    grid = tele_start().grid
    assert len(grid) == int(tiles) == len(set(grid)) and set(grid) == set(TILES)
    assert tuple(colour_names.split(", ")) == COLOURS and number(colours) == len(COLOURS)
    assert tuple(shape_names.split(", ")) == SHAPES and number(shapes) == len(SHAPES)
    (conditions,) = said(r"(\d+) condition cards, one per colour and one per shape", TELE_RULES)
    assert int(conditions) == len(COLOURS) + len(SHAPES)
    (three,) = said(
        r"whenever (\w+) tiles of that colour \(or shape\) sit in an unbroken", TELE_RULES
    )
    assert number(three) == LINE
    (cards,) = said(r"(\d+) action cards, listed below", TELE_RULES)
    assert int(cards) == len(ACTION_CARDS)
    (first,) = said(r"First game: only the (\w+) first-game cards, laid face up", TELE_RULES)
    assert number(first) == len(tele_start(mode="first").row)
    everything, row = said(r"all (\w+) are shuffled; (\w+) are laid face up as the row", TELE_RULES)
    standard = tele_start(mode="standard")
    assert number(everything) == len(standard.row) + len(standard.deck)
    assert number(row) == len(standard.row)
    fewest, most = said(r"but (\d+) to (\d+) cards are removed unseen", TELE_RULES)
    removed = [tele_start(mode="challenge", discard=n).removed for n in DISCARD.values]
    assert (min(removed), max(removed)) == (int(fewest), int(most))
    north_west, south_east = said(
        r"(\w\d) is the north-west corner, (\w\d) the south-east", TELE_RULES
    )
    assert (cell_name(0), cell_name(SIZE * SIZE - 1)) == (north_west, south_east)


def test_telepathics_action_card_table_is_the_card_data():
    html = section_html("rules-telepathic")
    html = html[html.index("<h3>Action cards</h3>") : html.index("<h3>Setting up</h3>")]
    rows = re.findall(
        r"<tr><td>([^<]+)</td><td>([^<]+)</td><td>[^<]+</td><td>([^<]*)</td></tr>", html
    )
    offered = {"Columns A–D": "columns", "Rows 1–4": "rows"}
    assert [
        (name, offered.get(sets, "quadrants"), first == "Yes") for name, sets, first in rows
    ] == [(c.name, c.sets, c.first_game) for c in ACTION_CARDS]
    assert all(sets in offered or "quadrants" in sets for _, sets, _ in rows)


def test_telepathics_lesson_states_the_row_and_the_sets():
    walk, _ = lesson_walk("telepathic")
    say, state, _, _ = at(walk, "Handing a card")
    (four,) = said(r"you give Bo one of the (\w+) action cards", say)
    assert number(four) == len(state.row)
    say, _, _, _ = at(walk, "Choosing a set")
    (rows,) = said(r"the card acts on one of (\w+) rows", say)
    assert number(rows) == len(set_names("rows"))


# -- Psi Squad ---------------------------------------------------------------------------------

PSI = GAMES["psi-squad"]
PSI_RULES_HTML = section_html("rules-psi-squad")
PSI_RULES = plain(PSI_RULES_HTML)


def psi_table(names: tuple[str, ...], cyphers: list[str]) -> Table:
    """Every seat's cypher sealed; the first seat to guess (chosen through the seed)."""
    config = MatchConfig("psi-squad", "m-rules-psi", names, {"length": len(cyphers[0])})
    seed = next(
        bytes([k]) * 32
        for k in range(256)
        if PSI.initial_state(config.setup(), bytes([k]) * 32).first == 0
    )
    table = Table.new(PSI, config, seed, range(len(names)))
    for seat, cypher in enumerate(cyphers):
        assert table.act(seat, ChooseCypher(cypher)).ok
    return table


def guess(table: Table, guesser: int, target: int, digits: str) -> None:
    """`guesser` guesses; the target's own device answers."""
    assert PSI.to_move(table.state) == {guesser}
    assert table.act(guesser, Guess(target, digits)).ok
    answer = PSI.auto_action(table.state, target, table.stores[target])
    assert table.act(target, answer).ok


def test_psi_squads_worked_example_played_through_the_engine():
    """The example's table, played as a game of four (Dee, between Cal and Ana, guesses
    another cypher for nothing): every number of every row (the sums too, which
    tests/test_words.py reads only the results of), the start, and the paragraph after."""
    example = PSI_RULES_HTML[PSI_RULES_HTML.index('<div class="example">') :]
    head = plain(example[: example.index("</p>")])
    top, owner, cypher, others, start = said(
        r"Example \(standard game, Max (\d+)\): (\w+)'s cypher is (\d+)\. ([\w, ]+) all start at "
        r"status (\d+)\.",
        head,
    )
    players = re.split(r", | and ", others)
    names = (*players, owner)
    dee = len(players)
    filler = {p: str(5 + i) * len(cypher) for i, p in enumerate(players)}
    table = psi_table(names, [*filler.values(), cypher])
    assert table.state.max == int(top) and table.state.length == 4  # the standard game
    assert table.state.status[:dee] == (int(start),) * dee

    rows = re.findall(r"<tr>((?:<td>[^<]*</td>){7})</tr>", example[: example.index("</table>")])
    assert len(rows) == 4
    for row in rows:
        who, digits, correct, spotted, new, change, status = re.findall(r"<td>([^<]*)</td>", row)
        seat = names.index(who)
        while PSI.to_move(table.state) != {seat}:  # a turn between that scores nothing
            (mover,) = PSI.to_move(table.state)
            guess(table, mover, next(t for t in range(dee) if t != mover), "9" * len(cypher))
            assert table.state.history[-1].change == 0
        before = table.state
        guess(table, seat, dee, digits)
        record = table.state.history[-1]
        assert (int(correct), int(spotted)) == (record.correct, record.spotted), row
        sums = [int(n) for n in re.findall(r"\d+", new)]
        assert sums == ([record.correct, 2 * record.spotted] if "+" in new else []) + [record.value]
        value, previous, gained = said(r"^(\d+) − (\d+) = ([+−]?\d+)$", change)
        assert (int(value), int(previous)) == (record.value, before.values[dee]), row
        assert int(gained.replace("+", "").replace("−", "-")) == record.change, row
        was, now = said(r"^(\d+) → (\d+)$", status)
        assert (int(was), int(now)) == (before.status[seat], table.state.status[seat]), row
    assert table.state.guessed[dee] and table.state.values[dee] == table.state.max

    after = plain(example[example.index("</table>") :])
    history = [r for r in table.state.history if r.target == dee]
    first = history[0]
    digits, correct, ones, both = said(
        r"(\d+) scores only (\d+) correct because the cypher holds just (\w+) 1s; (\w+) sit in "
        r"the first two places, so both are spotted",
        after,
    )
    assert (digits, int(correct)) == (first.digits, first.correct)
    assert number(ones) == cypher.count("1") == first.correct == first.spotted
    assert both == "both" and first.spotted == 2
    (every,) = said(r"(\d+) has every digit of the cypher, but none in the right place", after)
    assert score(cypher, every) == (len(cypher), 0)
    gains = [r.change for r in history if r.guesser == 0]
    a, b, total, ben, cal, left = said(
        r"Ana's total gain, (\d+) \+ (\d+) = (\d+), minus Ben's (\d+) and Cal's (\d+), leaves "
        r"(\d+), the final Value",
        after,
    )
    assert [int(a), int(b)] == gains and int(total) == sum(gains)
    losses = {names[r.guesser]: -r.change for r in history if r.guesser != 0}
    assert losses == {"Ben": int(ben), "Cal": int(cal)}
    assert int(left) == sum(r.change for r in history) == table.state.values[dee]

    standing, bonus_max, bonus_value, bonus = said(
        r"Had Dee's been the last cypher standing at Value (\d+), Dee would have added "
        r"(\d+) − (\d+) = (\d+)\.",
        after,
    )
    # a game of three where Dee's cypher is left at that Value: Ben's guess made it so
    (at_value,) = [r.digits for r in history if r.value == int(standing)]
    last = psi_table(("Ana", "Ben", "Dee"), ["5555", "6666", cypher])
    guess(last, 0, 1, "6666")  # Ben's cypher is guessed
    guess(last, 1, 2, at_value)
    guess(last, 2, 0, "5555")  # Ana's too: Dee's is the last
    assert last.state.values[2] == int(standing) == int(bonus_value)
    assert last.state.bonus == (2, int(bonus)) and int(bonus_max) == last.state.max


def test_psi_squads_lesson_states_the_engines_scores():
    walk, session = lesson_walk("psi-squad")
    say, first, _, _ = walk[0]
    start, digits = said(r"status starts at (\d+), the Max for (\d+) digits", say)
    assert first.max == int(start) and first.length == int(digits)
    assert set(first.status) == {int(start)}

    say, state, _, _ = at(walk, "Correct and spotted")
    guessed, correct, spotted, value, was, now, up = said(
        r"your ([\d ]+) had (\d+) correct .* and (\d+) spotted .* here (\d+); the guesser's "
        r"status moves by the change in Value, (\d+) to (\d+), so yours went up (\d+)\.",
        say,
    )
    (record,) = [r for r in state.history if r.guesser == 0]
    assert record.digits == guessed.replace(" ", "")
    assert (record.correct, record.spotted, record.value) == (
        int(correct),
        int(spotted),
        int(value),
    )
    assert (int(was), int(now), int(up)) == (first.values[1], record.value, record.change)
    say, state, _, _ = at(walk, "Notes:")
    (all_of,) = said(r"All (\w+) of [\d, and]+ are in Bo's cypher", say)
    assert number(all_of) == record.correct

    final = session.table.state
    all_spotted, went, to, rose, top, kept, more = said(
        r"All (\d+) spotted: Bo's cypher is guessed\. Its Value went from (\d+) to (\d+), so "
        r"your status rose (\d+)\..* adds Max minus its "
        r"Value: (\d+) − (\d+), (\d+) more for you\.",
        session.lesson.done,
    )
    last = final.history[-1]
    assert last.guesser == 0 and last.spotted == final.length == int(all_spotted)
    assert (int(went), int(to), int(rose)) == (record.value, last.value, last.change)
    assert (int(top), int(kept)) == (final.max, final.values[0])
    assert final.bonus == (0, int(more))
