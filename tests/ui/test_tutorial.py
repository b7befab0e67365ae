"""The tutorials in CPython: every lesson's step is reachable (its thing to press is on screen
and highlighted), every press completes its step, every scripted move is legal, wrong presses
change nothing, and the app routes #learn-<game>."""

from __future__ import annotations

import json

import pytest

from parlour.ui.app import App
from parlour.ui.tree import Node, to_html
from parlour.ui.tutorial import (
    HIGHLIGHT,
    LESSONS,
    TutorialSession,
    lesson_for,
)

GAMES = sorted(LESSONS)


def highlighted(tree: Node) -> list[Node]:
    return [
        n
        for n in tree.walk()
        if isinstance(n, Node) and HIGHLIGHT in n.attrs.get("class", "").split()
    ]


def run_bots(s: TutorialSession) -> None:
    for _ in range(20):
        if not s.bot_due():
            return
        assert s.bot_move(), s.message
    raise AssertionError("the bot never stopped")


def follow(s: TutorialSession) -> None:
    """Follow the highlights to the end of the script, as a learner would."""
    steps = s.lesson.steps
    while s.step is not None:
        step, index = s.step, s.index
        marked = highlighted(s.render())
        assert len(marked) == 1, (index, step.say)
        for key, value in step.event.items():
            assert marked[0].attrs.get(f"data-{key}") == value, (index, key)
        moved = s.table.match.step
        s.handle(step.event)
        assert s.index == index + 1, (index, s.message)
        if step.moves:
            assert s.table.match.step > moved, (index, s.message)
        run_bots(s)
    assert s.index == len(steps)


@pytest.mark.parametrize("game", GAMES)
def test_every_step_is_highlighted_and_completed_by_its_press(game):
    s = TutorialSession(lesson_for(game))
    follow(s)
    assert s.scripted is False
    over = s.table.match.result() is not None
    assert ("Done" if over else "Playing on") in s.render().text()
    (undo,) = s.render().find_all(data_cmd="undo")
    assert "disabled" in undo.attrs


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_press_is_answered_kindly_and_changes_nothing(game):
    s = TutorialSession(lesson_for(game))
    s.handle(s.lesson.steps[0].event)  # past the welcome
    run_bots(s)
    before, index = s.table.match.step, s.index
    s.handle({"cell": "99,99", "cmd": "nonsense"})
    assert s.table.match.step == before and s.index == index
    assert s.message.startswith("Not that one yet: press the")
    s.handle({"cmd": "undo"})
    assert s.table.match.step == before and "Undo is off" in s.message


@pytest.mark.parametrize("game", GAMES)
def test_each_step_is_said_in_the_live_region(game):
    s = TutorialSession(lesson_for(game))
    assert s.take_said() == s.lesson.steps[0].say
    s.handle(s.lesson.steps[0].event)
    run_bots(s)
    assert s.step is not None and s.step.say in s.take_said()


def test_esp_ends_with_the_set_and_the_learner_winning():
    s = TutorialSession(lesson_for("esp"))
    follow(s)
    result = s.table.match.result()
    assert result is not None and result.winners == frozenset({0})
    assert "Ada 3, Bo (bot) 2" in result.reason
    assert s.audit_result is not None and "verified" in type(s.audit_result).__name__.lower()


def test_the_app_routes_a_lesson_and_its_clicks_and_the_bot():
    app = App()
    out = json.loads(app.call(json.dumps({"op": "route", "hash": "#learn-esp"})))
    root = "#learn-esp .learn-root"
    assert root in json.dumps(out)
    assert "Learn ESP" in json.dumps(out)
    first = lesson_for("esp").steps[0]
    out = json.loads(
        app.call(json.dumps({"op": "click", "region": "learn:esp", "data": first.event}))
    )
    assert app.lessons().under_way["esp"].index == 1
    # the keyboard: a key on a cell is a press of that cell
    s = app.lessons().under_way["esp"]
    for step in s.lesson.steps[1:3]:
        app.call(json.dumps({"op": "click", "region": "learn:esp", "data": step.event}))
    out = json.loads(
        app.call(json.dumps({"op": "key", "region": "learn:esp", "key": "Enter", "cell": "4,2"}))
    )
    assert s.index == 4
    later = out["later"]
    assert later and later[0][1]["game"] == "learn:esp"
    app.call(json.dumps(later[0][1]))
    assert not s.pending and s.table.match.step == 18
    app.call(json.dumps({"op": "click", "region": "learn:esp", "data": {"cmd": "lesson-restart"}}))
    assert app.lessons().under_way["esp"] is not s and app.lessons().under_way["esp"].index == 0


