"""How well the solver cracks one cypher on its own: guesses needed over many cyphers.

    PYTHONPATH=py python -m parlour.bots.arena --game psi-squad --solver --digits 4 \
        --cyphers all --level hard

Every cypher is cracked by the same decisions the bot makes in a game (`solver.guess_for`
against a cypher with that record), each timed (`think_ms`). The decision after each record is
taken once per run: the run walks the decision tree class by class, so all 10,000 cyphers cost
about a tree's worth of decisions, not 10,000 games.
"""

from __future__ import annotations

import time
from typing import Any

from parlour.bots.psi_squad.model import Split, win_code
from parlour.bots.psi_squad.solver import Record, guess_for
from parlour.fair.rng import Rng


def solver_report(digits: int, cyphers: str, level: str, seed: int) -> dict[str, Any]:
    """Mean, max and histogram of the guesses needed, over every cypher (`cyphers="all"`) or
    a seeded sample of K of them (`cyphers="K"`)."""
    n = digits
    everyone = list(range(10**n))
    if cyphers == "all":
        chosen = everyone
    else:
        chosen = Rng(f"psi-squad:solver:{seed}".encode()).sample(everyone, int(cyphers))
    histogram: dict[int, int] = {}
    win = win_code(n)
    think: list[float] = []

    def walk(record: Record, group: list[int]) -> None:
        started = time.perf_counter()
        guess = guess_for(n, record, level, seed)
        think.append(time.perf_counter() - started)
        for answer, part in Split(n, group).classes(guess).items():
            if answer == win:
                depth = len(record) + 1
                histogram[depth] = histogram.get(depth, 0) + len(part)
            else:
                walk((*record, (guess, answer)), part)

    walk((), chosen)
    count = sum(histogram.values())
    total = sum(k * v for k, v in histogram.items())
    return {
        "digits": n,
        "level": level,
        "count": count,
        "mean": round(total / count, 4),
        "max": max(histogram),
        "histogram": {str(k): histogram[k] for k in sorted(histogram)},
        "decisions": len(think),
        "think_ms": _ms(think),
    }


def _ms(times: list[float]) -> dict[str, float]:
    """Mean, median, 95th percentile and max of the decision times, in milliseconds."""
    ordered = sorted(times)
    return {
        "mean": round(1000 * sum(ordered) / len(ordered), 2),
        "median": round(1000 * ordered[len(ordered) // 2], 2),
        "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
        "max": round(1000 * ordered[-1], 2),
    }
