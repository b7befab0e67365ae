"""The ESPEERS bot: legal and deterministic at every level, blind to the opponent's secrets, its
fast model in step with the engine, and (a small smoke test) stronger than chance.

Games are driven here through the real engine, with the decks dealt into each seat's own store
(`arena.deal`), every automatic step taken by the seat's own device, and each bot given only
`knowledge_of` its seat, exactly as the arena and the page do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from parlour.bots import espeers_scripted
from parlour.bots.base import SeatKnowledge, knowledge_of
from parlour.bots.espeers import bot as espeers_bot
from parlour.bots.espeers import policy
from parlour.bots.espeers.bot import LEVELS, Level, to_model
from parlour.bots.espeers.model import DISCARD, PASS, PLAY, World
from parlour.bots.espeers.reference import public_stand_in
from parlour.bots.espeers.sampling import believe
from parlour.bots.espeers.search import Fast
from parlour.bots.registry import bot_for, player_levels
from parlour.fair.commit import Context
from parlour.fair.rng import Rng
from parlour.fair.store import PrivateStore
from parlour.games import GAMES
from parlour.games.base import Setup
from parlour.games.espeers.actions import BarrierAttack, Mulligan, Pass, PlaceBarrier
from parlour.games.espeers.cards import resolve_deck
from parlour.games.espeers.hands import deck_order
from parlour.games.espeers.state import DECK_LABEL

game = GAMES["espeers"]
DECKS = (["onslaught", "mindwall"], ["mindwall", "onslaught"])
# Hard's own budget makes a whole test game take seconds; where a test only needs the code path,
# it plays a smaller hard (the same code, fewer playouts).
SMALL_HARD = Level(search=True, playouts=96, mulligan_playouts=48)


@pytest.fixture
def small_hard(monkeypatch):
    monkeypatch.setitem(LEVELS, "hard", SMALL_HARD)


# -- driving a game through the engine --------------------------------------------------------


@dataclass
class Game:
    """A game as a device plays it: states, the log, and each step's unsealed choice."""

    setup: Setup
    seed: bytes
    stores: dict[int, PrivateStore]
    states: list[Any] = field(default_factory=list)
    log: list[tuple[int, Any]] = field(default_factory=list)
    choices: list[tuple[int, Any, bool]] = field(default_factory=list)  # seat, choice, auto

    @property
    def state(self):
        return self.states[-1]

    def knowledge(self, seat: int):
        return knowledge_of(game, self.setup, self.states, self.log, seat, self.stores[seat])

    def act(self, seat: int, choice: Any, auto: bool = False) -> None:
        action = game.seal(self.state, seat, choice, self.stores[seat])
        self.states.append(game.apply(self.state, seat, action))
        self.log.append((seat, game.action_to_json(action)))
        self.choices.append((seat, choice, auto))

    def autos(self) -> None:
        while game.result(self.state) is None:
            for seat in sorted(game.to_move(self.state)):
                action = game.auto_action(self.state, seat, self.stores[seat])
                if action is not None:
                    self.act(seat, action, auto=True)
                    break
            else:
                return


def deal(setup: Setup) -> dict[int, PrivateStore]:
    """Each seat's deck in its own store, with a private seed fixed by the match id (the engine
    draws it from `secrets`; a test wants the same game every run)."""
    stores = {}
    for seat, choice in enumerate(setup.variant["decks"]):
        stores[seat] = PrivateStore(Context(setup.match_id, seat))
        private = Rng(f"{setup.match_id}:deck:{seat}".encode()).read(32).hex()
        stores[seat].commit(DECK_LABEL, {"cards": resolve_deck(choice), "seed": private})
    return stores


def new_game(index: int, decks: list[str]) -> Game:
    setup = Setup(f"m-bot-test-{index}", ("Ada", "Bo"), {"decks": decks})
    seed = Rng(f"bot-test:{index}".encode()).read(32)
    g = Game(setup, seed, deal(setup))
    g.states.append(game.initial_state(setup, seed))
    g.autos()
    return g


