"""The Telepathic bot: legal and deterministic at every level, blind to the other seats' cards
and to the deck order, its fast model in step with the engine, and (a small smoke test) a pair
of bots that wins most standard games where the naive pair almost never does.

Games are driven through the real engine as a device plays them: each seat's cards in its own
store, every automatic step taken by the seat's own device, optional Announcements offered to
the seats that are not to move, and each bot given only `knowledge_of` its seat.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from itertools import permutations, product
from typing import Any

import pytest

from parlour.bots.base import knowledge_of
from parlour.bots.registry import bot_for, player_levels
from parlour.bots.telepathic import bot as tele_bot
from parlour.bots.telepathic import model
from parlour.bots.telepathic.mind import PAIRS, Mind, next_turn
from parlour.fair.commit import Context
from parlour.fair.rng import Rng
from parlour.fair.store import PrivateStore
from parlour.games import GAMES
from parlour.games.base import Setup
from parlour.games.telepathic.actions import Announce
from parlour.games.telepathic.grid import (
    ACTION_CARDS,
    COLOURS,
    SHAPES,
    TILES,
    apply_card,
    holds,
)
from parlour.games.telepathic.state import ROLES, next_performer

game = GAMES["telepathic"]
LEVELS = ("easy", "medium", "hard", "plain", "naive")
VARIANTS = {
    "pair": (2, {}),
    "first": (2, {"mode": "first"}),
    "challenge": (2, {"mode": "challenge", "discard": 3}),
    "director": (3, {"arrangement": "director"}),
    "four": (4, {"arrangement": "four"}),
    "teams": (4, {"arrangement": "teams"}),
}
DECKS = {"colour": COLOURS, "shape": SHAPES}


def setup_for(name: str, index: int) -> tuple[Setup, bytes]:
    seats, variant = VARIANTS[name]
    names = ("Ada", "Bo", "Cy", "Di")[:seats]
    return Setup(f"m-tele-bot-{name}-{index}", names, variant), hashlib.sha256(
        f"tele-bot/{name}/{index}".encode()
    ).digest()


def seeded_deal(setup: Setup, rng: Rng) -> dict[int, dict[str, str]]:
    """Condition cards for every seat, as `Telepathic.deal` draws them, but from `rng`."""
    arrangement = setup.variant.get("arrangement", "pair")
    decks = {kind: rng.shuffled(list(cards)) for kind, cards in DECKS.items()}
    out: dict[int, dict[str, str]] = {}
    for seat in range(setup.seats):
        for kind, which in ROLES[arrangement][seat]:
            out.setdefault(seat, {})[which] = decks[kind].pop()
    return out


def every_deal(setup: Setup) -> list[dict[int, dict[str, str]]]:
    """Every deal the arrangement allows (cards of a kind all different)."""
    arrangement = setup.variant.get("arrangement", "pair")
    slots = {
        kind: [(s, w) for s in range(setup.seats) for k, w in ROLES[arrangement][s] if k == kind]
        for kind in DECKS
    }
    options = {kind: list(permutations(DECKS[kind], len(slots[kind]))) for kind in DECKS}
    deals = []
    for colours, shapes in product(options["colour"], options["shape"]):
        deal: dict[int, dict[str, str]] = {}
        for kind, cards in (("colour", colours), ("shape", shapes)):
            for (s, w), card in zip(slots[kind], cards, strict=True):
                deal.setdefault(s, {})[w] = card
        deals.append(deal)
    return deals


def stores_for(setup: Setup, deal: dict[int, dict[str, str]]) -> dict[int, PrivateStore]:
    stores = {s: PrivateStore(Context(setup.match_id, s)) for s in range(setup.seats)}
    for seat, cards in deal.items():
        stores[seat].commit("conditions", cards)
    return stores


@dataclass
class Drive:
    """A game as devices play it; `choose(seat, knowledge)` answers every decision."""

    setup: Setup
    seed: bytes
    stores: dict[int, PrivateStore]
    states: list[Any] = field(default_factory=list)
    log: list[tuple[int, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.states = [game.initial_state(self.setup, self.seed)]

    def knowledge(self, seat: int, states: list[Any] | None = None):
        return knowledge_of(
            game, self.setup, states or self.states, self.log, seat, self.stores[seat]
        )

    def act(self, seat: int, choice: Any) -> None:
        action = game.seal(self.states[-1], seat, choice, self.stores[seat])
        self.states.append(game.apply(self.states[-1], seat, action))
        self.log.append((seat, game.action_to_json(action)))

    def run(self, choose, limit: int = 800) -> None:
        while game.result(self.states[-1]) is None and len(self.log) < limit:
            if not self.step(choose):
                return

    def step(self, choose) -> bool:
        state = self.states[-1]
        moving = sorted(game.to_move(state))
        for seat in moving:
            auto = game.auto_action(state, seat, self.stores[seat])
            if auto is not None:
                self.act(seat, auto)
                return True
        for seat in range(self.setup.seats):
            if seat not in moving and game.legal_actions(state, seat, self.stores[seat]):
                choice = choose(seat, self.knowledge(seat))
                if choice is not None:
                    self.act(seat, choice)
                    return True
        choice = choose(moving[0], self.knowledge(moving[0]))
        if choice is None:
            return False
        self.act(moving[0], choice)
        return True


def bots_choose(levels: dict[int, str], seed: bytes = b"s" * 32, check: bool = True):
    def choose(seat: int, knowledge) -> Any:
        choice = bot_for("telepathic", levels[seat])(knowledge, seed)
        if check:
            if choice is None:
                assert not knowledge.to_move, "a bot declined a step the game waits on"
            else:
                assert choice in list(knowledge.legal), (levels[seat], choice, knowledge.legal)
        return choice

    return choose


def play(name: str, index: int, levels: dict[int, str] | str) -> Drive:
    setup, seed = setup_for(name, index)
    if isinstance(levels, str):
        levels = dict.fromkeys(range(setup.seats), levels)
    drive = Drive(setup, seed, stores_for(setup, seeded_deal(setup, Rng(b"deal" + seed))))
    drive.run(bots_choose(levels))
    return drive


# -- the fast model agrees with the engine ----------------------------------------------------


def test_the_fast_model_moves_and_reads_grids_as_the_engine_does():
    rng = Rng(b"tele-model")
    for _ in range(60):
        tiles = tuple(rng.shuffled(list(TILES)))
        grid = model.encode([list(t) for t in tiles])
        mask = model.mask_of(grid)
        for i, name in enumerate(model.CONDITIONS):
            assert bool(mask >> i & 1) == holds(tiles, name)
        for c, card in enumerate(ACTION_CARDS):
            for k in range(4):
                assert model.after(grid, c, k) == model.encode(apply_card(tiles, card, k))
        cards = tuple(sorted(rng.sample(range(10), 3)))
        expected = {
            model.mask_of(model.encode(apply_card(tiles, ACTION_CARDS[c], k)))
            for c in cards
            for k in range(4)
        }
        assert set(model.reach(grid, cards)) == expected


def test_a_line_of_three_holds_and_nothing_wraps_around():
    blank = [(c, s) for c in COLOURS for s in SHAPES]
    grid = list(model.encode([list(t) for t in blank]))
    # the first row is blue star, blue circle, blue cross, blue triangle: blue holds
    assert model.mask_of(tuple(grid)) & 1
    shifted = model.after(tuple(grid), model.CARD_INDEX["shift-east"], 0)
    assert model.mask_of(shifted) & 1  # still three blue in the row


# -- legality and determinism -----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_choice_is_legal_at_every_level(name):
    """Seats of every level around one table, rotated from game to game."""
    seats = VARIANTS[name][0]
    for index in range(3 if seats == 2 else 2):
        levels = {s: LEVELS[(index * seats + s) % len(LEVELS)] for s in range(seats)}
        drive = play(name, index, levels)
        assert game.result(drive.states[-1]) is not None, (name, levels)


def test_a_whole_table_of_one_level_plays_legally():
    for index, level in enumerate(LEVELS):
        drive = play("pair", 10 + index, level)
        assert game.result(drive.states[-1]) is not None, level


def test_the_player_levels_are_offered_and_the_reference_ones_are_not():
    assert player_levels("telepathic") == ("easy", "medium", "hard")
    for level in ("plain", "naive"):
        assert bot_for("telepathic", level) is not None


def test_same_knowledge_and_seed_give_the_same_choice_with_or_without_the_memo():
    drive = play("pair", 7, "hard")
    replay = Drive(drive.setup, drive.seed, drive.stores)
    for seat, action in drive.log:
        state = replay.states[-1]
        for s in range(drive.setup.seats):
            if game.legal_actions(state, s, replay.stores[s]) and not game.auto_action(
                state, s, replay.stores[s]
            ):
                knowledge = replay.knowledge(s)
                for level in ("easy", "medium", "hard"):
                    bot = bot_for("telepathic", level)
                    warm = bot(knowledge, b"x" * 32)
                    tele_bot._MINDS.clear()
                    assert bot(knowledge, b"x" * 32) == warm == bot(knowledge, b"y" * 32)
        replay.states.append(game.apply(state, seat, game.parse_action(action)))
        replay.log.append((seat, action))


# -- no cheating ------------------------------------------------------------------------------


def _lose_held(drive: Drive, deal: dict[int, dict[str, str]], upto: int) -> bool:
    for state in drive.states[1 : upto + 1]:
        for cards in deal.values():
            if "lose" in cards and holds(state.grid, cards["lose"]):
                return True
    return False


@pytest.mark.parametrize("name", ["pair", "first", "director", "four", "teams"])
def test_other_seats_cards_and_the_deck_order_never_change_a_choice(name):
    """For the same seat view and seed, every other seat's cards changed (consistently with the
    record: no lose condition of theirs ever held) and the deck's order shuffled: the same
    choice, at every decision of the game."""
    setup, seed = setup_for(name, 3)
    levels = dict.fromkeys(range(setup.seats), "hard")
    first = Drive(setup, seed, stores_for(setup, seeded_deal(setup, Rng(b"deal" + seed))))
    asked: list[tuple[int, int, Any]] = []
    decisions: list[tuple[int, Any]] = []
    choose = bots_choose(levels)

    def recording(seat, knowledge):
        choice = choose(seat, knowledge)
        asked.append((len(first.log), seat, choice))
        if choice is not None:
            decisions.append((seat, choice))
        return choice

    first.run(recording)
    dealt = {
        s: first.stores[s].value("conditions")
        for s in first.stores
        if "conditions" in first.stores[s]
    }
    end = len(first.states) - 1
    compared = 0
    for observer in range(setup.seats):
        others = [
            deal
            for deal in every_deal(setup)
            if deal.get(observer) == dealt.get(observer)
            and all(deal[s] != dealt[s] for s in deal if s != observer)
            and not _lose_held(first, {s: c for s, c in deal.items() if s != observer}, end)
        ]
        for deal in others[:: max(1, len(others) // 2)][: 2 if setup.seats == 2 else 1]:
            stores = stores_for(setup, deal)
            stores[observer] = first.stores[observer]  # the very same store: the same view
            second = Drive(setup, seed, stores)
            queue = list(decisions)

            def scripted(seat, knowledge, second=second, queue=queue, observer=observer):
                nonlocal compared
                if seat == observer:
                    states = list(second.states)
                    last = states[-1]
                    states[-1] = replace(last, deck=tuple(reversed(last.deck)))
                    mine = bot_for("telepathic", "hard")(second.knowledge(seat, states), b"s" * 32)
                    theirs = next(c for n, s, c in asked if n == len(second.log) and s == seat)
                    assert mine == theirs, (name, observer, len(second.log))
                    compared += 1
                if queue and queue[0][0] == seat and queue[0][1] in list(knowledge.legal):
                    return queue.pop(0)[1]
                return None

            while queue and game.result(second.states[-1]) is None:
                if not second.step(scripted):
                    break
    assert compared > 10


# -- the belief --------------------------------------------------------------------------------


def test_the_belief_is_a_distribution_and_rules_out_a_lose_condition_on_the_grid():
    """The game went on, so no lose condition holds on the grid: those pairs are ruled out."""
    rng = Rng(b"tele-rule-out")
    tried = 0
    while tried < 20:
        tiles = tuple(rng.shuffled(list(TILES)))
        grid = model.encode([list(t) for t in tiles])
        held = model.mask_of(grid)
        if not held & 15 or held & 15 == 15:
            continue
        tried += 1
        mind = Mind("pair", 2)
        mind.rule_out(grid)
        assert sum(mind.belief[0]) == pytest.approx(1.0)
        for p, (_, lose) in enumerate(PAIRS):
            assert (mind.belief[0][p] == 0.0) == bool(held >> lose & 1)


def test_a_set_that_makes_one_shape_hold_points_the_reader_to_that_shape():
    """Bo (shapes) is handed a card; one of its sets makes three stars, the others nothing:
    choosing it makes star Bo's likeliest win condition."""
    rng = Rng(b"tele-signal")
    for _ in range(400):
        tiles = tuple(rng.shuffled(list(TILES)))
        grid = model.encode([list(t) for t in tiles])
        if model.mask_of(grid):
            continue
        for c in range(10):
            masks = [model.mask_of(model.after(grid, c, k)) for k in range(4)]
            lone = [k for k, m in enumerate(masks) if m and m >> 4 and not m & 15]
            if len(lone) == 1 and sum(1 for m in masks if m) == 1:
                mind = Mind("pair", 2)
                _, policy, _ = mind.perform_model(1, grid, c, ())
                mind.observe(1, policy, lone[0])
                shape = (masks[lone[0]] >> 4).bit_length() - 1
                marginal = mind.win_marginal(1, None, 0)
                assert max(range(4), key=marginal.__getitem__) == shape
                assert marginal[shape] > 0.5
                return
    pytest.fail("no such position found")


