"""The start of a game by link: the set-up, the joins, shared deals, commitments, reveals.

Handlers of other devices' records (`_on_...`) and this device's own start steps
(`_start_steps`): the invite carries the creator's commitments, each join its device's, and
once every commitment is in each device reveals; with every reveal (and every shared deal
complete) the table is laid. Dealing comes before the seed, as in live play (fair-play.md).
"""

from __future__ import annotations

from typing import Any

from parlour.bots.base import LEVELS
from parlour.errors import MalformedInput, ProtocolError
from parlour.fair.commit import Opening, is_commitment
from parlour.fair.encoding import Json
from parlour.fair.joint import JointRandomness
from parlour.fair.signing import Signed
from parlour.games import GAMES
from parlour.games.base import SharedDeal
from parlour.match.by_link.records import number_in
from parlour.match.by_link.state import DONE, WAIT, seats_in
from parlour.match.by_link.timing import Timing
from parlour.match.config import MatchConfig, person_name
from parlour.match.dealing import Dealing, Progress, SealedProgress, lock_label, new_locks
from parlour.match.match import Match
from parlour.match.table import Table, deal_stores, dealt_commitments
from parlour.match.wire_bodies import DealLock, DealUnlock
from parlour.words import and_list

LIMITS = range(0, 30 * 24 * 3600 + 1, 3600)  # the times per move the set-up form offers


def _sealed(raw: object, deals: list[SharedDeal], held: tuple[int, ...]) -> dict[str, list[str]]:
    """The invite's sealed locks (`c`): for a deal whose recipients are all seats it holds, one
    commitment for each recipient; none for any other deal."""
    at_one_device = {d.label: d for d in deals if set(d.seats) <= set(held)}
    if not isinstance(raw, dict) or not set(raw) <= set(at_one_device):
        raise MalformedInput("The invite seals a deal that is not dealt at its device.")
    for label, commitments in raw.items():
        if not (
            isinstance(commitments, list)
            and len(commitments) == len(at_one_device[label].seats)
            and all(is_commitment(c) for c in commitments)
        ):
            raise MalformedInput("The invite's sealed locks are not a hash for each seat.")
    return {str(label): [str(c) for c in cs] for label, cs in raw.items()}