def play(g: Game, bots: dict, max_steps: int = 3000, stop=None) -> Game:
    """Play on with `bots` (seat -> bot); each choice is checked to be one of the legal ones.
    `stop(g, seat, knowledge)` may end the game early (it returns True)."""
    rng = Rng(b"bot-test-dice" + g.seed)
    for _ in range(max_steps):
        if game.result(g.state) is not None:
            return g
        seat = min(game.to_move(g.state))
        knowledge = g.knowledge(seat)
        if stop is not None and stop(g, seat, knowledge):
            return g
        choice = bots[seat](knowledge, rng.read(32))
        assert choice in knowledge.legal, (choice, knowledge.legal)
        g.act(seat, choice)
        g.autos()
    raise AssertionError("the game did not end")


def keep_hands(bot):
    """A bot that keeps any opening hand (the cheating test replays one deck order)."""

    def chooser(knowledge, seed):
        if knowledge.legal and isinstance(knowledge.legal[0], Mulligan):
            return Mulligan(True)
        return bot(knowledge, seed)

    return chooser


# -- legality and determinism -----------------------------------------------------------------


def test_the_levels_are_registered():
    assert player_levels("espeers") == ("easy", "medium", "hard")
    for level in ("easy", "medium", "hard", "scripted", "random"):
        assert callable(bot_for("espeers", level))


@pytest.mark.parametrize(
    ("index", "a", "b"),
    [
        (1, "easy", "random"),
        (2, "scripted", "easy"),
        (3, "medium", "scripted"),
        (4, "hard", "easy"),
        (5, "medium", "hard"),
    ],
)
def test_every_choice_is_legal(small_hard, index, a, b):
    g = new_game(index, DECKS[index % 2])
    play(g, {0: bot_for("espeers", a), 1: bot_for("espeers", b)})
    assert game.result(g.state) is not None


# A deck of a player's own (online it may be sealed: the bot cannot tell it from the view).
CUSTOM = {
    "neural-storm": 3,
    "overload": 3,
    "echo-blast": 3,
    "mind-drain": 3,
    "focus": 3,
    "clairvoyance": 3,
    "feedback": 3,
    "psychic-rebuke": 3,
    "quick-recall": 3,
    "mind-spike": 3,
}


def test_a_deck_of_their_own_is_sampled_from_the_pool(small_hard):
    seen = []

    def check(g, seat, knowledge):
        if knowledge.view["phase"] == "active" and seat == 1:
            belief = believe(seat, knowledge.view, CUSTOM_LIST, knowledge.history)
            w = belief.sample(Fast(len(g.states)))
            them = knowledge.view["players"][0]
            assert len(w.hand[0]) == them["hand"] and len(w.deck[0]) == them["deck"]
            seen.append(len(belief.their_pools))
        return False

    g = new_game(9, [CUSTOM, "mindwall"])
    play(g, {0: bot_for("espeers", "easy"), 1: bot_for("espeers", "hard")}, stop=check)
    assert game.result(g.state) is not None
    assert seen and seen[-1] == 1  # no starter deck holds what it showed: the mixed pool


CUSTOM_LIST = resolve_deck("mindwall")


def test_a_seat_not_to_move_declines():
    g = new_game(6, DECKS[0])
    waiting = 1 - min(game.to_move(g.state))
    knowledge = g.knowledge(waiting)
    for level in ("easy", "medium", "hard", "scripted"):
        assert bot_for("espeers", level)(knowledge, b"seed") is None


def test_same_knowledge_and_seed_same_choice(small_hard):
    seen = []

    def record(g, seat, knowledge):
        if len(knowledge.legal) > 2 and len(seen) < 12:
            seen.append(knowledge)
        return False

    easy = bot_for("espeers", "easy")
    play(new_game(7, DECKS[1]), {0: easy, 1: easy}, stop=record)
    assert len(seen) >= 6
    for level in ("easy", "medium", "hard"):
        bot = bot_for("espeers", level)
        for k, knowledge in enumerate(seen):
            seed = bytes([k]) * 32
            assert bot(knowledge, seed) == bot(knowledge, seed)


