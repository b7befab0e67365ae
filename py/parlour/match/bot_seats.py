"""Bot seats at a table: which bot decides next, and what it sees (pure).

A device that holds bot seats (pass-and-play, or an online host that seated bots) asks
`next_decision` after every change. The bot gets `bots.base.knowledge_of` its seat, built from
the match's public states and log and that seat's own store, and nothing else; its choice then
goes through the same `act` as a person's click (sealed in the bot's store, checked by the
match), so its secrets are committed and opened like anybody's.

The seed of each decision is drawn fresh on the device (`secrets`), never from the match seed:
that seed is public once revealed, and a bot whose choices followed from it (a Psi Squad cypher,
say) could be read by anyone.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots.base import knowledge_of
from parlour.bots.registry import bot_for
from parlour.games import turns
from parlour.games.base import A, S
from parlour.match.table import Table

BOT_SUFFIX = " (bot)"


@dataclass(frozen=True)
class Decision:
    """What a bot seat chose: `choice` is None when it declined an optional step."""

    seat: int
    choice: Any
    optional: bool


class _States(Sequence[S]):
    """The match's states by step, read from the match as the bot asks (no copy of the list)."""

    def __init__(self, table: Table[S, A]) -> None:
        self.match = table.match

    def __len__(self) -> int:
        return self.match.step + 1

    def __getitem__(self, index: int) -> S:  # type: ignore[override]
        return self.match.state_at(index)


def waiting_on(table: Table[S, A], levels: Mapping[int, str]) -> int | None:
    """The bot seat the game waits on now (the lowest, if several), or None: a seat with an
    automatic step (an answer from a secret) is the device's to take, not the bot's. (A match
    a forfeit ended has a result its state does not show: nobody acts in it.)"""
    if table.match.result() is not None:
        return None
    return turns.waiting_on(table.game, table.state, table.stores, levels)


def offered(table: Table[S, A], levels: Mapping[int, str]) -> list[int]:
    """Bot seats that are not to move but may act now (a Telepathic partner's Announcement)."""
    if table.match.result() is not None:
        return []
    return turns.offered(table.game, table.state, table.stores, levels)


def decide(table: Table[S, A], seat: int, level: str, seed: bytes | None = None) -> Decision:
    """Ask `seat`'s bot what it does now, from what that seat may know only."""
    match = table.match
    log = [(entry.seat, entry.action) for entry in match.entries]
    setup = match.config.setup()
    knowledge = knowledge_of(table.game, setup, _States(table), log, seat, table.stores[seat])
    bot = bot_for(table.game.id, level)
    choice = bot(knowledge, seed if seed is not None else secrets.token_bytes(32))
    return Decision(seat, choice, optional=not knowledge.to_move)


def next_decision(
    table: Table[S, A], levels: Mapping[int, str], declined_at: int = -1, seed: bytes | None = None
) -> Decision | None:
    """The next bot decision at this table, if a bot has one to make: first an optional step a
    bot seat may take (asked once per step: `declined_at` is the step it was last declined at),
    then the step the game waits on. None when a person (or an automatic step) is next. `seed`:
    the decision's seed (a test's, a bench's); none, a fresh one from `secrets`."""
    if table.match.step != declined_at:
        for seat in offered(table, levels):
            decision = decide(table, seat, levels[seat], seed)
            if decision.choice is not None:
                return decision
    waited_on = waiting_on(table, levels)
    if waited_on is None:
        return None
    return decide(table, waited_on, levels[waited_on], seed)


def has_turn(table: Table[S, A], levels: Mapping[int, str], declined_at: int = -1) -> bool:
    """Whether a bot may have something to do now (cheap: nothing is asked of a bot)."""
    if waiting_on(table, levels) is not None:
        return True
    return table.match.step != declined_at and bool(offered(table, levels))


def bot_name(name: str) -> str:
    """A bot seat's name as everyone sees it (log, hand-offs, result): says it is a bot."""
    if name.endswith(BOT_SUFFIX):
        return name
    return name[: 24 - len(BOT_SUFFIX)].rstrip() + BOT_SUFFIX
