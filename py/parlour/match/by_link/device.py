"""One device's side of a game played by link: its records, its secrets, and the match they make.

There is no host. Each device appends signed records (by_link/records.py) for the seats it holds
and sends them in links; every device keeps every record it is given, checks it (signature,
match, the sender's own numbering, the seat it speaks for), and derives the match from the whole
set the same way: each device's records are read in its own order, and the log's next entry is
the record of the seat the game waits on (the lowest, when it waits on several: a step several
seats take at once is sealed by each whenever it likes and goes into the log in seat order). So
every device that holds the same records holds the same game, whatever order links came in.

The start, before the first move: the creator's invite carries the set-up, its key and its seats'
commitments; each player's join carries its key, seat and commitment; shared decks are dealt lock
by lock (match/dealing.py); once every commitment is in, each seat reveals; the seed is drawn as
in live play (fair-play.md).

This module makes a device's game (`LinkPlay.create` for the creator, `LinkPlay.join` from an
invite) and puts `LinkPlay` together from a class per concern (state.py lists them): what comes
in (receiving.py) and goes out (sending.py), the derivation (deriving.py), the steps our seats
owe (own_steps.py), the player's moves and claims (acting.py) and storage (saving.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import ParamSpec

from parlour.bots.base import LEVELS
from parlour.errors import MalformedInput, ParlourError
from parlour.fair.encoding import Json
from parlour.fair.signing import DeviceKey, Signer, Verify
from parlour.games import GAMES
from parlour.match.bot_seats import bot_name
from parlour.match.by_link import packing
from parlour.match.by_link.acting import Acting
from parlour.match.by_link.live import HOST, Live, live_of
from parlour.match.by_link.saving import Saving
from parlour.match.by_link.sending import Outcome
from parlour.match.config import MatchConfig, clean_name, person_name
from parlour.match.dealing import new_locks, sealed_commitments
from parlour.match.table import new_match_id

P = ParamSpec("P")
UNSEALED = (  # in a player's words: no "sealed" (e2e/link_players.py, PROTOCOL_WORDS)
    "That invite comes from an older version of this page: the device that made it deals a "
    "deck to two seats it plays itself, and that deck is not hidden from it, so it could "
    "choose those cards. Ask for a new invite (the page that made it needs reloading)."
)
CARRY_FROM_HOST = (
    "The host's device holds the live game's log, so the game carries on from its link: ask "
    "the host to press “Carry on by link” and send it, then open it here."
)


def _refusal_as_outcome(
    make: Callable[P, tuple[LinkPlay, Outcome]],
) -> Callable[P, tuple[LinkPlay | None, Outcome]]:
    """A maker that raises a refusal gives None and its sentence instead, so a bad set-up from
    the page is told, never thrown."""

    @functools.wraps(make)
    def made(*args: P.args, **kwargs: P.kwargs) -> tuple[LinkPlay | None, Outcome]:
        try:
            return make(*args, **kwargs)
        except ParlourError as error:
            return None, Outcome(error.sentence, ok=False)

    return made


class LinkPlay(Saving, Acting):
    """One device's game by link. Made by `create` (the creator) or `join` (everyone else);
    `take_link`, `act` and `claim` change it; `to_json` and `from_json` keep it in storage."""

    # -- making ----------------------------------------------------------------------------

    @classmethod
    @_refusal_as_outcome
    def create(
        cls,
        game_id: str,
        names: list[str],
        variant: dict[str, Json],
        seats: tuple[int, ...],
        signer: Signer,
        verify: Verify,
        now: float,
        base: str,
        bots: Mapping[int, str] | None = None,
        hours_per_move: float = 0,
        private: Mapping[int, Mapping[str, Json]] | None = None,
    ) -> tuple[LinkPlay, Outcome]:
        """The creator's device: the set-up, its seats (its own and any bots'), and the invite
        link to send to the group (with the first commitments in it); or None and the reason a
        set-up cannot be played."""
        game = GAMES.get(game_id)
        if game is None:
            raise MalformedInput("There is no such game.")
        bots = dict(bots or {})
        held = tuple(sorted(set(seats) | set(bots)))
        clean = [
            bot_name(clean_name(n, "Bot")) if i in bots else person_name(n, f"Player {i + 1}")
            for i, n in enumerate(names)
        ]
        if any(level not in LEVELS for level in bots.values()):
            raise MalformedInput("A bot's level is not one this page knows.")
        if not held or any(not 0 <= s < len(names) for s in held) or len(held) == len(names):
            raise MalformedInput("Keep at least one seat for another device, and hold one.")
        checked = {"game": game_id, "match_id": "m-checking", "seats": clean, "variant": variant}
        game.check_setup(MatchConfig.from_json(checked).setup())
        match_id = new_match_id()
        play = cls(match_id, f"s{held[0]}", signer, verify, base, now)
        play.private = {s: dict(v) for s, v in (private or {}).items()}
        body: dict[str, Json] = {
            "g": game_id,
            "n": list(clean),
            "v": dict(variant),
            "b": {str(s): level for s, level in bots.items()},
            "h": list(held),
            "k": DeviceKey.of(signer).to_json(),
            "l": int(hours_per_move * 3600),
            "t": int(now),
        }
        play._prepare(held)
        deals = game.shared_deals(MatchConfig.from_json(checked).setup())
        new_locks(deals, play.stores, seal=True)
        sealed = sealed_commitments(deals, play.stores)
        if sealed:  # decks dealt at this device (fair/sealed_deal.py)
            body["c"] = sealed
        play._append("open", body)
        play._run()
        if play.stopped:
            raise MalformedInput(play.stopped)
        return play, play._after("Send this invite to the other players.")

    @classmethod
    def join(
        cls,
        text: str | list[str],
        seat: int,
        name: str,
        signer: Signer,
        verify: Verify,
        now: float,
        base: str,
        private: Mapping[str, Json] | None = None,
    ) -> tuple[LinkPlay | None, Outcome]:
        """A player's device from an invite link: its seat, name and key, and its first link."""
        try:
            packet = packing.read_invite([text] if isinstance(text, str) else list(text))
        except ParlourError as error:
            return None, Outcome(error.sentence, ok=False)
        play = cls(packet.match_id, f"s{seat}", signer, verify, base, now)
        taken = play._take(packet)
        if not taken.ok:
            return None, taken
        if play.game is None:
            return None, Outcome("That link is not an invite: it has no set-up.", ok=False)
        if not 0 <= seat < len(play.names) or play.device_of(seat) is not None:
            return None, Outcome(f"Seat {seat + 1} is not free in that game.", ok=False)
        if play.unsealed_at_one_device():
            return None, Outcome(UNSEALED, ok=False)
        play.private = {seat: dict(private or {})}
        play._prepare((seat,))
        body: dict[str, Json] = {
            "s": seat,
            "n": person_name(name, f"Player {seat + 1}"),
            "k": DeviceKey.of(signer).to_json(),
            "t": int(now),
        }
        play._append("join", body)
        play._run()
        if play.stopped:
            return None, Outcome(play.stopped, ok=False)
        return play, play._after(f"You sit as {play.name(seat)}. Send this link to the others.")

    # -- a live game carried on by link (carrying.py) ------------------------------------

    @classmethod
    @_refusal_as_outcome
    def carry_on(
        cls, session: object, now: float, base: str, verify: Verify | None = None
    ) -> tuple[LinkPlay, Outcome]:
        """The live host's device: the game from its position, and the link that carries it
        on (with the moves another device may have missed). `verify`: the page's, if not the
        live game's own."""
        here = live_of(session)
        here.verify = verify or here.verify
        if here.me != HOST:
            raise MalformedInput(CARRY_FROM_HOST)
        match = here.match_now()
        play = cls._from_live(here, base, now)
        body: dict[str, Json] = {
            "n": match.step,
            "h": match.head(),
            "e": list(here.catch_up),
            "t": int(now),
        }
        play._append("carry", body)
        play._run()
        if play.stopped:
            raise MalformedInput(play.stopped)
        return play, play._after("Send this link to the others: the game carries on by link.")

    @classmethod
    def _from_live(cls, here: Live, base: str, now: float) -> LinkPlay:
        match_id = str(here.match["config"]["match_id"])
        play = cls(match_id, here.link_name(here.me), here.signer, here.verify, base, now)
        play._carry_from(here)
        return play

    @classmethod
    def carry_join(
        cls,
        session: object,
        texts: list[str],
        now: float,
        base: str,
        verify: Verify | None = None,
    ) -> tuple[LinkPlay | None, Outcome]:
        """Another live device, from the host's carry link (every part of it): the moves it
        lacked, checked, and its first link, which says it carries on from the same place."""
        try:
            here = live_of(session)
            here.verify = verify or here.verify
            packet = packing.read_invite(texts)
            match = here.match_now()
        except ParlourError as error:
            return None, Outcome(error.sentence, ok=False)
        if packet.match_id != match.config.match_id:
            return None, Outcome("That link carries on another game, not this one.", ok=False)
        play = cls._from_live(here, base, now)
        taken = play._take(packet)
        if not taken.ok:
            return None, taken
        host = play.records.get((here.link_name(HOST), 1))
        if play.match is None or host is None or host.kind != "carry":
            return None, Outcome(
                "That link does not carry this live game on: open the link the host's device "
                "made with “Carry on by link”.",
                ok=False,
            )
        body: dict[str, Json] = {"n": host.body["n"], "h": host.body["h"], "t": int(now)}
        play._append("carried", body)
        play._run()
        if play.stopped:
            return None, Outcome(play.stopped, ok=False)
        return play, play._after("The game carries on by link: send this link to the others.")