def test_a_lone_legal_action_comes_back_without_thinking():
    lone = SeatKnowledge(
        "espeers", 0, Setup("m", ("A", "B")), {}, PrivateStore(Context("m", 0)), (Pass(),), ()
    )
    for level in ("easy", "medium", "hard"):
        assert bot_for("espeers", level)(lone, b"x") == Pass()


# -- no cheating: the opponent's secrets never change a choice --------------------------------


def positions_shown(g: Game, seat: int, upto: int) -> set[int]:
    """The places in `seat`'s draw order of every card it showed in the first `upto` states
    (played, cycled, discarded, under a barrier), matched to the earliest drawn copy."""
    state = g.states[upto]
    order = deck_order(g.stores[seat].value(DECK_LABEL), g.seed, 0)
    drawn, fixed = 0, set()
    for _, who, kind, detail in state.events:
        if who != seat:
            continue
        if kind == "draw":
            drawn += detail
        elif kind in ("play", "cycle", "discard"):
            fixed.add(_first(order, detail, drawn, fixed))
        elif kind == "barrier":
            card = g.stores[seat].value(detail)
            fixed.add(_first(order, card, drawn, fixed))
    return fixed


def _first(order: list[str], card: str, drawn: int, taken: set[int]) -> int:
    return next(i for i in range(drawn) if order[i] == card and i not in taken)


def other_world(g: Game, seat: int, upto: int, salt: int) -> Game:
    """The same public game with `seat`'s hidden cards (hand and deck order) shuffled among
    themselves: its deck is committed again so that it deals the new order."""
    order = deck_order(g.stores[seat].value(DECK_LABEL), g.seed, 0)
    fixed = positions_shown(g, seat, upto)
    hidden = [i for i in range(len(order)) if i not in fixed]
    cards = Rng(f"shuffle-{salt}".encode()).shuffled([order[i] for i in hidden])
    if cards == [order[i] for i in hidden]:
        cards = cards[1:] + cards[:1]
    new_order = list(order)
    for i, card in zip(hidden, cards, strict=True):
        new_order[i] = card
    private = g.stores[seat].value(DECK_LABEL)["seed"]
    places = deck_order({"cards": list(range(len(order))), "seed": private}, g.seed, 0)
    dealt = [""] * len(order)
    for position, place in enumerate(places):
        dealt[place] = new_order[position]
    stores = dict(g.stores)
    stores[seat] = PrivateStore(Context(g.setup.match_id, seat))
    stores[seat].commit(DECK_LABEL, {"cards": dealt, "seed": private})
    assert deck_order(stores[seat].value(DECK_LABEL), g.seed, 0) == new_order
    b = Game(g.setup, g.seed, stores)
    b.states.append(game.initial_state(g.setup, g.seed))
    for who, choice, auto in g.choices[:upto]:
        if auto:
            action = game.auto_action(b.state, who, b.stores[who])
            assert action is not None
        elif isinstance(choice, BarrierAttack):
            action = next(
                a
                for a in game.legal_actions(b.state, who, b.stores[who])
                if isinstance(a, BarrierAttack)
            )
        else:
            action = choice
        b.act(who, action, auto)
    return b


