"""ESP engine speed: positions per second of legal-action generation plus apply.

A position here is one step of a seeded random playout: list every legal action for the seat to
move (with its private store, as a bot would), pick one, seal it, apply it. The baseline, run in
the same process and the same minute, is plain Python doing the kind of work the engine does: a
flood fill over a 40-cell hex blob. The ratio (positions per flood fill) is what to compare
between machines and commits; the absolute figure is for the README.
"""

from __future__ import annotations

import time

from parlour.fair.rng import Rng
from parlour.games import GAMES
from parlour.games.esp.hexgrid import is_connected
from parlour.match.config import MatchConfig
from parlour.match.table import Table

ESP = GAMES["esp"]
BLOB = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3][:40]


def _flood_fills(seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        is_connected(BLOB)
        count += 1
    return count / (time.perf_counter() - start)


def _playout_positions(seconds: float) -> float:
    positions, start, game = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        seats = 2 + game % 3
        names = tuple(f"P{i}" for i in range(seats))
        table = Table.new(
            ESP, MatchConfig("esp", f"m-bench-{game:06d}", names), bytes(32), range(seats)
        )
        rng = Rng(game.to_bytes(4, "big"))
        state = table.state
        while ESP.result(state) is None and state.ply < 300:
            seat = min(ESP.to_move(state))
            store = table.stores[seat]
            choice = rng.choice(ESP.legal_actions(state, seat, store))
            state = ESP.apply(state, seat, ESP.seal(state, seat, choice, store))
            positions += 1
        game += 1
    return positions / (time.perf_counter() - start)


def run(seconds: float = 3.0) -> list[str]:
    fills = _flood_fills(seconds / 3)
    positions = _playout_positions(seconds)
    fills_again = _flood_fills(seconds / 3)
    baseline = (fills + fills_again) / 2
    return [
        "ESP engine (random playouts, 2-4 seats, legal actions + seal + apply per position)",
        f"  positions per second:              {positions:8.0f}",
        f"  baseline flood fills per second:   {baseline:8.0f}",
        f"  ratio positions / flood fills:     {positions / baseline:8.3f}",
    ]