# -- strength, in small ------------------------------------------------------------------------


def test_a_pair_of_bots_wins_most_standard_games():
    won = sum(
        bool(game.result(play("pair", index, "medium").states[-1]).winners) for index in range(12)
    )
    assert won >= 9


def test_the_naive_pair_loses():
    won = sum(
        bool(game.result(play("pair", index, "naive").states[-1]).winners) for index in range(8)
    )
    assert won <= 1


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_when_the_cards_run_out_the_bot_makes_the_announcement(level):
    """Play on to the end of the deck (the bot's Announcements held back) and the bot, asked
    when the Announcement is compulsory, makes it."""
    setup, seed = setup_for("challenge", 5)
    drive = Drive(setup, seed, stores_for(setup, seeded_deal(setup, Rng(b"deal" + seed))))
    bot = bot_for("telepathic", level)
    made = []

    def holding_back(seat, knowledge):
        choice = bot(knowledge, b"s" * 32)
        if knowledge.view["must_announce"] and knowledge.to_move:
            made.append(choice)
            return choice
        if isinstance(choice, Announce):
            others = [a for a in knowledge.legal if not isinstance(a, Announce)]
            return others[0] if others and knowledge.to_move else None
        return choice

    drive.run(holding_back)
    final = drive.states[-1]
    if final.announcer is None:  # a lose condition ended it first: nothing to check
        assert "lose condition" in game.result(final).reason
    else:
        assert made and isinstance(made[0], Announce)


@pytest.mark.parametrize("name", ["pair", "director", "four", "teams"])
def test_the_model_knows_who_hands_next_as_the_engine_does(name):
    drive = play(name, 2, "medium")
    performed, checked = None, 0
    for before, after in zip(drive.states, drive.states[1:], strict=False):
        if before.phase == "perform" and after.turns == before.turns + 1:
            performed = (before.active, before.performer)
        if after.phase == "hand" and before.phase != "hand" and performed and after.outcome is None:
            hander, receiver = next_turn(name, *performed)
            assert (after.active, next_performer(after)) == (hander, receiver)
            performed, checked = None, checked + 1
    assert checked >= 1