def decision_points(g: Game, seat: int, count: int) -> list[int]:
    """States where `seat` has a real choice to make, spread over the game."""
    points = [
        k
        for k, state in enumerate(g.states[:-1])
        if seat in game.to_move(state)
        and len(game.legal_actions(state, seat, g.stores[seat])) > 2
        and game.auto_action(state, seat, g.stores[seat]) is None
    ]
    step = max(1, len(points) // count)
    return points[::step][:count]


@pytest.mark.parametrize("index", [11, 12])
def test_the_opponents_secrets_never_change_a_choice(small_hard, index):
    easy = keep_hands(bot_for("espeers", "easy"))
    g = play(new_game(index, DECKS[index % 2]), {0: easy, 1: easy})
    seat, them = index % 2, 1 - index % 2
    points = decision_points(g, seat, 8)
    assert len(points) >= 5
    changed = 0
    for k in points:
        b = other_world(g, them, k, salt=k)
        assert len(b.states) == k + 1
        mine, theirs = b.knowledge(seat), g_knowledge(g, seat, k)
        assert mine.view == theirs.view  # the same public game, the same own secrets
        hand_a = game.hand_of(g.states[k], them, g.stores[them])
        hand_b = game.hand_of(b.states[k], them, b.stores[them])
        changed += Counter(hand_a) != Counter(hand_b)
        for level in ("easy", "medium", "hard", "scripted"):
            bot = bot_for("espeers", level)
            assert bot(mine, b"same seed") == bot(theirs, b"same seed"), (level, k)
    assert changed >= 2  # the other world really holds other cards


def g_knowledge(g: Game, seat: int, k: int):
    return knowledge_of(game, g.setup, g.states[: k + 1], g.log[:k], seat, g.stores[seat])


def test_another_barrier_card_changes_nothing(small_hard):
    """The opponent's face-down barrier card: the same game with another card under it."""
    easy = keep_hands(bot_for("espeers", "easy"))

    def barrier_up(g, seat, knowledge):
        p = knowledge.view["players"][1 - seat]
        return p["barrier"] is not None and len(knowledge.legal) > 2 and knowledge.to_move

    for index in range(20, 40):
        g = play(new_game(index, DECKS[index % 2]), {0: easy, 1: easy}, stop=barrier_up)
        if game.result(g.state) is None:
            break
    else:
        pytest.fail("no game with a barrier up at a real choice")
    seat = min(game.to_move(g.state))
    them = 1 - seat
    k = len(g.states) - 1
    placed = max(
        i for i, (who, c, _) in enumerate(g.choices) if who == them and isinstance(c, PlaceBarrier)
    )
    hand = game.hand_of(g.states[placed], them, g.stores[them])
    predicted = {e[3][0] for e in g.state.events if e[2] == "answer"}
    original = g.choices[placed][1].card
    others = [c for c in sorted(set(hand)) if c != original and policy.SYMBOL[c] not in predicted]
    assert others
    b = Game(g.setup, g.seed, dict(g.stores))
    b.stores[them] = PrivateStore(Context(g.setup.match_id, them))
    b.stores[them].commit(DECK_LABEL, g.stores[them].value(DECK_LABEL))
    b.states.append(game.initial_state(g.setup, g.seed))
    for i, (who, choice, auto) in enumerate(g.choices):
        if auto:
            choice = game.auto_action(b.state, who, b.stores[who])
        elif i == placed:
            choice = PlaceBarrier(others[0])
        elif isinstance(choice, PlaceBarrier):
            choice = PlaceBarrier(choice.card)
        b.act(who, choice, auto)
    assert len(b.states) == k + 1
    mine, theirs = b.knowledge(seat), g.knowledge(seat)
    assert mine.view == theirs.view
    assert b.stores[them].value(b.state.players[them].barrier.label) == others[0]
    for level in ("easy", "medium", "hard", "scripted"):
        bot = bot_for("espeers", level)
        assert bot(mine, b"seed") == bot(theirs, b"seed"), level


# -- the model keeps step with the engine -----------------------------------------------------


def world_of(state, stores) -> World:
    """The engine's state as a model world, every secret included (tests only)."""
    w = World()
    for s, p in enumerate(state.players):
        w.pool[s], w.spent[s], w.shield[s] = p.pool, p.spent, p.shield
        w.hand[s] = game.hand_of(state, s, stores[s])
        order = deck_order(stores[s].value(DECK_LABEL), state.seed, p.mulligans)
        w.deck[s] = list(reversed(order[p.drawn :]))
        if p.barrier is not None:
            w.bar[s] = stores[s].value(p.barrier.label)
            w.bturn[s] = p.barrier.placed_turn
    w.stack = [[i.owner, i.card, i.countered] for i in state.stack]
    w.queue = list(state.queue)
    w.resolving = None if state.resolving is None else state.resolving.owner
    if state.pending is not None:
        w.pending = (state.pending.kind, state.pending.seat, state.pending.amount)
    w.passes, w.opp, w.active, w.turn = state.passes, state.opportunity, state.active, state.turn
    w.ending = state.phase == "end"
    if state.outcome is not None:
        w.winner = min(state.outcome.winners)
    return w


def signature(w: World) -> tuple:
    live = w.winner is None  # (a hand that could not draw in full is not compared)
    sides = tuple(
        (w.pool[s], w.spent[s], w.bar[s], live and tuple(sorted(w.hand[s])), w.shield[s])
        for s in (0, 1)
    )
    return (
        sides,
        tuple(map(tuple, w.stack)),
        w.to_move() if live else None,
        w.active,
        w.turn,
        w.pending,
        w.winner,
        w.passes if live else None,
        w.ending,
    )


@pytest.mark.parametrize("index", range(12))
def test_the_model_agrees_with_the_engine(index):
    """Same legal actions and the same next position, over whole seeded games played half by
    the rule-of-thumb player (to reach barriers, counters and discards) and half at random."""
    decks = [DECKS[0], DECKS[1], ["onslaught", "onslaught"], ["mindwall", "mindwall"]][index % 4]
    g = new_game(100 + index, decks)
    rng, fast = Rng(f"agree-{index}".encode()), Fast(index)
    checked = 0
    while game.result(g.state) is None:
        seat = min(game.to_move(g.state))
        legal = game.legal_actions(g.state, seat, g.stores[seat])
        if g.state.phase == "mulligan":
            g.act(seat, rng.choice(legal))
            g.autos()
            continue
        w = world_of(g.state, g.stores)
        model = [to_model(a) for a in legal]
        assert sorted(map(repr, w.legal())) == sorted(map(repr, model))
        wanted = policy.choose(w.copy(), fast) if rng.below(3) else to_model(rng.choice(legal))
        action = legal[model.index(wanted)]
        w.step(wanted)
        g.act(seat, action)
        g.autos()
        assert signature(w) == signature(world_of(g.state, g.stores)), action
        checked += 1
    assert checked > 40


def test_sampled_worlds_are_consistent_with_the_view():
    easy = bot_for("espeers", "easy")
    checked = 0

    def check(g, seat, knowledge):
        nonlocal checked
        if g.state.phase != "active" or checked > 80:
            return checked > 80
        view = knowledge.view
        deck = g.stores[seat].value(DECK_LABEL)["cards"]
        belief = believe(seat, view, deck, knowledge.history)
        assert belief.passes == g.state.passes  # worked out from the public history
        w = belief.sample(Fast(len(g.states)))
        for s in (0, 1):
            p = view["players"][s]
            assert (w.pool[s], w.spent[s], len(w.deck[s])) == (p["pool"], p["spent"], p["deck"])
            assert len(w.hand[s]) == p["hand"]
            assert (w.bar[s] is not None) == (p["barrier"] is not None)
        assert sorted(w.hand[seat]) == sorted(view["me"]["hand"])
        # every card of theirs, seen or not, adds up to one 30-card starter deck
        them = 1 - seat
        cards = Counter(w.hand[them] + w.deck[them] + [c for c in [w.bar[them]] if c])
        cards.update(view["players"][them]["discard"])
        cards.update(i["card"] for i in view["stack"] if i["owner"] == them)
        assert sum(cards.values()) == 30
        checked += 1
        return False

    play(new_game(41, DECKS[0]), {0: easy, 1: easy}, stop=check)
    assert checked > 20


def test_the_scripted_reference_reads_only_the_view():
    """The scripted level makes the same choices as the balance simulation's scripted player
    given the whole state."""
    scripted = bot_for("espeers", "scripted")
    compared = 0

    def compare(g, seat, knowledge):
        nonlocal compared
        if knowledge.to_move and len(knowledge.legal) > 1:
            seed = bytes([compared % 256]) * 32
            legal = list(knowledge.legal)
            direct = espeers_scripted.choose(g.state, seat, legal, Rng(seed))
            assert scripted(knowledge, seed) == direct
            stand_in = public_stand_in(knowledge.view)
            assert stand_in.active == g.state.active
            compared += 1
        return False

    play(new_game(42, DECKS[1]), {0: scripted, 1: scripted}, stop=compare)
    assert compared > 20


# -- strength, a small smoke test (the real figures come from the arena) ----------------------


def test_medium_beats_random():
    wins = 0
    for index in range(4):
        seat = index % 2
        g = new_game(200 + index, DECKS[index // 2 % 2])
        bots = {seat: bot_for("espeers", "medium"), 1 - seat: bot_for("espeers", "random")}
        play(g, bots)
        wins += seat in game.result(g.state).winners
    assert wins >= 3


def test_the_bot_module_is_light_to_import():
    """Nothing heavy at import: the card tables only."""
    assert isinstance(espeers_bot.LEVELS["medium"].playouts, int)


def test_the_model_follows_the_end_of_turn():
    """Once the active player passes on an empty stack its Active phase is over (discard down to
    six), then the opponent has a last Opportunity (no PK for the active player any more), and
    the turn ends when both have passed in a row with nothing on the stack."""
    w = World()
    w.hand = [["mind-spike"] * 7, ["mind-drain", "psychic-jab"]]
    w.deck = [["focus"] * 10, ["focus"] * 10]
    w.step((PASS,))
    assert w.pending == ("discard", 0, 1)
    w.step((DISCARD, ("mind-spike",)))
    assert (w.ending, w.opp, w.active) == (True, 1, 0)
    assert (PLAY, "psychic-jab") not in w.legal()  # not their turn either
    w.step((PLAY, "mind-drain"))
    assert w.opp == 0 and all(a[0] != PLAY for a in w.legal())  # no PK any more
    w.step((PASS,))
    w.step((PASS,))  # the drain resolves; its owner has Opportunity again
    assert (w.pool[0], w.spent[0], w.opp, w.turn) == (8, 2, 1, 1)
    w.step((PASS,))
    assert (w.opp, w.turn) == (0, 1)
    w.step((PASS,))  # both passed in a row on an empty stack: the turn ends
    assert (w.active, w.turn, w.ending, len(w.hand[1])) == (1, 2, False, 2)


# -- the balance script ----------------------------------------------------------------------


def test_the_balance_script_swaps_seats_and_the_first_player():
    """Game k: the decks' seats swap every game and the first player every second game, so
    each deck is first as often as second (the rules' own draw of the first player)."""
    from parlour.bots.espeers.balance import seed_with_first

    for index in range(8):
        seed = seed_with_first(3, index, (index // 2) % 2)
        assert Rng(seed).derive("espeers:first").below(2) == (index // 2) % 2


def test_the_balance_table_gives_every_card_its_play_and_win_rate():
    from parlour.bots.espeers.balance import balance, table
    from parlour.games.espeers.cards import CARDS, STARTER_DECKS

    result = balance("easy", 4, 5)
    assert sum(result["wins"].values()) + result["hung"] == 4
    for deck, figures in result["cards"].items():
        assert set(figures) == set(STARTER_DECKS[deck]["cards"])
        for row in figures.values():
            assert row["won"] <= row["played"] <= row["drawn"] <= 4
            assert row["cycled"] <= row["drawn"]
        assert sum(row["drawn"] for row in figures.values()) > 0
    lines = table(result)
    assert lines[1].strip().startswith("onslaught    wins ")
    assert any(line.strip().startswith("first player wins ") for line in lines)
    for deck in STARTER_DECKS.values():
        for card in deck["cards"]:
            assert any(line.strip().startswith(CARDS[card].name) for line in lines)


def test_balance_runs_merge_into_one_table():
    """A long run is split into pieces that each finish; `--merge` adds them up."""
    from parlour.bots.espeers.balance import balance, merged, table

    runs = [balance("easy", 4, 7), balance("easy", 4, 8)]
    total = merged(runs)
    assert total["games"] == 8 and total["seeds"] == [7, 8]
    assert sum(total["wins"].values()) == sum(sum(r["wins"].values()) for r in runs)
    assert sum(total["turns"].values()) == 8 - total["hung"]
    for deck, figures in total["cards"].items():
        for card, row in figures.items():
            assert row["drawn"] == sum(r["cards"][deck][card]["drawn"] for r in runs)
    assert "8 games (seeds 7-8)" in table(total)[0]
    with pytest.raises(ValueError):
        merged([runs[0], balance("easy", 4, 9, ("mindwall", "mindwall"))])
