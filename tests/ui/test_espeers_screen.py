"""The ESPEERS table in CPython: what each seat's tree holds, every prompt, every click.

The decks are stacked (tests.games.test_espeers.stacked_table), so every hand is known: Ada
(seat 0, first) opens with A_HEAD, Bo with B_HEAD.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from parlour.fair.store import PrivateStore
from parlour.games.espeers.actions import Mulligan, Pass, Play
from parlour.games.espeers.cards import CARDS, STARTER_DECKS, deck_list
from parlour.games.espeers.hands import deck_order
from parlour.match.table import Table
from parlour.ui.espeers.cards import (
    NAME_ROOM,
    card_back,
    card_face,
    card_label,
    cycle_text,
    name_width,
)
from parlour.ui.espeers.screen import EspeersScreen, deck_name
from parlour.ui.help import help_key
from parlour.ui.play import PlaySession
from parlour.ui.tree import Node, to_html
from tests.games.test_espeers import (
    A_HEAD,
    B_HEAD,
    DECK_SIZE,
    PRIVATE_SEED,
    config,
    deck_with,
    espeers,
    seed_with_first,
    stacked_table,
)

B_FEEDBACK = ["feedback", "null-field", "psychic-rebuke", "mind-spike", "second-wind", "focus"]


def session(head_b: list[str] = B_HEAD, keep: bool = True) -> PlaySession:
    table = stacked_table((deck_with(A_HEAD), deck_with(head_b)))
    s = PlaySession(table, EspeersScreen())
    if keep:
        take(s, 0)
        s.handle({"cmd": "keep"})
        take(s, 1)
        s.handle({"cmd": "keep"})
        take(s, 0)
    return s


def take(s: PlaySession, seat: int) -> Node:
    """The hand-off screen names `seat`; its player takes the device."""
    tree = s.render()
    if s.viewer is None:
        assert tree.find_all(data_role="handoff")
        assert s.names[seat] in tree.text()
        s.handle({"cmd": "take-device"})
    assert s.viewer == seat
    return s.render()


def hand_cards(tree: Node) -> list[str]:
    (hand,) = tree.find_all(data_role="hand")
    return [
        n.attrs["data-card"] for n in hand.walk() if isinstance(n, Node) and "data-card" in n.attrs
    ]


def faces(tree: Node) -> list[str]:
    return [
        n.attrs["data-card"]
        for n in tree.walk()
        if isinstance(n, Node) and "data-card" in n.attrs and n.tag == "svg"
    ]


def click_card(s: PlaySession, card: str) -> None:
    slot = s.table.view(s.viewer)["me"]["hand"].index(card)
    s.handle({"cmd": "card", "slot": str(slot)})


def play(s: PlaySession, card: str) -> None:
    click_card(s, card)
    s.handle({"cmd": "play"})


# -- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize("card", list(CARDS))
def test_every_card_face_has_its_name_cost_kind_symbol_text_and_cycling(card):
    info = CARDS[card]
    html = to_html(card_face(card))
    assert info.name in html and f">{info.cost}<" in html and info.kind.upper() in html
    assert f"#zener-{info.symbol}" in html and cycle_text(card) in html
    words = " ".join(re.findall(r">([^<]+)</text>", html))
    for word in info.printed().split():
        assert word in words
    assert card_label(card).startswith(f"{info.name}, {info.kind}, costs {info.cost} PSI")


def _name_text(card: str) -> Node:
    (name,) = [
        n for n in card_face(card).walk() if isinstance(n, Node) and n.attrs.get("class") == "name"
    ]
    return name


@pytest.mark.parametrize(
    ("card", "squeezed"),
    [
        ("mental-block", True),
        ("brain-freeze", True),
        ("clairvoyance", True),
        ("second-wind", True),
        ("telekinetic-slam", True),
        ("psychic-jab", False),
        ("mind-spike", False),
        ("focus", False),
    ],
)
def test_a_long_name_is_squeezed_clear_of_the_cost_circle(card, squeezed):
    """The cost circle ends at x 28.5: a name is drawn within NAME_ROOM centred at NAME_X, and
    one that would be wider (12-character names too) is squeezed to exactly that room."""
    name = _name_text(card)
    assert float(name.attrs["x"]) - NAME_ROOM / 2 > 28.5 + 2
    assert float(name.attrs["x"]) + NAME_ROOM / 2 < 118.5 - 2
    if squeezed:
        assert name.attrs["textLength"] == str(NAME_ROOM)
        assert name.attrs["lengthAdjust"] == "spacingAndGlyphs"
    else:
        assert "textLength" not in name.attrs and name_width(CARDS[card].name) <= NAME_ROOM


def test_a_card_back_shows_nothing_of_any_card():
    html = to_html(card_back())
    assert not any(CARDS[c].name in html for c in CARDS) and "data-card" not in html


# -- what each seat sees ---------------------------------------------------------------------


def test_the_seat_on_screen_sees_its_own_hand_face_up_and_the_other_as_backs():
    s = session()
    tree = s.render()
    assert hand_cards(tree) == sorted(A_HEAD)
    (them,) = tree.find_all(data_seat="1")
    assert "opponent" in them.attrs["class"]
    (backs,) = them.find_all(data_role="hand-backs")
    assert (
        "Hand · 6" in backs.text() and len(backs.find_all(**{"class": "card-art back small"})) == 6
    )
    # no face-up card anywhere but Ada's own hand (no stack, no discard yet)
    assert sorted(faces(tree)) == sorted(A_HEAD)


def test_a_view_does_not_change_when_the_other_seat_s_secrets_do():
    """Secret independence: give Bo a different private deck order; Ada's screen is the same."""
    s = session()
    play(s, "psychic-jab")
    take(s, 1)
    s.handle({"cmd": "pass"})
    take(s, 0)
    before = to_html(s.render())
    other = PrivateStore(s.table.stores[1].context)
    deck = dict(s.table.stores[1].value("deck"))
    deck["seed"] = "ff" * 32
    other.commit("deck", deck)
    s.table.stores[1] = other
    assert to_html(s.render()) == before


