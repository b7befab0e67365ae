"""The ESP bots: legal, deterministic, blind to other seats' secrets, a fast model that agrees
with the engine, and a small check that they beat the random player.

Positions come from seeded random games played through the real engine, with each seat's own
store sealing its face-down tiles, exactly as the arena and the page do.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlour.bots.arena import deal, match, play, tournament
from parlour.bots.base import knowledge_of
from parlour.bots.esp import model, player
from parlour.bots.esp.evaluate import WIN, Tracker, Weights, judge_for
from parlour.bots.esp.player import LEVELS, drawn_keys, view_key
from parlour.bots.esp.prng import Prng
from parlour.bots.esp.search import Search
from parlour.bots.registry import BOTS, bot_for, player_levels
from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.base import Setup
from parlour.games.esp.actions import AnswerDraw, Flip, Move, Pass, Place, ProposeDraw
from parlour.games.esp.rules import position_key
from parlour.games.zener import Symbol

esp = GAMES["esp"]


# -- helpers -----------------------------------------------------------------------------------


class Game:
    """A game driven step by step through the engine, as the arena drives it."""

    def __init__(self, seats: int, name: str = "m-bot-esp") -> None:
        self.setup = Setup(name, tuple("ABCD"[:seats]))
        self.stores = deal(esp, self.setup)
        self.states = [esp.initial_state(self.setup, b"seed")]
        self.log: list = []

    @property
    def state(self):
        return self.states[-1]

    def over(self) -> bool:
        return esp.result(self.state) is not None

    def seat(self) -> int:
        return min(esp.to_move(self.state))

    def legal(self, seat: int) -> list:
        return esp.legal_actions(self.state, seat, self.stores[seat])

    def act(self, seat: int, choice) -> None:
        action = esp.seal(self.state, seat, choice, self.stores[seat])
        self.states.append(esp.apply(self.state, seat, action))
        self.log.append((seat, esp.action_to_json(action)))

    def knowledge(self, seat: int):
        return knowledge_of(esp, self.setup, self.states, self.log, seat, self.stores[seat])


def random_choice(rng: random.Random, legal: list, hide: float):
    """A random legal action; placements face-down with probability `hide`."""
    places = [a for a in legal if isinstance(a, Place)]
    if places:
        hidden = [a for a in places if a.hidden]
        shown = [a for a in places if not a.hidden]
        pick = hidden if hidden and (rng.random() < hide or not shown) else shown
        return rng.choice(pick)
    return rng.choice(legal)


def random_game(seats: int, seed: int, steps: int, hide: float = 0.5) -> Game:
    """A seeded random game of up to `steps` actions (it stops early if it ends)."""
    rng = random.Random(seed)
    game = Game(seats, f"m-bot-esp-{seed}")
    for _ in range(steps):
        if game.over():
            break
        seat = game.seat()
        game.act(seat, random_choice(rng, game.legal(seat), hide))
    return game


def live_game(seats: int, seed: int, steps: int, hide: float = 0.5) -> Game:
    """A random game still going after `steps` actions (the first seed from `seed` that is)."""
    for attempt in range(seed, seed + 50):
        game = random_game(seats, attempt, steps, hide)
        if not game.over():
            return game
    raise AssertionError("no live game found")


def same_choice(a, b) -> bool:
    """Two choices are the same decision (a flip's opening differs between stores)."""
    if isinstance(a, Flip) and isinstance(b, Flip):
        return a.cell == b.cell
    return a == b


def truth(game: Game) -> model.Position:
    """The model's position with every symbol known (read from each seat's own store)."""
    state, stores = game.state, game.stores
    pos = model.Position(state.seats)
    for cell, tile in sorted(state.board.items(), key=lambda kv: kv[1].placed_at):
        value = tile.symbol.value if tile.up else stores[tile.owner].value(f"tile:{tile.index}")
        pos.add_tile(model.cell_of(*cell), tile.owner, model.SYMBOL_INDEX[value], tile.up)
    for seat in range(state.seats):
        tray = esp.seat_view(state, seat, stores[seat])["me"]["tray"]
        pos.pool[seat] = [tray.count(s.value) for s in Symbol]
    pos.set_turn(state.to_move)
    pos.passes = state.passes
    return pos


def to_model(pos: model.Position, action) -> tuple:
    if isinstance(action, Place):
        cell = model.cell_of(*action.cell)
        return (model.PLACE, cell, model.SYMBOL_INDEX[action.symbol.value], not action.hidden)
    if isinstance(action, Flip):
        return (model.FLIP, pos.board[model.cell_of(*action.cell)])
    if isinstance(action, Move):
        return (model.MOVE, pos.board[model.cell_of(*action.cell)], action.direction)
    assert isinstance(action, Pass)
    return model.PASS_ACTION


# -- the fast model agrees with the engine ----------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_model_agrees_with_the_engine(seats):
    """Same legal actions, same position after each, same sets and winners, same repetition
    keys, and undo restores everything, over whole seeded random games."""
    checked = 0
    for seed in range(2):
        rng = random.Random(100 * seats + seed)
        game = Game(seats, f"m-model-{seats}-{seed}")
        keys: dict[int, tuple] = {}
        while not game.over() and len(game.log) < 250:
            seat = game.seat()
            legal = game.legal(seat)
            pos = truth(game)
            assert sorted(pos.actions()) == sorted(to_model(pos, a) for a in legal)
            choice = random_choice(rng, legal, 0.5)
            before = (dict(pos.board), list(pos.up), list(pos.pool[seat]), pos.key, pos.occ)
            record, changed = pos.play(to_model(pos, choice))
            sets = pos.sets_through(changed) if changed is not None else []
            winners = pos.winners(sets, seat) if sets else None
            after = (dict(pos.board), list(pos.up), pos.key)
            pos.undo(record)
            assert (dict(pos.board), list(pos.up), list(pos.pool[seat]), pos.key, pos.occ) == (
                before
            )
            game.act(seat, choice)
            state = game.state
            now = truth(game)
            assert (dict(now.board), list(now.up), now.key) == after
            if state.sets:
                expected = sorted(tuple(model.cell_of(*c) for c in w) for w in state.sets)
                assert sorted(sets) == expected
                assert winners == state.outcome.winners
            else:
                assert sets == []
            if not state.placing:
                engine_key = (tuple(sorted(state.board.items())), state.to_move)
                plain = tuple((c, t.owner, t.symbol) for c, t in engine_key[0])
                assert keys.setdefault(now.key, (plain, state.to_move)) == (plain, state.to_move)
            checked += 1
    assert checked > 100


def test_window_table_and_estimates_agree_with_playing():
    """The tracker kept up move by move equals one built afresh; its one-ply estimates equal
    the judgement after playing; `winning_action` finds a winning action exactly when one
    exists."""
    rng = random.Random(7)
    for seats in (2, 3, 4):
        judge = judge_for(seats, Weights())
        pos = model.Position(seats)
        tracker = Tracker(pos, judge)
        for _ in range(120):
            me = rng.randrange(seats)
            for est, action, complete in tracker.ranked(me):
                played = tracker.play(action)
                made = pos.sets_through(played[1]) if played[1] is not None else []
                assert bool(made) == complete
                if not complete:
                    assert tracker.score(me) == pytest.approx(est)
                tracker.undo(played)
            mover = pos.to_move
            wins = []
            for action in pos.actions():
                record, changed = pos.play(action)
                made = pos.sets_through(changed) if changed is not None else []
                if made and pos.winners(made, mover) == {mover}:
                    wins.append(action)
                pos.undo(record)
            found = tracker.winning_action(mover)
            assert (found is None) == (not wins) and (found is None or found in wins)
            actions = pos.actions()
            played = tracker.play(actions[rng.randrange(len(actions))])
            fresh = Tracker(pos.copy(), judge)
            assert fresh.hot == tracker.hot
            assert fresh.total == pytest.approx(tracker.total)
            if played[1] is not None and pos.sets_through(played[1]):
                break


@pytest.mark.parametrize("seats,seed,steps", [(3, 31, 20), (4, 41, 30), (4, 42, 60)])
def test_best_reply_search_leaves_the_position_as_it_found_it(seats, seed, steps):
    """Best-reply search hands the move to any of the others (and back) inside the search: after
    it, the position, its key, the seat to move and the window table are as before, and two
    searches agree. With two seats it is the paranoid search itself."""
    game = live_game(seats, seed, steps)
    pos = truth(game)
    tracker = Tracker(pos, judge_for(seats, Weights()))
    me = pos.to_move
    before = (pos.key, pos.to_move, dict(pos.board), list(tracker.total), dict(tracker.hot))
    search = Search(tracker, me, 8, brs=True)
    actions = [a for _, a, _ in tracker.ranked(me)[:6]]
    values = [search.root_value(a, 3, -WIN - 1) for a in actions]
    after = (pos.key, pos.to_move, dict(pos.board), list(tracker.total), dict(tracker.hot))
    assert after[:3] == before[:3] and after[4] == before[4]
    assert after[3] == pytest.approx(before[3])
    assert values == pytest.approx([search.root_value(a, 3, -WIN - 1) for a in actions])
    two = live_game(2, seed, steps)
    pos2 = truth(two)
    t2 = Tracker(pos2, judge_for(2, Weights()))
    first = [a for _, a, _ in t2.ranked(pos2.to_move)[:4]]
    paranoid = Search(t2, pos2.to_move, 8)
    best_reply = Search(t2, pos2.to_move, 8, brs=True)
    assert [paranoid.root_value(a, 3, -WIN - 1) for a in first] == pytest.approx(
        [best_reply.root_value(a, 3, -WIN - 1) for a in first]
    )


def test_view_keys_match_the_model_and_repetitions_are_found():
    """Every movement position's key read from a view is the model's key, and the positions a
    bot treats as drawn on their next occurrence are those the engine has counted twice since
    the last flip (no earlier position can come back)."""
    game = live_game(2, 3, 20, hide=0.2)
    rng = random.Random(3)
    # Then a few tiles shuffled back and forth, so that positions repeat.
    checked = 0
    for _ in range(80):
        if game.over():
            break
        seat = game.seat()
        legal = game.legal(seat)
        moves = [a for a in legal if isinstance(a, Move)] or legal
        game.act(seat, moves[rng.randrange(min(2, len(moves)))])
        if game.over():
            break
        seat = game.seat()
        knowledge = game.knowledge(seat)
        assert view_key(knowledge.view) == truth(game).key
        state = game.state
        last = max(i for i, (_, entry) in enumerate(game.log) if entry["type"] != "move")
        since = {}
        for s in game.states[last + 1 :]:
            since[position_key(s.board, s.to_move)] = view_key(esp.public_view(s))
        expected = {since[k] for k, n in state.seen.items() if n >= 2 and k in since}
        assert drawn_keys(knowledge) == expected
        checked += 1
    assert checked > 10


# -- the contract --------------------------------------------------------------------------------


def test_levels_are_registered():
    assert player_levels("esp") == ("easy", "medium", "hard")
    for level in ("easy", "medium", "hard", "random"):
        assert bot_for("esp", level) is BOTS[("esp", level)]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_choice_is_legal_and_deterministic(seats):
    """From placement and movement positions of seeded random games, every level returns one of
    the legal actions, and the same one twice for the same knowledge and seed."""
    for seed, steps in ((10 + seats, 7 * seats), (20 + seats, 30 * seats)):
        game = live_game(seats, seed, steps)
        seat = game.seat()
        knowledge = game.knowledge(seat)
        for level in ("easy", "medium", "hard"):
            bot = bot_for("esp", level)
            first = bot(knowledge, b"bot-seed")
            assert first in knowledge.legal
            assert bot(knowledge, b"bot-seed") == first


def test_a_whole_game_between_the_levels_is_legal():
    bots = {0: bot_for("esp", "easy"), 1: bot_for("esp", "medium")}
    checked = []

    def watch(state, seat, action):
        checked.append(seat)

    played = play(esp, Setup("m-bot-esp-whole", ("A", "B")), b"whole", bots, watch)
    assert played.outcome is not None and checked


def test_draw_offers_are_answered_and_optional_steps_declined():
    game = live_game(2, 5, 30)
    seat = game.seat()
    game.act(seat, ProposeDraw())
    other = game.seat()
    knowledge = game.knowledge(other)
    assert list(knowledge.legal) == [AnswerDraw(True), AnswerDraw(False)]
    for level in ("easy", "medium", "hard"):
        answer = bot_for("esp", level)(knowledge, b"x")
        assert answer in knowledge.legal
    waiting = game.knowledge(seat)
    assert not waiting.to_move
    assert all(bot_for("esp", lv)(waiting, b"x") is None for lv in ("easy", "medium", "hard"))


# -- no cheating ---------------------------------------------------------------------------------


def twin(game: Game, me: int, rng: random.Random) -> Game:
    """The same public game with other secrets: every other seat's tiles still face-down at the
    end hold other symbols (drawn again from that seat's unshown symbols), replayed through the
    engine action by action with that seat's own new store."""
    final = game.state
    remap: dict[tuple[int, int], str] = {}
    for seat in range(final.seats):
        if seat == me:
            continue
        down = sorted(
            (t for t in final.board.values() if t.owner == seat and not t.up),
            key=lambda t: t.index,
        )
        shown = Counter(t.symbol.value for t in final.board.values() if t.owner == seat and t.up)
        bag = [s.value for s in Symbol for _ in range(2 - shown[s.value])]
        old = [game.stores[seat].value(f"tile:{t.index}") for t in down]
        for _ in range(20):
            rng.shuffle(bag)
            if bag[: len(down)] != old:
                break
        for tile, value in zip(down, bag, strict=False):
            remap[(seat, tile.index)] = value
    other = Game(final.seats, game.setup.match_id)
    other.stores[me] = game.stores[me].__class__(
        game.stores[me].context, dict(game.stores[me].openings)
    )
    for (seat, entry), state in zip(game.log, game.states, strict=False):
        kind = entry["type"]
        if kind == "place" and "commitment" in entry:
            index = state.placed[seat]
            value = remap.get((seat, index), game.stores[seat].value(f"tile:{index}"))
            if seat == me:
                value = game.stores[me].value(f"tile:{index}")
            choice = Place(tuple(entry["cell"]), Symbol(value), hidden=True)
            if seat == me:
                action = Place(tuple(entry["cell"]), None, True, entry["commitment"])
                other.states.append(esp.apply(other.state, seat, action))
                other.log.append((seat, entry))
                continue
            other.act(seat, choice)
        elif kind == "flip":
            cell = tuple(entry["cell"])
            (flip,) = [a for a in other.legal(seat) if isinstance(a, Flip) and a.cell == cell]
            other.act(seat, flip)
        else:
            other.act(seat, esp.parse_action(entry))
    assert [esp.public_view(s)["tiles"] != [] for s in other.states] == [
        esp.public_view(s)["tiles"] != [] for s in game.states
    ]
    return other


@pytest.mark.parametrize("seats,seed,steps", [(2, 1, 14), (2, 2, 45), (3, 3, 24), (4, 4, 70)])
def test_no_level_reads_the_other_seats_secrets(seats, seed, steps):
    """Same seat view and seed, other hidden symbols for every other seat (consistent with
    everything public): every level makes the same choice."""
    game = live_game(seats, seed, steps, hide=0.7)
    me = game.seat()
    other = twin(game, me, random.Random(seed))
    mine, theirs = game.knowledge(me), other.knowledge(me)
    strip = _public_faces
    assert strip(mine.view) == strip(theirs.view)
    secrets = [
        (c, t.owner)
        for c, t in game.state.board.items()
        if t.owner != me and not t.up and other.state.board[c].commitment != t.commitment
    ]
    assert secrets  # the two worlds do differ in some other seat's hidden symbol...
    differ = [
        c
        for c, t in game.state.board.items()
        if t.owner != me
        and not t.up
        and game.stores[t.owner].value(f"tile:{t.index}")
        != other.stores[t.owner].value(f"tile:{t.index}")
    ]
    assert differ  # ...in the symbols themselves, not only the commitments
    for level in ("easy", "medium", "hard"):
        bot = bot_for("esp", level)
        for seed_bytes in (b"one", b"two"):
            assert same_choice(bot(mine, seed_bytes), bot(theirs, seed_bytes)), level


def _public_faces(view) -> list:
    """A view without commitments (they change with the hidden values, and bots ignore them)."""
    return [{k: v for k, v in t.items() if k != "commitment"} for t in view["tiles"]] + [
        view["me"],
        view["stage"],
        view["to_move"],
        view["seats"],
    ]


# -- strength, in small -------------------------------------------------------------------------


def test_the_bots_beat_the_random_player():
    """A smoke test only (the figures come from the arena): two games each."""
    for level in ("easy", "medium"):
        report = tournament("esp", 2, level, "random", 2, 11)
        assert report["wins"]["a"] == 2, report


def test_the_bot_levels_differ():
    assert LEVELS["easy"].depth < LEVELS["medium"].depth < LEVELS["hard"].depth
    _ = Rng(b"x")


# -- repetition: a seat that is ahead does not draw by it (issue 25) ----------------------------

# Two medium bots, the arena's game 4 of seed 1 (before the fix), every choice up to Ada's last:
# ("p", q, r, symbol, hidden), ("m", q, r, direction), ("f", q, r). From step 87 both seats
# shuttle one tile; Ada, ahead by her own judgement, then moved (-6, 6) in direction 4 into a
# position met twice already, and the game was drawn by repetition.
SHUTTLED = (
    ('p', 0, 0, 'circle', False), ('p', -1, 0, 'circle', True), ('p', -1, 1, 'circle', True),
    ('p', -2, 1, 'circle', True), ('p', -2, 0, 'cross', False), ('p', -2, 2, 'cross', True),
    ('p', -3, 2, 'cross', True), ('p', -3, 3, 'waves', True), ('p', -2, 3, 'square', False),
    ('p', -4, 3, 'waves', False), ('p', -4, 4, 'square', False), ('p', -4, 2, 'square', True),
    ('p', -5, 4, 'waves', True), ('p', -5, 5, 'star', False), ('p', -4, 5, 'waves', True),
    ('p', 0, -1, 'square', True), ('p', 0, 1, 'star', False), ('p', 1, -1, 'cross', True),
    ('p', 1, -2, 'star', True), ('p', -6, 5, 'star', True), ('m', -4, 4, 4), ('f', -3, 3),
    ('m', -2, 0, 0), ('f', -2, 2), ('m', 1, 0, 2), ('f', -6, 5), ('m', 0, 1, 2), ('m', -4, 3, 4),
    ('f', -5, 4), ('f', -2, 1), ('m', -5, 4, 2), ('m', -4, 0, 1), ('m', -7, 6, 5),
    ('m', -2, 1, 2), ('m', -5, 4, 5), ('m', -3, 3, 4), ('m', 0, 0, 3), ('m', -2, 2, 0),
    ('m', -2, 0, 1), ('f', 1, -1), ('f', -1, 1), ('m', -3, 1, 3), ('m', -1, 1, 3),
    ('m', 1, -1, 4), ('m', -3, 1, 1), ('m', -5, 1, 0), ('m', -4, 1, 1), ('m', -7, 6, 5),
    ('f', -4, 5), ('m', -3, 1, 2), ('m', -2, 2, 1), ('m', 1, -3, 1), ('m', -3, 3, 3),
    ('m', 1, -1, 3), ('m', -4, 4, 0), ('f', -4, 2), ('f', 1, -2), ('m', -4, 3, 5),
    ('m', -1, 4, 3), ('m', -5, 5, 4), ('m', -6, 3, 0), ('m', 2, -3, 2), ('m', 1, -2, 2),
    ('m', -5, 2, 1), ('m', -4, 3, 1), ('m', -5, 5, 4), ('m', -8, 7, 5), ('m', -4, 2, 1),
    ('m', -2, 4, 4), ('m', -4, 7, 4), ('m', -4, 4, 1), ('f', 0, -1), ('m', -4, 3, 5),
    ('m', -7, 6, 5), ('m', 1, -2, 2), ('m', 0, -1, 3), ('m', -7, 6, 5), ('m', -2, -1, 0),
    ('m', -4, 7, 4), ('m', 0, 2, 3), ('m', -4, 4, 1), ('m', -4, 2, 3), ('m', -4, 7, 4),
    ('m', 1, -1, 3), ('m', -4, 4, 1), ('m', -2, -1, 0), ('m', -4, 7, 4), ('m', 1, -1, 3),
    ('m', -2, 2, 1), ('m', -2, -1, 0), ('m', -2, 4, 3), ('m', -1, -1, 0), ('m', -6, 4, 0),
    ('m', 2, -1, 3), ('m', -2, 4, 3), ('m', -1, -1, 0), ('m', -6, 4, 1), ('m', 2, -1, 3),
)  # fmt: skip
REPEATING = Move((-6, 6), 4)


class _Replayed(Exception):
    """Raised by the scripted players when the script is done: the knowledge of the seat to
    move then."""

    def __init__(self, knowledge) -> None:
        super().__init__("replayed")
        self.knowledge = knowledge


def _scripted(script):
    """A bot for every seat that makes the script's choices in turn, then stops the game."""
    choices = iter(script)

    def choose(knowledge, seed):
        if not knowledge.to_move:
            return None
        step = next(choices, None)
        if step is None:
            raise _Replayed(knowledge)
        kind, q, r, *rest = step
        for action in knowledge.legal:
            if getattr(action, "cell", None) == (q, r) and _matches(kind, rest, action):
                return action
        raise AssertionError(f"not legal now: {step}")

    return choose


def _matches(kind: str, rest: list, action) -> bool:
    if isinstance(action, Place):
        return kind == "p" and (action.symbol.value, action.hidden) == tuple(rest)
    if isinstance(action, Move):
        return kind == "m" and action.direction == rest[0]
    return kind == "f" and isinstance(action, Flip)


def _shuttled_knowledge():
    setup, seed = match(1, 4, 2)
    bot = _scripted(SHUTTLED)
    with pytest.raises(_Replayed) as replayed:
        play(esp, setup, seed, {0: bot, 1: bot})
    return replayed.value.knowledge


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_seat_that_is_ahead_does_not_repeat_a_position_a_third_time(level):
    """Every level, in the shuttle of the recorded game: the repeating move would end it in a
    draw (its position was met twice), the mover judges itself ahead, and it plays on (before
    the fix medium and hard both took the draw)."""
    knowledge = _shuttled_knowledge()
    seen = model.Seen(knowledge.view)
    after = seen.position()
    after.play(player.model_action(after.board, REPEATING))
    assert after.key in drawn_keys(knowledge)
    judge = judge_for(2, LEVELS[level].weights)
    assert Tracker(seen.determinise(Prng(b"judge")), judge).score(seen.seat) > 0
    for k in range(3):
        choice = bot_for("esp", level)(knowledge, bytes([k]) * 32)
        assert choice in knowledge.legal and choice != REPEATING
