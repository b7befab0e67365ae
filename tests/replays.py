"""Finished games of every game for the replay tests: played to the end by easy bots (seeded),
with every seat's store on one device, as pass-and-play leaves them."""

from __future__ import annotations

from functools import cache

from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.psi_squad.actions import ChooseCypher
from parlour.games.psi_squad.state import score
from parlour.match import bot_seats
from parlour.match.config import MatchConfig
from parlour.match.replay import ReplayRecord
from parlour.match.table import AnyTable, Table
from tests.tables import labels, setups

SETUPS = setups()  # every game's example tables (games/<game>/facts.py)
IDS = labels()


def index_of(game_id: str) -> int:
    """The index in SETUPS of the game's first example (the tests of one game's replays)."""
    return next(i for i, (game, _, _) in enumerate(SETUPS) if game == game_id)


def finished_table(game_id: str, names: tuple[str, ...], variant: dict, index: int = 0) -> AnyTable:
    config = MatchConfig(game_id, f"m-replay-{index:04d}", names, variant)
    rng = Rng(f"replay-{game_id}-{len(names)}-{index}".encode())
    table = Table.new(GAMES[game_id], config, rng.read(32), range(len(names)))
    game = table.game
    for _ in range(3000):
        if table.match.result() is not None:
            return table
        state = table.state
        seats = sorted(game.to_move(state))
        moves = [(s, game.auto_action(state, s, table.stores[s])) for s in seats]
        seat, choice = next(((s, a) for s, a in moves if a is not None), (seats[0], None))
        if choice is None:
            choice = bot_seats.decide(table, seat, "easy", rng.read(32)).choice
        result = table.act(seat, choice)
        assert result.ok, result.reason
    raise AssertionError(f"a game of {game_id} between easy bots did not end")


@cache
def finished(setup: int, index: int = 0) -> tuple[AnyTable, ReplayRecord]:
    """The `setup`-th game of SETUPS, finished, and its replay record (kept: tests only read)."""
    table = finished_table(*SETUPS[setup], index=index)
    openings = {s: table.openings(s) for s in table.stores}
    return table, ReplayRecord.of(table.match, openings)


def endless(moves: int) -> ReplayRecord:
    """A Psi Squad record of `moves` log entries that follows every rule and every seal: two
    seats guess "00000" at each other forever (no cypher holds a 0, so no guess ever ends the
    game), and every answer is the truth. No real game is that long: it is the worst a forger
    can send the viewer (issue 25)."""
    config = MatchConfig("psi-squad", "m-endless", ("Ann", "Bo"), {"length": 5})
    table = Table.new(GAMES["psi-squad"], config, Rng(b"endless").read(32), (0, 1))
    cyphers = ("12345", "67891")
    for seat, digits in enumerate(cyphers):
        assert table.act(seat, ChooseCypher(digits)).ok
    log = [(e.seat, e.action) for e in table.match.entries]
    guesser = min(table.game.to_move(table.state))
    while len(log) < moves:
        target = 1 - guesser
        correct, spotted = score(cyphers[target], "00000")
        log.append((guesser, {"type": "guess", "target": target, "digits": "00000"}))
        log.append((target, {"type": "answer", "correct": correct, "spotted": spotted}))
        guesser = target
    openings = {s: table.openings(s) for s in (0, 1)}
    return ReplayRecord(config, table.match.seed, tuple(log[:moves]), openings)