def test_the_hand_off_screen_shows_no_card_of_either_hand():
    s = session()
    play(s, "mind-spike")
    tree = s.render()
    assert s.viewer is None and tree.find_all(data_role="handoff")
    assert faces(tree) == [] and not tree.find_all(data_role="hand")
    assert "Ada plays Mind Spike for 1 PSI" in tree.text()


def test_your_own_barrier_card_is_shown_to_you_only():
    s = session()
    click_card(s, "mind-spike")
    s.handle({"cmd": "barrier"})
    tree = take(s, 1)  # Bo is asked to guess
    (barrier,) = tree.find_all(data_seat="0")[0].find_all(data_role="barrier")
    assert faces(barrier) == [] and "Barrier · 2 PSI" in barrier.text()
    assert tree.find_all(aria_label="Guess the barrier")
    s.handle({"cmd": "predict", "symbol": "circle"})  # wrong: the barrier stays
    tree = take(s, 0)
    (mine,) = tree.find_all(data_seat="0")[0].find_all(data_role="barrier")
    assert faces(mine) == ["mind-spike"]
    assert "Your barrier: Mind Spike lies face down" in mine.text()  # said, and in its title
    assert "Mind Spike" in mine.attrs["title"]


# -- the stack and Opportunity -------------------------------------------------------------


def test_playing_suspends_the_card_on_the_visible_stack_and_hands_off_for_a_response():
    s = session(B_FEEDBACK)
    play(s, "telekinetic-slam")
    tree = take(s, 1)
    (stack,) = tree.find_all(data_role="stack")
    assert faces(stack) == ["telekinetic-slam"] and "Ada's" in stack.text()
    line = tree.find_all(data_role="opportunity")[0].text()
    assert "Ada's Telekinetic Slam is suspended" in line
    (pass_button,) = tree.find_all(data_cmd="pass")
    assert pass_button.text() == "Pass (Ada can still answer)"
    # Bo answers with an Impulse in Ada's turn: a response on the stack
    play(s, "feedback")
    tree = take(s, 0)
    assert faces(tree.find_all(data_role="stack")[0]) == ["telekinetic-slam", "feedback"]
    assert tree.find_all(data_cmd="pass")[0].text() == "Pass (Bo can still answer)"
    s.handle({"cmd": "pass"})
    tree = take(s, 1)
    assert tree.find_all(data_cmd="pass")[0].text() == "Pass (Feedback resolves)"
    s.handle({"cmd": "pass"})  # Feedback resolves; Bo holds Opportunity again
    assert s.viewer == 1 and "Feedback resolves" in s.message
    assert s.render().find_all(data_cmd="pass")[0].text() == "Pass (Ada can still answer)"


