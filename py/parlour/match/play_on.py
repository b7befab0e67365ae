"""Playing on from a replay's position against the computer (pure; issue 28, point 9).

Offered only where the position holds no hidden value of the original game, decided per game
from the engine's public view (its `Facts.hidden`, games/<game>/facts.py): a position with a
symbol-down ESP tile, a cypher not yet guessed, a card in a hand or deck, a condition card not
opened, is never played on, so a replay never hands anyone a secret of the game it shows, and
the new game never needs one.

The new game is a real match, checked by the engine and by the audit like any other: the
original's set-up (game, match id, variant), the person in the seat whose move it is and medium
bots in the others (recorded in the config), a new seed, and the original's public moves up to
the position, each received through `Match.receive` as if a peer had sent it. Its record replays
from the start of the original game, so the audit at its end checks every move, the original's
and the new ones alike, and every seal: the original's were all opened in the log (that is what
"no hidden value" means), the new ones by this device's store. The match id stays the original's
because the original's openings in the log are bound to it (`fair.commit.Context`); the seed is
new, and the seats' names say who plays now; the config keeps the original's seat names and
how many moves are the original's, so the log and "Since your turn:" name who made those.
"""

from __future__ import annotations

from parlour.errors import IllegalAction
from parlour.games.declared import facts_for
from parlour.match.audit import Cheat
from parlour.match.bot_seats import bot_name
from parlour.match.config import MatchConfig
from parlour.match.match import AnyMatch, Match
from parlour.match.table import AnyTable, Table, deal_stores
from parlour.match.viewer import Replay
from parlour.words import YOU

LEVEL = "medium"
PERSON = YOU  # the sentences say "your", "You win" (parlour.words)


def can_play_on(match: AnyMatch, verdict: object = None) -> bool:
    """Whether a game may be played on from this position: sound (no cheat found), not over,
    and nothing hidden in it."""
    hidden = facts_for(match.game.id).hidden
    if hidden is None or isinstance(verdict, Cheat) or match.result() is not None:
        return False
    return not hidden(match.game.public_view(match.state))


def offered(replay: Replay) -> bool:
    """Whether the viewer offers "Play on from here" at its position."""
    return can_play_on(replay.now(), replay.verdict)


def play_on(match: AnyMatch, seed: bytes) -> AnyTable:
    """The new game from this position (see the module's docstring): the person in the seat
    the game waits on, medium bots in the others. Raises `ParlourError` if the position cannot
    be played on (callers ask `can_play_on` first)."""
    if not can_play_on(match):
        raise IllegalAction("This position holds a hidden value: it cannot be played on.")
    old = match.config
    person = min(match.game.to_move(match.state))
    names = tuple(
        PERSON if seat == person else bot_name(name) for seat, name in enumerate(old.seats)
    )
    bots = {str(seat): LEVEL for seat in range(len(names)) if seat != person}
    original = {"seats": list(old.seats), "moves": len(match.entries)}
    config = MatchConfig(
        old.game, old.match_id, names, dict(old.variant), bots=bots, original=original
    )
    new: AnyMatch = Match(match.game, config, seed)
    for entry in match.entries:  # each checked by the engine, as a peer's move would be
        sent = new.submit_json(entry.seat, entry.action)
        if not sent.ok:
            raise IllegalAction(sent.reason or "A move of this game cannot be played again.")
    return Table(new, deal_stores(match.game, config, range(len(names))))
