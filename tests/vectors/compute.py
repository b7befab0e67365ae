"""Compute the fair-play test vectors' outputs from their inputs.

Runs unchanged in CPython (tests/test_vectors.py) and inside Pyodide on the real page
(e2e/test_vectors_in_browser.py): both must produce exactly the checked-in fair.json.
Only the standard library and parlour.fair, parlour.match.log are used.
"""

from __future__ import annotations

from parlour.fair.commit import Context, commit
from parlour.fair.encoding import digest
from parlour.fair.joint import JOINT_TAG, JOINT_VERSION
from parlour.fair.rng import Rng
from parlour.match.log import entry_hash, genesis_hash


def commitment_outputs(case: dict) -> dict:
    context = Context(case["match_id"], case["seat"])
    value, _ = commit(context, case["label"], case["value"], bytes.fromhex(case["nonce"]))
    return {"commitment": value}


def rng_outputs(case: dict) -> dict:
    seed = bytes.fromhex(case["seed"])
    draws = Rng(seed).derive("below")
    ints = Rng(seed).derive("randint")
    low, high = case["randint"]
    size, k = case["sample"]
    return {
        "stream": Rng(seed).read(48).hex(),
        "below": [[n, [draws.below(n) for _ in range(8)]] for n in case["below"]],
        "randint": [ints.randint(low, high) for _ in range(8)],
        "shuffle": Rng(seed).derive("shuffle").shuffled(list(range(case["shuffle"]))),
        "choice": [Rng(seed).derive("choice").choice(case["choice"]) for _ in range(1)],
        "sample": Rng(seed).derive("sample").sample(list(range(size)), k),
        "derived_seed": Rng(seed).derive("deck").seed.hex(),
    }


def joint_outputs(case: dict) -> dict:
    contributions = [bytes.fromhex(r) for r in case["reveals"]]
    seed = digest((JOINT_TAG, JOINT_VERSION, case["match_id"], case["label"], *contributions))
    return {"seed": seed.hex()}


def log_outputs(case: dict) -> dict:
    genesis = genesis_hash(case["config"], bytes.fromhex(case["seed"]))
    first = entry_hash(case["config"]["match_id"], 1, case["seat"], case["action"], genesis)
    return {"genesis": genesis, "entry": first}


KINDS = {
    "commitment": commitment_outputs,
    "rng": rng_outputs,
    "joint": joint_outputs,
    "log": log_outputs,
}


def compute(vectors: dict) -> dict:
    """Fill in the `expected` of every case from its `input`."""
    return {
        kind: [{"input": c["input"], "expected": KINDS[kind](c["input"])} for c in cases]
        for kind, cases in vectors.items()
    }