def test_the_pass_button_says_when_it_ends_the_phase_and_the_turn():
    s = session()
    tree = s.render()
    assert tree.find_all(data_cmd="pass")[0].text() == "Pass (end your Active phase)"
    s.handle({"cmd": "pass"})
    tree = take(s, 1)
    assert tree.find_all(data_cmd="pass")[0].text() == "Pass (Ada's turn ends)"
    s.handle({"cmd": "pass"})
    take(s, 1)  # Bo's own turn now: he refreshed and drew
    view = s.table.view(1)
    assert view["active"] == 1 and view["turn"] == 2 and len(view["me"]["hand"]) == 7


def test_nothing_to_do_while_the_other_seat_holds_opportunity_only_reading():
    s = session()
    s.handle({"cmd": "pass"})
    take(s, 1)
    s.handle({"cmd": "pass"})
    take(s, 1)
    s.handle({"cmd": "pass"})  # Bo's Active phase ends: he discards his seventh card first
    s.handle({"cmd": "discard-pick", "slot": "0"})
    s.handle({"cmd": "discard"})
    tree = take(s, 0)  # Ada holds Opportunity in Bo's turn, its End
    click_card(s, "telekinetic-slam")
    tree = s.render()
    (actions,) = tree.find_all(data_role="card-actions")
    assert not actions.find_all(data_cmd="play") and actions.find_all(data_cmd="cycle")
    assert "PK cards are played only in your own Active phase." in actions.text()
    s.handle({"cmd": "play"})
    assert s.message == "PK cards are played only in your own Active phase."


def test_cycling_is_offered_on_every_card_and_acts_at_once():
    s = session()
    for card in sorted(set(A_HEAD)):
        click_card(s, card)
        (cycle,) = s.render().find_all(data_cmd="cycle")
        assert cycle.text() == "Cycle: " + cycle_text(card).removeprefix("cycle: ")
    click_card(s, "psychic-jab")  # a cross: draw 1
    s.handle({"cmd": "cycle"})
    assert s.viewer == 0 and s.message == "Ada cycles Psychic Jab (cross): Ada draws 1 card."
    assert len(s.table.view(0)["me"]["hand"]) == 6


def test_a_card_that_costs_too_much_says_so():
    s = session()
    d = s.table
    state = d.state
    players = list(state.players)
    players[0] = replace(players[0], pool=2, spent=8)
    d.match._states[-1] = replace(state, players=tuple(players))
    click_card(s, "telekinetic-slam")
    actions = s.render().find_all(data_role="card-actions")[0]
    assert "Telekinetic Slam costs 3 PSI; your Pool has 2." in actions.text()
    s.handle({"cmd": "play"})
    assert s.message == "Telekinetic Slam costs 3 PSI; your Pool has 2."


def test_commands_without_a_card_or_out_of_place_only_explain():
    s = session()
    step = s.table.match.step
    for event in (
        {"cmd": "play"},
        {"cmd": "assign", "amount": "1"},
        {"cmd": "discard"},
        {"cmd": "card", "slot": "99"},
        {"cmd": "attack"},
        {"cmd": "predict", "symbol": "moon"},
        {"cmd": "keep"},
    ):
        s.handle(event)
        assert s.message or event["cmd"] == "card", event
    assert s.table.match.step == step


# -- mulligans, damage, discards -------------------------------------------------------------


def test_the_mulligan_status_names_both_players_in_their_order():
    """The first player decides first (the engine's order), and every screen says who is next."""
    s = session(keep=False)
    tree = take(s, 0)
    (status,) = tree.find_all(data_role="status")
    assert status.text() == "Ada keeps the opening hand or takes a mulligan; then Bo decides."
    s.handle({"cmd": "mulligan"})  # still Ada's decision: the same words
    (status,) = s.render().find_all(data_role="status")
    assert status.text() == "Ada keeps the opening hand or takes a mulligan; then Bo decides."
    s.handle({"cmd": "keep"})
    tree = take(s, 1)  # only Bo is left to decide: his name alone
    (status,) = tree.find_all(data_role="status")
    assert status.text() == "Bo keeps the opening hand or takes a mulligan."


def test_the_mulligan_status_when_the_second_seat_goes_first():
    table = stacked_table((deck_with(A_HEAD), deck_with(B_HEAD)), first=1)
    s = PlaySession(table, EspeersScreen())
    tree = take(s, 1)
    (status,) = tree.find_all(data_role="status")
    assert status.text() == "Bo keeps the opening hand or takes a mulligan; then Ada decides."


