"""The ESPEERS balance figures docs/espeers-cards.md quotes are the balance tool's own merge of
runs kept in the repository (docs/espeers-balance/*.jsonl, one `--json` line per piece of a
run), measured on the starter decks as they are now.

Why: a long run at hard is split into pieces that each finish, and an earlier session added
two runs up by hand and lost the first run's JSON lines (issue 28), so its 332 games could not
be checked or merged again; the figures also went stale when the bot changed. Here the quoted
table must be exactly what `python -m parlour.bots.espeers.balance --merge FILE` prints, and a
change to the starters' card lists fails until the runs are made again on the new decks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.bots.espeers.balance import Balance, merged, table
from parlour.games.espeers.cards import STARTER_DECKS

ROOT = Path(__file__).resolve().parents[2]
RUNS = sorted((ROOT / "docs" / "espeers-balance").glob("*.jsonl"))
DOC = (ROOT / "docs" / "espeers-cards.md").read_text()


def pieces(path: Path) -> list[Balance]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_the_doc_quotes_kept_runs():
    assert RUNS, "docs/espeers-balance holds the runs docs/espeers-cards.md quotes"
    for path in RUNS:
        assert f"docs/espeers-balance/{path.name}" in DOC, f"{path.name} is not cited"


@pytest.mark.parametrize("path", RUNS, ids=[p.stem for p in RUNS])
def test_the_quoted_table_is_the_tool_s_merge_of_the_kept_run(path):
    quoted = "\n".join(f"    {line}" for line in table(merged(pieces(path))))
    assert quoted in DOC


@pytest.mark.parametrize("path", RUNS, ids=[p.stem for p in RUNS])
def test_the_kept_run_played_the_starter_decks_as_they_are(path):
    """Cards and copies: moving one copy from card to card (as issue 28's candidates did) makes
    the kept runs stale, not only a new card. Each piece records the lists it played
    (`balance`'s "lists"; the sw3cr runs were written before that field and were given it
    afterwards: the decks in cards.json at the commit that added them)."""
    for run in pieces(path):
        assert run["lists"] == {d: STARTER_DECKS[d]["cards"] for d in run["decks"]}, path.name
        for deck, figures in run["cards"].items():
            assert set(figures) == set(STARTER_DECKS[deck]["cards"]), (path.name, deck)


def test_runs_of_other_lists_do_not_merge():
    run = pieces(RUNS[0])[0]
    other = json.loads(json.dumps(run))
    deck = run["decks"][0]
    card = next(iter(other["lists"][deck]))
    other["lists"][deck][card] -= 1
    with pytest.raises(ValueError, match="deck lists"):
        merged([run, other])
