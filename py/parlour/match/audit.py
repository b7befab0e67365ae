"""The end-of-game audit: replay everything with every seal opened, and name any cheat.

At the end each seat publishes the openings it still holds. `audit` then
1. rebuilds the match from config, seed and log, checking the hash chain and every action with
   the game's own rules (a reveal that does not match its commitment fails here, at its step);
2. opens every seal still closed at the end with its seat's openings;
3. asks the game to check the opened values (all of them, or those that were opened) against
   the whole game (an impossible hand, a lie
   about an answer, a suppressed "the game is lost").
The answer is `Verified`, `Cheat` (seat, step, reason: the evidence) or `Unverified` (the seats
that did not open; they forfeit). A cheat found anywhere outranks a missing opening.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from parlour.errors import CommitmentMismatch, MalformedInput, ParlourError
from parlour.fair.commit import Context, Opening, verify
from parlour.fair.encoding import Json
from parlour.games.base import A, Game, S
from parlour.match.config import MatchConfig
from parlour.match.log import LogEntry
from parlour.match.match import Match


@dataclass(frozen=True)
class Verified:
    summary: str = "Every secret was opened and matched; the whole game replays cleanly."


@dataclass(frozen=True)
class Cheat:
    seat: int
    step: int | None
    reason: str


@dataclass(frozen=True)
class Unverified:
    seats: tuple[int, ...]
    reason: str


AuditResult = Verified | Cheat | Unverified


def audit(
    game: Game[S, A],
    config: MatchConfig,
    seed: bytes,
    log: Sequence[LogEntry | Mapping[str, Json]],
    openings: Mapping[int, Sequence[Opening] | None],
) -> AuditResult:
    """Audit a finished (or abandoned) match. `openings[seat]` is None for a seat that refused."""
    match, cheat = replay_log(game, config, seed, log)
    return cheat if cheat is not None else open_seals(match, openings)


def replay_log(
    game: Game[S, A],
    config: MatchConfig,
    seed: bytes,
    log: Sequence[LogEntry | Mapping[str, Json]],
) -> tuple[Match[S, A], Cheat | None]:
    """Step 1: the match rebuilt from its log, every entry checked, as far as the log is sound;
    and the cheat at the first entry that is not (None when every entry is)."""
    match = Match(game, config, seed)
    for item in log:
        data = item.to_json() if isinstance(item, LogEntry) else item
        seat = data.get("seat") if isinstance(data, Mapping) else None
        try:
            match.receive(data)
        except ParlourError as error:
            culprit = getattr(error, "seat", None)
            culprit = culprit if culprit is not None else seat
            return match, Cheat(
                culprit if isinstance(culprit, int) else -1, match.step + 1, error.sentence
            )
    return match, None


def open_seals(match: Match[S, A], openings: Mapping[int, Sequence[Opening] | None]) -> AuditResult:
    """Steps 2 and 3, on a match whose whole log replayed: open every seal still closed with
    its seat's openings, then let the game check the opened values against the whole game."""
    game, names = match.game, match.config.seats
    by_seat = {s: {o.label: o for o in (ops or ())} for s, ops in openings.items()}
    refused: set[int] = {s for s in range(len(names)) if openings.get(s) is None}
    opened: dict[tuple[int, str], Json] = {}
    for seal in game.sealed(match.state):
        if seal.seat in refused:
            continue
        opening = by_seat[seal.seat].get(seal.label)
        if opening is None:
            refused.add(seal.seat)
            continue
        context = Context(match.config.match_id, seal.seat)
        if not verify(context, seal.commitment, opening):
            return Cheat(
                seal.seat,
                seal.step,
                f"{names[seal.seat]}'s opening of {seal.what} does not match the commitment "
                f"made at move {seal.step}.",
            )
        opened[(seal.seat, seal.label)] = opening.value
    # Check what was opened even when some seat withheld: a provable cheat outranks a refusal.
    try:
        game.check_secrets(match.states(), opened)
    except CommitmentMismatch as error:
        return Cheat(error.seat if error.seat is not None else -1, error.step, error.sentence)
    except MalformedInput as error:
        return Cheat(-1, None, error.sentence)
    return _unverified(match, refused) if refused else Verified()


def _unverified(match: Match[S, A], refused: set[int]) -> Unverified:
    names = match.config.seats
    who = sorted(refused)
    listed = ", ".join(names[s] for s in who)
    return Unverified(
        tuple(who),
        f"{listed} did not open {'their' if len(who) > 1 else 'a'} hidden "
        f"{'values' if len(who) > 1 else 'value'} in time: the result is unverified and "
        f"{'they forfeit' if len(who) > 1 else 'that seat forfeits'}.",
    )