def test_the_mulligan_prompt_says_what_it_costs():
    s = session(keep=False)
    tree = take(s, 0)
    assert hand_cards(tree) == sorted(A_HEAD)
    assert tree.find_all(data_cmd="mulligan")[0].text() == "Mulligan (free)"
    s.handle({"cmd": "mulligan"})
    assert s.viewer == 0 and "takes a mulligan (free)" in s.message
    assert s.render().find_all(data_cmd="mulligan")[0].text() == "Mulligan (costs 1 PSI)"
    s.handle({"cmd": "mulligan"})
    assert s.table.state.players[0].pool == 9
    s.handle({"cmd": "keep"})
    assert s.viewer is None and s.to_act() == 1


def test_the_damaged_player_picks_the_zones():
    s = session()
    s.table.match._states[-1] = _with(s.table.match.state, 1, pool=4, spent=3)
    play(s, "psychic-jab")
    take(s, 1)
    s.handle({"cmd": "pass"})
    take(s, 0)
    s.handle({"cmd": "pass"})  # 2 damage to Bo, who holds points in both zones
    tree = take(s, 1)
    buttons = tree.find_all(data_cmd="assign")
    assert [b.text() for b in buttons] == [
        "2 from Spent",
        "1 from Pool + 1 from Spent",
        "2 from Pool",
    ]
    s.handle({"cmd": "assign", "amount": "1"})
    assert (s.table.state.players[1].pool, s.table.state.players[1].spent) == (3, 2)
    assert "Bo takes 2 damage: 1 from the Pool and 1 from Spent." in s.log_lines()


def test_discarding_down_to_six_is_chosen_on_the_hand():
    s = session()
    play(s, "quick-recall")
    take(s, 1)
    s.handle({"cmd": "pass"})
    take(s, 0)
    s.handle({"cmd": "pass"})  # Quick Recall resolves: 7 cards
    s.handle({"cmd": "pass"})  # the Active phase ends: Discard comes at once, still Ada's
    tree = take(s, 0)
    hand = s.table.view(0)["me"]["hand"]
    assert len(hand) == 7 and tree.find_all(data_cmd="discard-pick")
    s.handle({"cmd": "discard"})
    assert s.message == "Choose exactly 1 card to discard."
    s.handle({"cmd": "discard-pick", "slot": "0"})
    s.handle({"cmd": "discard-pick", "slot": "1"})
    s.handle({"cmd": "discard-pick", "slot": "1"})  # picked twice: unpicked
    assert (
        s.render().find_all(data_cmd="discard-pick", aria_pressed="true")[0].attrs["data-slot"]
        == "0"
    )
    s.handle({"cmd": "discard"})
    assert s.table.state.players[0].discard[-1] == hand[0]
    assert f"Ada discards {CARDS[hand[0]].name} to get down to six cards." in s.log_lines()


def test_the_discard_button_never_contradicts_its_sentence():
    """The prompt says "choose 1 card to discard": its button says that number, and is
    disabled until exactly that many cards are chosen (it offered "Discard 0 cards")."""
    s = session()
    play(s, "quick-recall")
    take(s, 1)
    s.handle({"cmd": "pass"})
    take(s, 0)
    s.handle({"cmd": "pass"})
    s.handle({"cmd": "pass"})
    take(s, 0)

    def confirm() -> Node:
        (button,) = s.render().find_all(data_cmd="discard")
        return button

    assert "choose 1 card to discard (0 chosen)" in s.render().text()
    assert confirm().text() == "Discard 1 card (0 of 1 chosen)"
    assert "disabled" in confirm().attrs
    s.handle({"cmd": "discard-pick", "slot": "0"})
    assert confirm().text() == "Discard 1 card (1 of 1 chosen)"
    assert "disabled" not in confirm().attrs
    s.handle({"cmd": "discard-pick", "slot": "1"})
    assert "disabled" in confirm().attrs and "(2 of 1 chosen)" in confirm().text()


def test_a_right_guess_discards_the_barrier_and_says_so():
    s = session()
    click_card(s, "mind-spike")
    s.handle({"cmd": "barrier"})
    take(s, 1)
    s.handle({"cmd": "predict", "symbol": "star"})
    assert "right guess! The barrier (Mind Spike) is discarded" in s.message
    take(s, 0)
    view = s.table.view(0)
    assert view["players"][0]["barrier"] is None and view["players"][0]["spent"] == 2