class Starting(Timing):
    """The start's records, taken in, and this device's own part in it."""

    def _on_open(self, record: Signed) -> str:
        body = record.body
        game_id = body["g"]
        game = GAMES.get(game_id) if isinstance(game_id, str) else None
        names, variant, bots, limit = body["n"], body["v"], body["b"], body["l"]
        if game is None or not isinstance(names, list) or not isinstance(variant, dict):
            raise MalformedInput("The invite names no game this page knows.")
        config = MatchConfig.from_json(
            {"game": game.id, "match_id": self.match_id, "seats": names, "variant": variant}
        )
        if not isinstance(bots, dict) or any(v not in LEVELS for v in bots.values()):
            raise MalformedInput("The invite's bots are not levels by seat.")
        if not set(bots) <= {str(seat) for seat in seats_in(record)}:
            raise MalformedInput("The invite names as bots seats its device does not play.")
        game.check_setup(config.setup())
        if not isinstance(limit, int) or limit not in LIMITS:
            raise MalformedInput(
                "The invite's time per move is not one this page offers (none, or whole hours "
                "up to 30 days)."
            )
        self.game, self.variant = game, dict(variant)
        self.names = [  # "(bot)" only where a bot plays
            n if str(i) in bots else person_name(n, f"Player {i + 1}")
            for i, n in enumerate(config.seats)
        ]
        self.bots = {str(k): str(v) for k, v in bots.items()}
        self.limit = limit
        self.creator = record.device
        deals = game.shared_deals(config.setup())
        held = seats_in(record)
        sealed = _sealed(body.get("c", {}), deals, held)
        self.dealing = Dealing(deals, tuple(self.names), self.match_id, sealed, held)
        new_locks(deals, self.stores)
        return DONE

    def unsealed_at_one_device(self) -> list[str]:
        """The shared decks whose recipients all sit on the creator's device and that its
        invite did not seal (an invite of a page before deals at one device): that device could
        order such a deck as it liked, so a new player does not join it."""
        if self.dealing is None or self.creator is None:
            return []
        held = set(self.held.get(self.creator, ()))
        return [
            label
            for label, p in self.dealing.progress.items()
            if isinstance(p, Progress) and set(p.deal.seats) <= held
        ]

    def _on_join(self, record: Signed) -> str:
        if self.game is None:
            return WAIT
        seat = record.body["s"]
        if not isinstance(seat, int) or not 0 <= seat < len(self.names):
            raise ProtocolError("A join names a seat that is not in this game.")
        self.names[seat] = person_name(record.body["n"], f"Player {seat + 1}")
        return DONE

    def _on_commit(self, record: Signed) -> str:
        if self.game is None:
            return WAIT
        seat, body = number_in(record, "s"), record.body
        expected = set(self.game.dealt_labels(self._setup(), seat))
        expected |= {lock_label(d.label) for d in self._deals() if seat in d.seats}
        dealt = body["d"]
        if not isinstance(dealt, dict) or set(dealt) != expected:
            raise ProtocolError(
                f"{self.name(seat)}'s commitment does not bind what was dealt to them before "
                "the seed."
            )
        if seat in self.commits:
            raise ProtocolError(f"{self.name(seat)} committed twice.")
        for p in self._sealed_deals():
            if (
                seat in p.deal.seats
                and dealt[lock_label(p.deal.label)] != p.sealed[p.deal.seats.index(seat)]
            ):
                raise ProtocolError(
                    f"{self.name(seat)}'s commitment binds another lock on the {p.deal.label} "
                    "deck than the one sealed in the invite: refused (a new lock could choose "
                    "the cards)."
                )
        self.commits[seat] = dict(body)
        return DONE

    def _sealed_deals(self) -> list[SealedProgress]:
        if self.dealing is None:
            return []
        return [p for p in self.dealing.progress.values() if isinstance(p, SealedProgress)]

    def _on_deal_step(self, record: Signed) -> str:
        if self.dealing is None:
            return WAIT
        body: Any = record.body
        progress = self.dealing.progress.get(str(body["label"]))
        if progress is None:
            raise ProtocolError("A step of a deal that is not part of this game arrived.")
        if isinstance(progress, SealedProgress):
            raise ProtocolError(
                f"A step of the {progress.deal.label} deck came, which is dealt at one device "
                "(sealed in the invite): refused."
            )
        seats = progress.deal.seats
        if record.kind == "lock":
            r = seats.index(body["seat"]) if body["seat"] in seats else 0
            if any(q not in progress.locks for q in range(r)):
                return WAIT
            lock: DealLock = body
            self.dealing.take_lock(lock)
            return DONE
        card = body["card"]
        if not progress.locked():
            return WAIT
        if not isinstance(card, int) or not 0 <= card < len(seats):
            raise ProtocolError("A deal step names a card that is not in the deal.")
        chain, others = progress.unlocks.get(card, []), progress.others(card)
        if body["seat"] in others and others.index(body["seat"]) > len(chain):
            return WAIT
        unlock: DealUnlock = body
        self.dealing.take_unlock(unlock)
        return DONE

    def _on_reveal(self, record: Signed) -> str:
        if self.game is None or len(self.commits) < len(self.names):
            return WAIT
        if self._ahead(record) or self.forfeit is not None:
            return WAIT  # from the future: the first move would fall due then
        seat = number_in(record, "s")
        if self._seed_claim_beats(record):
            return WAIT  # a claim signed before it ends the start
        opening = Opening.from_json(record.body["o"])
        referee = self._referee()
        if seat == referee.me:
            referee.my_reveal()
        else:
            referee.receive_reveal(seat, opening)  # a false reveal: ProtocolError, named
        self.reveals[seat] = opening
        self.revealed_at[seat] = number_in(record, "t")
        self.times.append(number_in(record, "t"))
        self._maybe_start()
        return DONE

    def _referee(self) -> JointRandomness:
        """The seed's commit-reveal, as our first seat sees it, fed every commitment."""
        me = self.local[0]
        if me not in self.joint:
            secret, nonce = self.secrets[me]
            joint = JointRandomness(self.match_id, self.names, me, secret=secret, nonce=nonce)
            for seat, body in sorted(self.commits.items()):
                if seat != me:
                    joint.receive_commitment(seat, body["c"])
            if joint.my_commitment() != self.commits[me]["c"]:
                raise ProtocolError("This device's own commitment is not the one it saved.")
            self.joint[me] = joint
        return self.joint[me]

    def _maybe_start(self) -> None:
        if len(self.reveals) < len(self.names) or self.table is not None or self.game is None:
            return
        if self.dealing is not None and not self.dealing.complete():
            return
        dealt = {
            str(s): {k: str(v) for k, v in dict(b["d"]).items()}
            for s, b in self.commits.items()
            if b["d"]
        }
        shared = self.dealing.records() if self.dealing is not None else {}
        config = MatchConfig(
            self.game.id,
            self.match_id,
            tuple(self.names),
            dict(self.variant),
            dealt,
            shared,
            dict(self.bots),
        )
        self.table = Table(Match(self.game, config, self._referee().seed()), self.stores)
        self.times = [max(self.times)]

    def _start_steps(self) -> bool:
        assert self.game is not None and self.dealing is not None
        made = False
        for kind, step in self.dealing.my_steps(self.stores):
            self._append(kind.removeprefix("deal-"), dict(step))
            made = True
        mine = [r for (d, _), r in self.records.items() if d == self.me]
        committed = any(r.kind == "commit" for r in mine)
        shared = self.dealing.my_cards(self.stores)
        if not committed and shared is not None:
            if not self.dealt_here:
                deal_stores(
                    self.game, self._config(), self.local, self.stores, shared, self.private
                )
                self.dealt_here = True
            dealt = dealt_commitments(self.stores)
            for seat in self.local:
                secret, nonce = self.secrets[seat]
                joint = JointRandomness(self.match_id, self.names, seat, secret=secret, nonce=nonce)
                body: dict[str, Json] = {
                    "s": seat,
                    "c": joint.my_commitment(),
                    "d": dict(dealt.get(str(seat), {})),
                }
                self._append("commit", body)
            return True
        revealed = any(r.kind == "reveal" for r in mine)
        if committed and not revealed and len(self.commits) == len(self.names):
            for seat in self.local:
                secret, nonce = self.secrets[seat]
                joint = JointRandomness(self.match_id, self.names, seat, secret=secret, nonce=nonce)
                for other, b in self.commits.items():
                    if other != seat:
                        joint.receive_commitment(other, b["c"])
                opening = joint.my_reveal().to_json()
                self._append("reveal", {"s": seat, "o": opening, "t": int(self.now)})
            return True
        return made or self._note_start_seen()

    def _waiting_to_start(self) -> str:
        free = [self.name(s) for s in range(len(self.names)) if self.device_of(s) is None]
        if free:
            return f"Waiting for {and_list(free)} to join."
        if self.dealing is not None and not self.dealing.complete():
            seats = self.dealing.waiting_for()
            return f"Waiting for {and_list([self.name(s) for s in seats])} to deal the cards."
        missing = [s for s in range(len(self.names)) if s not in self.commits]
        if missing:
            who = and_list([self.name(s) for s in missing])
            return f"Waiting for {who} to get ready (their next link)."
        if self.forfeit is not None:
            return self.forfeit.reason
        missing = [s for s in range(len(self.names)) if s not in self.reveals]
        if self.reveals:  # every commitment is in, and the others have revealed theirs
            owed = and_list([self.name(s) + "'s" for s in missing])
            return f"Waiting for {owed} link that starts the game."
        who = and_list([self.name(s) for s in missing])
        return f"Waiting for {who} to start the game (their next link)."