@pytest.mark.parametrize("game", GAMES)
def test_no_secret_of_the_bot_is_on_any_screen_of_the_lesson(game):
    """The lesson draws the learner's seat view only: none of Bo's openings (nonces, the
    ESPEERS deck's secret seed) is in the HTML at any step."""
    s = TutorialSession(lesson_for(game))
    secrets = [o.nonce for o in s.table.stores[1].openings.values()]
    secrets += [
        str(o.value["seed"])
        for o in s.table.stores[1].openings.values()
        if isinstance(o.value, dict) and "seed" in o.value
    ]
    while s.step is not None:
        html = to_html(s.render())
        assert not [x for x in secrets if x in html], s.index
        s.handle(s.step.event)
        run_bots(s)
        secrets += [o.nonce for o in s.table.stores[1].openings.values()]


def test_psi_squad_ends_with_the_bonus_of_the_last_cypher():
    s = TutorialSession(lesson_for("psi-squad"))
    follow(s)
    result = s.table.match.result()
    assert result is not None and result.winners == frozenset({0})
    assert "Ada 22, Bo (bot) 14" in result.reason


def test_telepathic_ends_with_both_partners_winning_and_a_clean_audit():
    s = TutorialSession(lesson_for("telepathic"))
    follow(s)
    result = s.table.match.result()
    assert result is not None and result.winners == frozenset({0, 1})
    assert type(s.audit_result).__name__ == "Verified"


def test_espeers_goes_on_freely_against_the_real_bot_after_the_script():
    s = TutorialSession(lesson_for("espeers"))
    follow(s)
    state = s.table.state
    assert state.players[0].barrier is not None, "Bo guessed wrong: the barrier stands"
    assert "Playing on" in s.render().text()
    s.handle({"cmd": "pass"})  # Ada ends her turn: now the real bot plays
    assert s.bot_due()
    assert s.bot_move()
    assert s.table.match.step > 0 and s.message


def test_a_lesson_that_goes_wrong_plays_on_freely_with_a_sentence():
    s = TutorialSession(lesson_for("esp"))
    s.pending.append(lambda table: "not a move")
    assert s.bot_due()
    s.bot_move()
    assert s.step is None and "could not make its scripted move" in s.message


@pytest.mark.parametrize("game", GAMES)
def test_every_screen_of_a_lesson_is_html_the_parser_keeps_as_it_is(game):
    from tests.ui.test_tree_html import problems

    s = TutorialSession(lesson_for(game))
    while s.step is not None:
        assert problems(s.render()) == [], s.index
        s.handle(s.step.event)
        run_bots(s)
    assert problems(s.render()) == []


def run_to(game: str, say: str) -> TutorialSession:
    """A lesson followed up to the step whose words start with `say`."""
    s = TutorialSession(lesson_for(game))
    while s.step is not None and not s.step.say.startswith(say):
        s.handle(s.step.event)
        run_bots(s)
    assert s.step is not None, say
    return s


def test_esps_words_say_what_the_board_shows():
    from parlour.games.esp.hexgrid import neighbours

    s = run_to("esp", "Enclosure")
    state, game = s.table.state, s.game
    assert game.placement_problem(state, (2, -1)) == "That would enclose a tile on all six sides."
    assert sum(n in state.board for n in neighbours((2, -1))) == 4
    s.handle(s.step.event)
    assert s.message == "That would enclose a tile on all six sides."
    s = run_to("esp", "Bo jumped")
    assert s.game.pin_problem(s.table.state, (1, 0)).startswith("That tile is pinned")
    s.handle(s.step.event)
    assert s.message.startswith("That tile is pinned")


def test_telepathics_words_say_what_the_grid_would_do():
    from parlour.games.telepathic.grid import CARDS_BY_ID, apply_card, holds

    s = run_to("telepathic", "Choosing a set")
    state = s.table.state
    card = CARDS_BY_ID[state.row[state.handed]]
    assert card.name == "Shift east"
    assert holds(apply_card(state.grid, card, 1), "orange")  # row 2: Ada's lose condition
    row_1 = apply_card(state.grid, card, 0)
    assert holds(row_1, "green") and holds(row_1, "star") and not holds(row_1, "orange")


def test_espeers_words_match_the_psi_after_each_step():
    s = run_to("espeers", "Mind Drain resolved")
    players = s.table.view(0)["players"]
    assert (players[0]["pool"], players[0]["spent"]) == (7, 3)
    s = run_to("espeers", "Bo took 1 damage")
    players = s.table.view(0)["players"]
    assert players[1]["pool"] + players[1]["spent"] == 9
    assert s.table.view(0)["me"]["hand"][4] == "second-wind"


def test_psi_squad_s_seal_and_guess_steps_take_the_keyboard_s_enter_too():
    s = TutorialSession(lesson_for("psi-squad"))
    sealed = guessed = False
    while s.step is not None and not guessed:
        event = s.step.event
        if event.get("cmd") in ("seal-cypher", "guess"):
            before = s.table.match.step
            s.handle({"cmd": "key", "key": "Enter"})
            assert s.table.match.step > before, s.message
            sealed, guessed = True, event["cmd"] == "guess"
        else:
            s.handle(event)
        while s.bot_due():
            s.bot_move()
    assert sealed and guessed