def finish(s: PlaySession) -> Node:
    """Bo is down to 1 PSI; Ada's Telekinetic Slam resolves and wins. The tree at the end."""
    s.table.match._states[-1] = _with(s.table.match.state, 1, pool=1, spent=0)
    play(s, "telekinetic-slam")
    take(s, 1)
    s.handle({"cmd": "pass"})
    take(s, 0)
    s.handle({"cmd": "pass"})
    result = s.table.match.result()
    assert result is not None and result.winners == {0}
    return s.render()


def deck_cells(tree: Node) -> list[str]:
    (final,) = tree.find_all(data_role="final")
    rows = [n for n in final.walk() if isinstance(n, Node) and n.tag == "tr"][1:]
    return [row.children[1].text() for row in rows]


def test_the_final_table_opens_both_hands():
    tree = finish(session())
    (final,) = tree.find_all(data_role="final")
    assert "Onslaught" not in final.text()  # the decks were stacked: their own lists
    assert "Mind Spike" in final.text() and "Mental Block" in final.text()
    # the decks built from the set-up's card counts: named by what they are
    assert deck_cells(tree) == ["a deck of their own (30 cards)"] * 2


MINDWALL = deck_list(STARTER_DECKS["mindwall"]["cards"])
ONSLAUGHT_HEAD = ["telekinetic-slam", "mind-spike", "psychic-jab", "focus", "echo-blast"]


def table_declaring(decks: list, orders: tuple[list[str], list[str]]) -> Table:
    """Like stacked_table, with the set-up declaring `decks` (starter ids or "sealed")."""
    seed = seed_with_first(0)
    table = Table.new(espeers, config(decks), seed, (0, 1))
    places = deck_order({"cards": list(range(DECK_SIZE)), "seed": PRIVATE_SEED}, seed, 0)
    for seat, order in enumerate(orders):
        cards = [""] * DECK_SIZE
        for position, place in enumerate(places):
            cards[place] = order[position]
        table.stores[seat].commit("deck", {"cards": cards, "seed": PRIVATE_SEED}, replace=True)
    return table


def onslaught_order() -> list[str]:
    rest = deck_list(STARTER_DECKS["onslaught"]["cards"])
    for card in ONSLAUGHT_HEAD:
        rest.remove(card)
    return ONSLAUGHT_HEAD + ["overload"] + [c for c in rest if c != "overload"] + ["overload"]


def test_the_final_table_names_sealed_decks_once_they_are_opened():
    """Online both decks are "sealed" in the set-up: the opened lists say which deck it was."""
    own = deck_with(B_HEAD)
    table = table_declaring(["sealed", "sealed"], (onslaught_order(), own))
    s = PlaySession(table, EspeersScreen())
    for seat in (0, 1):
        take(s, seat)
        s.handle({"cmd": "keep"})
    take(s, 0)
    assert deck_cells(finish(s)) == ["Onslaught", "a deck of their own (30 cards)"]


def test_the_final_table_keeps_the_starter_deck_the_set_up_names():
    table = table_declaring(["onslaught", "mindwall"], (onslaught_order(), MINDWALL))
    s = PlaySession(table, EspeersScreen())
    for seat in (0, 1):
        take(s, seat)
        s.handle({"cmd": "keep"})
    take(s, 0)
    assert deck_cells(finish(s)) == ["Onslaught", "Mindwall"]


def test_a_deck_is_named_from_what_is_known_of_it():
    onslaught = STARTER_DECKS["onslaught"]["name"]
    assert deck_name("onslaught") == onslaught
    assert deck_name(dict(STARTER_DECKS["mindwall"]["cards"])) == "Mindwall"
    assert deck_name("sealed", {"cards": MINDWALL[::-1], "seed": PRIVATE_SEED}) == "Mindwall"
    mine = {"cards": deck_with(A_HEAD), "seed": PRIVATE_SEED}
    assert deck_name("sealed", mine) == "a deck of their own (30 cards)"
    assert deck_name({"mind-spike": 3, "focus": 0}) == "a deck of their own (3 cards)"
    assert deck_name("sealed") == "a sealed deck, not opened yet"


def test_nobody_holds_opportunity_once_the_game_is_over():
    tree = finish(session())
    assert not tree.find_all(data_role="opportunity")
    assert "holds Opportunity" not in tree.text()
    assert not any(
        "opportunity" in n.attrs.get("class", "").split()
        for n in tree.walk()
        if isinstance(n, Node)
    )


