"""Joining a table: the guest's `hello`, the host's `welcome`, a guest that comes back, and
"Play again".

A guest's device knows nothing of the game until the host's welcome (the set-up, its seat, the
time allowed), after which it deals and commits like any device. The host answers every hello
with a welcome and replays what came before: the seed steps, the log from where the guest's own
ends, the openings and the verdicts. A returning guest sends again what the host may have missed
(its seed steps, its moves on their way, its verdict). "Play again" is a new welcome, under a new
match id, on the connections that are open.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from parlour.errors import IllegalAction, MalformedInput, ProtocolError
from parlour.fair.signing import DeviceKey
from parlour.games import game_by_id
from parlour.games.base import Game
from parlour.match.config import MatchConfig, person_name
from parlour.match.online.device import HOST, Link, seat_peer
from parlour.match.online.links import Links
from parlour.match.online.moves import Moves
from parlour.match.online.seed_forfeit import SeedForfeit
from parlour.match.online.verdicts import Verdicts
from parlour.match.wire_bodies import MAX_ENTRIES, Hello, Resume, Welcome
from parlour.words import and_list


class Joining(SeedForfeit, Moves, Verdicts, Links):
    """Welcoming a guest (the host), being welcomed (a guest), and starting another game."""

    def _new_match(self) -> None:
        """Every concern's state of one game, afresh: a new session, or "Play again"."""
        self._new_game()
        self._new_seed_draw()
        self._new_seed_forfeit()
        self._new_moves()
        self._new_verdicts()

    def _clear_match(self) -> None:
        """Forget one game's deal, seed, log, openings and verdicts; keep the connections (and
        sign what is still waiting, for the game it was said in)."""
        self.sign_pending()
        self._new_match()
        self.revision += 1

    # -- the host ------------------------------------------------------------------------

    def _on_hello(self, link: Link, body: Hello) -> None:
        if not self.is_host:
            raise ProtocolError("Only the host is greeted with hello.")
        seat = link.seats[0]
        if self.signing:
            self._take_guest_key(link, body)
        renamed = self._take_guest_name(seat, body.get("name"))
        self._welcome(link, self._the_config())
        if renamed:  # the devices already here hear the new name before anything else of it
            for other in self.links.values():
                if other is not link and other.state == "connected":
                    self._welcome(other, self._the_config())
        for step in self.seed_log:
            self._send(link, step[0], **step[1])
        if self.forfeit is not None:
            self._send(link, "seed-forfeit", seats=self.forfeit_seats())
        if self.table is not None:
            self._send_entries(link, self._resume_step(seat, body["resume"]))
            for owner, openings in sorted(self.openings.items()):
                self._send(link, "openings", seat=owner, openings=[o.to_json() for o in openings])
            for owner, (kind, text) in sorted(self.verdicts.items()):
                if owner not in link.seats:  # what the other devices' audits said, for a late one
                    self._send(link, "verdict", seat=owner, verdict=kind, text=text)
        self._notice(f"{self.name(seat)} joined.")
        self._send_status()
        if self._everyone_here() and self.gathered_at is None:
            self.gathered_at = self.now

    def _welcome(self, link: Link, config: MatchConfig) -> None:
        keys = {"keys": self._keys_json()} if self.signing else {}
        self._send(
            link,
            "welcome",
            config=config.to_json(),
            seat=link.seats[0],
            limits=dict(self.limits),
            host=list(self.local),
            **keys,
        )

    def _take_guest_name(self, seat: int, chosen: object) -> bool:
        """The name a guest chose on the join screen becomes its seat's, while the game has
        not begun (no seed revealed: the names go into the match's start, which every device
        must agree on). Another seat's name, or a bot's, is not taken. True if it changed."""
        if chosen is None or self.table is not None or self._revealed():
            return False
        config = self._the_config()
        name = person_name(chosen, "")
        taken = {n.casefold() for s, n in enumerate(config.seats) if s != seat}
        if not name or name.casefold() in taken or name == config.seats[seat]:
            return False
        seats = tuple(name if s == seat else n for s, n in enumerate(config.seats))
        self._rename(seats)
        return True

    def _rename(self, seats: tuple[str, ...]) -> None:
        """The seats' names before the game begins (a guest's chosen name)."""
        self.config = replace(self._the_config(), seats=seats)
        for joint in self.joint.values():
            joint.seat_names = list(seats)  # (its sentences name the seats)
        self.revision += 1

    def _take_guest_key(self, link: Link, body: Hello) -> None:
        """Signed play: a guest's hello brings its device's key. A seat's device keeps its key
        for the match (a reload keeps it); another key, once that device has signed anything in
        this game, is another device: refused."""
        raw = body.get("key")
        if raw is None:
            raise ProtocolError("A hello without the device's key: both need this version.")
        key = DeviceKey.from_json(raw)
        known = self.keys.get(link.peer)
        signed_before = any(device == link.peer for device, _ in self.seen)
        if known is not None and known != key and signed_before:
            raise ProtocolError(
                f"{self.name(link.seats[0])}'s seat came back from a device with another "
                "key: refused (its moves so far were signed by the first)."
            )
        self.keys[link.peer] = key

    def _resume_step(self, seat: int, resume: Resume | None) -> int:
        """Where a returning guest's log can go on from: its last step, if it matches ours."""
        match = self._the_match()
        if not resume or resume["match"] != self._the_config().match_id or resume["seat"] != seat:
            return 0
        step = resume["step"]
        if 0 < step <= match.step and match.entries[step - 1].hash == resume["head"]:
            return step
        return 0

    def _send_entries(self, link: Link, start: int) -> None:
        entries = [e.to_json() for e in self._the_match().entries[start:]]
        proofs = self.proofs[start:]
        for i in range(0, len(entries), MAX_ENTRIES):
            part = entries[i : i + MAX_ENTRIES]
            if self.signing:
                self._send(link, "entries", entries=part, proofs=proofs[i : i + MAX_ENTRIES])
            else:
                self._send(link, "entries", entries=part)

    def rematch(self, match_id: str, now: float) -> None:
        """The host's "Play again": the same game, variant and players over the connections
        that are open, under a new match id. Each device deals and commits afresh and the seed
        is drawn together again, as for a first game; the host's players bring the same
        private choices (an ESPEERS deck), each guest what it chose on joining."""
        self.now = now
        if not self.is_host:
            raise IllegalAction("Only the host can start another game.")
        over = self.match is not None and self.match.result() is not None
        if self.forfeit is None and (not over or self.audit_result is None):
            raise IllegalAction("Another game can start once this one is over and checked.")
        lost = [self._who(link) for link in self.links.values() if link.state != "connected"]
        if lost:
            raise IllegalAction(
                f"Everyone must be connected to play again: waiting for {and_list(lost)}."
            )
        game = self._the_game()
        config = replace(self._the_config(), match_id=match_id, dealt={}, shared={})
        self._clear_match()
        self.config = config  # what the new game's messages are signed for
        if self.signing:  # a new key pair; each guest's comes with its hello again
            self._fresh_key()
            self.keys = {HOST: self._my_key()}
        for link in self.links.values():
            self._welcome(link, config)
        self.gathered_at = now
        self._notice("A new game: the devices draw its seed together.")
        self._begin(game, config, self.local)

    # -- a guest -------------------------------------------------------------------------

    def _on_welcome(self, link: Link, body: Welcome) -> None:
        if self.is_host:
            raise ProtocolError("A host is not welcomed.")
        config = MatchConfig.from_json(body["config"])
        game = game_by_id(config.game)
        base = replace(config, dealt={})
        check_setup(game, base)
        seat, host_seats = body["seat"], tuple(body["host"])
        if seat >= len(config.seats) or seat in host_seats:
            raise ProtocolError("The host offered a seat that is not free.")
        same = self.config is not None and self.config.match_id == base.match_id
        choices = dict(self.guest_choices)  # what the player chose on the join screen
        keys = self._welcome_keys(body, seat, same)
        if self.config is not None and not same:
            if link.welcomed and self.forfeit is None:  # "Play again": once this game is over
                if self.match is None or self.match.result() is None:
                    raise ProtocolError(
                        "The host started another game while this one is still on: refused."
                    )
                if self.audit_result is None:
                    raise ProtocolError(
                        "The host started another game before this one was checked: refused."
                    )
                choices = dict(self.private.get(self.local[0], choices))  # the same deck
            self._clear_match()  # another game than the one saved here: start clean
            if self.signing:  # a new match, a new key pair: the host hears it in a hello
                self._fresh_key()
                keys[seat_peer(seat)] = self._my_key()
                self._hello(link)
        link.seats, link.welcomed = host_seats, True
        self.keys = keys
        if not same:  # the time allowed is the match's: a later welcome cannot shorten it
            self.limits = {"reveal": body["limits"]["reveal"]}
        if same:
            if self.local != (seat,):
                raise ProtocolError("The host offered this device another seat than before.")
            self._renamed_by_host(base)
            self._resend_own_seed()
            self._resend_pending()
            self._resend_own_verdict()
            self.run_automatic()  # a step due while the host was away was never sent
        else:
            self.private = {seat: choices}
            self._begin(game, base, (seat,))
        self.revision += 1

    def _renamed_by_host(self, config: MatchConfig) -> None:
        """A welcome again for this match: a guest who joined since chose their name. Names
        only, and only before the game begins: anything else of the set-up stays as it was."""
        mine = self._the_config()
        if config.seats == mine.seats or self.table is not None or self._revealed():
            return
        if replace(config, seats=mine.seats) != mine or len(config.seats) != len(mine.seats):
            raise ProtocolError("The host changed the game's set-up after this device joined.")
        self._rename(config.seats)

    def _welcome_keys(self, body: Welcome, seat: int, same: bool) -> dict[str, DeviceKey]:
        """Signed play: the devices' keys a welcome brings (another game's start afresh), with
        this device's own as it is; checked before anything changes."""
        if not self.signing:
            return {}
        keys = self._merged_keys(dict(body.get("keys", {})), self.keys if same else {})
        mine = self._my_key()
        if keys.setdefault(seat_peer(seat), mine) != mine:
            raise ProtocolError("The host sent this device's key as another: refused.")
        return keys


def check_setup(game: Game[Any, Any], config: MatchConfig) -> None:
    """A set-up that came from outside (a host's welcome, a save), checked by its game. A variant
    value of a type no page writes (a list where Psi Squad's length goes) can trip a game's own
    check rather than fail it: that is malformed too, not a fault of the page."""
    try:
        game.check_setup(config.setup())
    except (TypeError, ValueError, LookupError, AttributeError):
        raise MalformedInput(f"That set-up is not one {game.name} can be played with.") from None