def _with(state, seat, **changes):
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def test_the_log_tells_the_game_in_words_and_skips_sealing():
    s = session()
    play(s, "mind-spike")
    take(s, 1)
    s.handle({"cmd": "pass"})
    take(s, 0)
    s.handle({"cmd": "pass"})
    assert s.log_lines() == [
        "Ada keeps the hand.",
        "Bo keeps the hand.",
        "Ada plays Mind Spike for 1 PSI: “Deal 1 damage.” It is suspended.",
        "Bo passes.",
        "Ada passes: Mind Spike resolves: Bo is dealt 1 damage.",
    ]


def test_a_played_card_is_the_one_the_engine_gets():
    s = session()
    play(s, "mind-spike")
    entry = s.table.match.entries[-1]
    assert s.game.parse_action(entry.action) == Play("mind-spike") and entry.seat == 0
    assert s.game.parse_action(s.table.match.entries[-2].action) == Mulligan(True)
    assert not isinstance(s.game.parse_action(entry.action), Pass)


def test_the_end_of_the_turn_is_said_on_screen_and_offers_no_pk_and_no_barrier():
    """Once Ada passes on an empty stack her Active phase is over: Bo's last Opportunity, and
    whatever he starts there, is answered with Impulse cards and cycling only."""
    over = "Your Active phase is over: PK cards are played only in your own Active phase."

    def said(tree: Node) -> tuple[str, str, str]:
        (status,) = tree.find_all(data_role="status")
        (line,) = tree.find_all(data_role="opportunity")
        (button,) = tree.find_all(data_cmd="pass")
        return status.text(), line.text(), button.text()

    s = session()
    s.handle({"cmd": "pass"})  # six cards: nothing to discard
    assert s.log_lines()[-1] == (
        "Ada passes: the Active phase ends, and Bo has a last Opportunity before the turn ends."
    )
    assert said(take(s, 1)) == (
        "Turn 1 · Bo's last Opportunity before Ada's turn ends.",
        "Your last Opportunity before Ada's turn ends: play an Impulse, cycle, or pass.",
        "Pass (Ada's turn ends)",
    )
    play(s, "focus")
    assert said(take(s, 0)) == (
        "Turn 1 · End of Ada's turn · Ada holds Opportunity.",
        "Bo's Focus is suspended: answer it with an Impulse, cycle, or pass.",
        "Pass (Bo can still answer)",
    )
    click_card(s, "mind-spike")
    (actions,) = s.render().find_all(data_role="card-actions")
    assert actions.find_all(data_cmd="cycle")
    assert not actions.find_all(data_cmd="play") and not actions.find_all(data_cmd="barrier")
    assert over in actions.text()
    s.handle({"cmd": "play"})
    assert s.message == over
    s.handle({"cmd": "barrier"})
    assert s.message == "A barrier goes down in your own Active phase, with nothing on the stack."
    s.handle({"cmd": "pass"})
    take(s, 1)
    s.handle({"cmd": "pass"})  # Focus resolves: Bo holds Opportunity again
    assert said(take(s, 1))[2] == "Pass (Ada can still act)"
    s.handle({"cmd": "pass"})
    assert said(take(s, 0)) == (
        "Turn 1 · End of Ada's turn · Ada holds Opportunity.",
        "The end of your turn, your Active phase over: play an Impulse, cycle, or pass.",
        "Pass (end your turn)",
    )
    s.handle({"cmd": "pass"})
    (status,) = take(s, 1).find_all(data_role="status")
    assert status.text() == "Turn 2 · Bo's Active phase · Bo holds Opportunity."


# -- issue 17: the last move marked, the board in words, a "?" beside each control -----------


def marks(tree: Node) -> list[Node]:
    return tree.find_all(data_role="last-move")


def marked(tree: Node) -> list[Node]:
    """What carries the mark's ring: every element of the table with the class last-move."""
    return [
        n
        for n in tree.walk()
        if isinstance(n, Node) and "last-move" in str(n.attrs.get("class", "")).split()
    ]


def test_the_card_just_played_is_marked_on_the_stack_in_words():
    s = session(B_FEEDBACK)
    play(s, "telekinetic-slam")
    tree = take(s, 1)
    (ring,) = marked(tree)
    assert ring.tag == "li" and ring.attrs["data-card"] == "telekinetic-slam"
    (tag,) = marks(tree)
    assert tag.text() == "Last move: Just played"  # the words, not a colour: a shape and text
    # Bo answers: now his card is the one marked, and only it
    play(s, "feedback")
    tree = take(s, 0)
    (ring,) = marked(tree)
    assert ring.attrs["data-card"] == "feedback"


def test_a_resolved_card_is_marked_on_its_owner_s_discard_pile():
    s = session(B_FEEDBACK)
    play(s, "telekinetic-slam")
    take(s, 1)
    s.handle({"cmd": "pass"})
    take(s, 0)
    s.handle({"cmd": "pass"})  # the Slam resolves: Bo takes the damage
    tree = s.render()
    if s.viewer is None:
        tree = take(s, 1)
    (ring,) = marked(tree)
    assert ring.attrs["data-role"] in ("discard", "psi")
    last = s.last_move()
    assert last is not None
    said = marks(tree)[0].text()
    assert said.startswith("Last move: ")
    if ring.attrs["data-role"] == "discard":
        assert "Telekinetic Slam" in ring.text() and "resolved" in said
    else:
        assert "damage" in said


def test_a_cycled_card_and_a_barrier_laid_are_marked():
    s = session()
    click_card(s, "quick-recall")
    s.handle({"cmd": "cycle"})
    tree = s.render()
    (ring,) = marked(tree)
    assert ring.attrs["data-role"] == "discard" and "Quick Recall" in ring.text()
    assert marks(tree)[0].text() == "Last move: Just cycled"
    click_card(s, "mind-spike")
    s.handle({"cmd": "barrier"})
    tree = take(s, 1)  # Bo is asked to guess: Ada's new barrier is the move marked
    (ring,) = marked(tree)
    assert ring.attrs["data-role"] == "barrier" and faces(ring) == []
    assert marks(tree)[0].text() == "Last move: Just laid"


def test_a_pass_marks_the_player_who_passed_and_nothing_is_marked_before_any_move():
    table = stacked_table((deck_with(A_HEAD), deck_with(B_HEAD)))
    s = PlaySession(table, EspeersScreen())
    take(s, 0)
    assert s.last_move() is None and marked(s.render()) == []
    s.handle({"cmd": "keep"})
    tree = take(s, 1)
    assert [m.text() for m in marks(tree)] == ["Last move: Kept the hand"]
    s.handle({"cmd": "keep"})
    take(s, 0)
    s.handle({"cmd": "pass"})
    tree = take(s, 1)
    (tag,) = marks(tree)
    assert tag.text() == "Last move: Passed"
    (ada,) = tree.find_all(data_seat="0")
    assert ada.find_all(data_role="last-move")


def test_a_spectator_s_table_marks_the_last_move_too():
    """The replay viewer's seat: the screen finds the last move in the match it reads."""
    s = session(B_FEEDBACK)
    play(s, "telekinetic-slam")

    class Spectator:
        viewer = None

        def __init__(self, table):
            self.match = table.match
            self.selection = EspeersScreen().new_selection()

        def you(self):
            return None

        def legal(self):
            return []

    screen = EspeersScreen()
    view = s.table.game.public_view(s.table.state)
    tree = screen.board(Spectator(s.table), view)  # type: ignore[arg-type]
    (ring,) = marked(tree)
    assert ring.attrs["data-card"] == "telekinetic-slam"
    assert faces(tree) == ["telekinetic-slam"]  # nobody's hand


def test_describe_the_board_tells_the_position_and_no_secret_of_the_other_seat():
    s = session(B_FEEDBACK)
    play(s, "telekinetic-slam")
    take(s, 1)
    s.handle({"cmd": "describe-board"})
    tree = s.render()
    (described,) = tree.find_all(data_role="description")
    text = described.text()
    assert "Ada: PSI 10 (Pool 7, Spent 3" in text and "Bo (you): PSI 10" in text
    assert "5 cards in hand" in text  # Ada's hand, counted
    assert "On the stack, top first: Ada's Telekinetic Slam." in text
    bo_hand = s.table.view(1)["me"]["hand"]
    assert f"Your hand, {len(bo_hand)} cards: " in text
    for card in set(A_HEAD) - set(bo_hand) - {"telekinetic-slam"}:
        assert CARDS[card].name not in text, f"Ada's {card} is told to Bo"
    assert s.said.startswith("Turn 1")  # the live region reads it out


def test_describe_board_names_your_barrier_to_you_and_a_face_down_card_to_the_other():
    s = session()
    click_card(s, "mind-spike")
    s.handle({"cmd": "barrier"})
    take(s, 1)
    screen = EspeersScreen()
    bo = screen.describe_board(s.table.view(1), 1)
    assert any("Ada: " in line and "a barrier, face down, with 2 PSI" in line for line in bo)
    assert not any(line.startswith("Ada") and "Mind Spike" in line for line in bo)
    ada = screen.describe_board(s.table.view(0), 0)
    symbol = CARDS["mind-spike"].symbol
    assert any(f"a barrier, Mind Spike ({symbol}), with 2 PSI" in line for line in ada)
    public = screen.describe_board(s.table.game.public_view(s.table.state), None)
    assert not any("Your hand" in line or "Mind Spike" in line for line in public)


def help_keys(tree: Node) -> set[str]:
    return {
        str(n.attrs["data-help"])
        for n in tree.walk()
        if isinstance(n, Node) and "data-help" in n.attrs
    }


def test_every_control_of_the_game_has_its_question_mark():
    s = session()
    click_card(s, "mind-spike")
    tree = s.render()
    keys = help_keys(tree)
    assert {"espeers-play", "espeers-cycle", "espeers-barrier", "espeers-pass"} <= keys
    assert {"espeers-hand", "espeers-stack"} <= keys
    for cmd in ("play", "cycle", "barrier", "pass"):
        (button,) = tree.find_all(data_cmd=cmd)
        assert help_key(button.attrs["aria-describedby"]) == f"help-espeers-{cmd}"
    # every sentence is one sentence
    for n in tree.walk():
        if (
            isinstance(n, Node)
            and n.attrs.get("role") == "tooltip"
            and help_key(n.attrs["id"]).startswith("help-espeers")
        ):
            assert n.text().count(". ") == 0 and n.text().endswith(".")


def test_the_mulligan_guess_damage_and_discard_prompts_have_their_question_marks():
    table = stacked_table((deck_with(A_HEAD), deck_with(B_HEAD)))
    s = PlaySession(table, EspeersScreen())
    assert {"espeers-keep", "espeers-mulligan"} <= help_keys(take(s, 0))
    s = session()
    click_card(s, "mind-spike")
    s.handle({"cmd": "barrier"})
    assert {"espeers-predict", "espeers-predict-none"} <= help_keys(take(s, 1))


def test_cards_and_places_have_names_in_the_game_s_words():
    s = session(B_FEEDBACK)
    play(s, "telekinetic-slam")
    tree = take(s, 1)
    for button in tree.find_all(data_cmd="card"):
        # the name a reader hears comes first and the drawing is hidden from it
        said, drawn = button.children[0], button.children[1]
        assert isinstance(said, Node) and isinstance(drawn, Node)
        assert said.text().split(",")[0] in {c.name for c in CARDS.values()}
        assert drawn.attrs["aria-hidden"] == "true"
    (stack,) = tree.find_all(data_role="stack")
    assert stack.attrs["aria-label"] == "Suspended cards, the top one last"
    assert "Ada's Telekinetic Slam, PK, costs 3 PSI" in stack.text()
    (ada,) = tree.find_all(data_seat="0")
    assert ada.attrs["aria-label"] == "Ada (opponent)"
    (bo,) = tree.find_all(data_seat="1")
    assert bo.attrs["aria-label"] == "Bo (your table)"
    (discard,) = ada.find_all(data_role="discard")
    assert "Discard · 0" in discard.text()


def test_the_opponent_s_discard_pile_names_its_top_card_in_words():
    s = session()
    click_card(s, "quick-recall")
    s.handle({"cmd": "cycle"})
    s.handle({"cmd": "pass"})
    tree = take(s, 1)
    (ada,) = tree.find_all(data_seat="0")
    (discard,) = ada.find_all(data_role="discard")
    (top,) = discard.find_all(**{"class": "top-name"})
    assert top.text() == "Quick Recall"
    assert "Quick Recall" in discard.find_all(**{"class": "discard-list"})[0].text()


def test_your_barrier_s_attack_sits_beside_it_with_its_question_mark():
    s = session()
    click_card(s, "mind-spike")
    s.handle({"cmd": "barrier"})
    take(s, 1)
    s.handle({"cmd": "predict-none"})
    tree = take(s, 0)
    assert s.screen.controls(s, s.table.view(0)) is None  # nothing beside the table
    (mine,) = tree.find_all(data_seat="0")
    assert not mine.find_all(data_cmd="attack")  # not in the turn it was laid
