"""This browser's games by link as kept here (pure): their keys, their signatures to check
before a call, and their saves with the summary line "Your games" lists.

Keys are the page's (WebCrypto, py/ui/webcrypto.py): a record waits for its signature
(`pending`), the page signs it, and `after_signing` saves and shows what then exists; checking
the others' signatures is asked for before the call (`checks`). A mixin of `LinkGames`
(by_link/app.py); what it uses of it is declared below.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from parlour.errors import ParlourError
from parlour.fair.encoding import Json, parse_json
from parlour.fair.signing import Signer
from parlour.match.by_link import LinkPlay, packing
from parlour.match.by_link.live import carry_checks
from parlour.ui.by_link.saves import is_part, save_checks, save_keys, summary_line
from parlour.ui.by_link.seats import LinkView, Pending
from parlour.ui.online.app import TheApp
from parlour.ui.online.saves import OWNER

SAVE = "psi-parlour:link:"  # then the match id: one save per game by link
SAVED_WHAT = "Your saved game by link"


class KeptGames:
    """The games by link of this browser, as kept: keys, signature checks, saves."""

    app: TheApp
    plays: dict[str, LinkPlay]
    views: dict[str, LinkView]
    lines: dict[str, dict[str, Json]]  # "Your games": each save's summary line
    current: str | None
    invite: list[str]
    made: set[Any]
    elsewhere: set[str]
    tab: str
    clock: Callable[[], float]  # the time of day (by_link/app.py's `now`)
    draw: Callable[[], None]
    _whole: Callable[..., list[str] | None]  # a link whole, from its parts kept
    _shown: Callable[[], str | None]  # the game on screen
    _live: Callable[[str], tuple[Any, str | None] | None]  # a live game here (by_link/app.py)

    # -- keys -------------------------------------------------------------------------

    def _crypto(self, match_id: str | None = None) -> Any:
        keyring = self.app.keyring
        if keyring is None:
            return None
        return keyring.kept(SAVE + match_id) if match_id else keyring.fresh()

    def pending(self) -> tuple[Signer | None, list[tuple[Any, bytes]]]:
        """What waits for this browser's signature, in the current game, as the page signs."""
        play = self.plays.get(self.current or "")
        if play is None:
            return None, []
        waiting = play.to_sign()
        return play.signer, [(Pending(play, w, data, self.made), data) for w, data in waiting]

    def verifier(self, crypto: Any) -> Any:
        """The check of signatures for a game here: the page's answers (asked before the
        call), and the signatures this page's own key made during it."""

        def verify(algorithm: str, public: bytes, data: bytes, signature: bytes) -> bool:
            made = (algorithm, public, data, signature) in self.made
            return made or bool(crypto.verify(algorithm, public, data, signature))

        return verify

    def after_signing(self) -> None:
        if self.current in self.plays:
            self.save(self.plays[self.current])
            self.draw()

    def checks(self, request: dict[str, Any]) -> list[packing.Check]:
        """The signatures a request will check: a link opened, an invite joined, saves read."""
        op = request.get("op")
        if op == "route":
            text = str(request.get("hash", ""))
            if text.startswith("#bylink"):
                return self.load_checks(text.partition("=")[2] or self._shown())
            if not text.startswith("#pl="):
                return []
            try:
                packet = packing.packet_of(text)
            except ParlourError:
                packet = None
            found = packet.match_id if packet is not None else None
            play = self._mine(found or "")
            if play is not None:
                return play.checks(text)
            saved = self.load_checks(found)
            if is_part(text):
                return saved + self._part_checks(text)
            if saved and packet is not None:
                keys = save_keys(self.app.storage.get(SAVE + (found or "")))
                return saved + packing.signature_checks(packet, keys)
            if packet is not None and any(r.kind == "carry" for r in packet.records):
                return self._carry_checks(packet)
            return packing.invite_checks([text])
        if op == "click" and request.get("region") == "bylink":
            if request.get("data", {}).get("cmd") == "bylink-take-over":
                return self.load_checks(self.current)
            return packing.invite_checks(self.invite)
        return []

    def _carry_checks(self, packet: packing.Packet) -> list[packing.Check]:
        """A link that carries a live game on: checked under the live game's keys here."""
        found = self._live(packet.match_id)
        return carry_checks(found[0], packet) if found is not None else []

    def _part_checks(self, text: str) -> list[packing.Check]:
        """A part that completes a link: that link's signatures (none for a damaged one,
        which `open_link` then refuses with a sentence)."""
        whole = self._whole(text, keep=False)
        try:
            packet = packing.read_invite(whole) if whole else None
        except ParlourError:
            return []
        if packet is None:
            return []
        game = self._mine(packet.match_id)
        if game is None and any(r.kind == "carry" for r in packet.records):
            return self._carry_checks(packet)
        keys = game.keys if game else save_keys(self.app.storage.get(SAVE + packet.match_id))
        return packing.signature_checks(packet, keys)

    def saved_checks(self, local: dict[str, Any]) -> list[packing.Check]:
        """At the start: the signatures of the games by link kept here whose save has no
        summary line (saved before saves had one), each checked as it is read back
        (`load_all`); every other game is checked when it is opened (`load_checks`)."""
        checks: list[packing.Check] = []
        for key, raw in local.items():
            if not (isinstance(key, str) and key.startswith(SAVE) and isinstance(raw, str)):
                continue
            try:
                data = parse_json(raw, "A saved game by link")
            except ParlourError:
                continue  # read as damaged, and set aside, by `load_all`
            line = data.get("summary") if isinstance(data, dict) else None
            if summary_line(line, key.removeprefix(SAVE)) is None:
                checks += save_checks(data)
        return checks

    def load_checks(self, match_id: str | None) -> list[packing.Check]:
        """The signatures of a saved game this tab is about to open (none if it has it)."""
        if not match_id or self._mine(match_id) is not None:
            return []
        raw = self.app.storage.get(SAVE + match_id)
        try:
            return save_checks(parse_json(raw, "A saved game by link")) if raw else []
        except ParlourError:
            return []

    # -- storage ----------------------------------------------------------------------

    def save(self, play: LinkPlay) -> None:
        """The game and its summary line (what "Your games" lists without reading the rest),
        while this tab plays it; a tab that another took the game from lets go instead."""
        if self._mine(play.match_id) is not play:
            self._let_go(play.match_id)
            return
        key = SAVE + play.match_id
        line = play.summary()
        self.lines[play.match_id] = line
        self.app.storage.set(key, json.dumps({**play.to_json(), "summary": line}))

    def load_all(self) -> None:
        """At the start, "Your games" from each save's summary line; a save without one (made
        before they had one) is read back whole (one that cannot be is set aside, and the
        storage note says so)."""
        storage = self.app.storage
        for key in list(storage.values["local"]):
            match_id = key.removeprefix(SAVE)
            if not key.startswith(SAVE) or ":" in match_id or match_id in self.plays:
                continue
            data = storage.read(key, SAVED_WHAT)
            line = summary_line(data.get("summary"), match_id) if isinstance(data, dict) else None
            if line is not None:
                self.lines[match_id] = line
            elif data is not None:
                self._load(match_id)

    def _mine(self, match_id: str) -> LinkPlay | None:
        """The game as this tab holds it, if this tab plays it now (the newest tab to open a
        game plays it: `OWNER`, as an online game's)."""
        play = self.plays.get(match_id)
        owner = self.app.storage.get(SAVE + match_id + OWNER)
        return play if play is not None and owner in (None, self.tab) else None

    def _load(self, match_id: str) -> LinkPlay | None:
        """A game read back from its save (its signatures checked, asked for before the call)
        and played in this tab from now on; None, and the save set aside, if it cannot be."""
        storage, key = self.app.storage, SAVE + match_id
        data, crypto = storage.read(key, SAVED_WHAT), self._crypto(match_id)
        if data is None:
            self.lines.pop(match_id, None)
            return None
        try:
            if crypto is None:
                raise ParlourError("no key")
            play = LinkPlay.from_json(data, crypto.signer, self.verifier(crypto), self.clock())
        except ParlourError:
            storage.set_aside(key, SAVED_WHAT)
            self.lines.pop(match_id, None)
            return None
        self.plays[match_id] = play
        self.views.pop(match_id, None)
        self.lines[match_id] = play.summary()
        storage.set(key + OWNER, self.tab)
        return play

    def game(self, match_id: str | None) -> LinkPlay | None:
        """The game `match_id` to show or play: this tab's, or read back from its save (and
        taken over from another tab of this browser, which lets go at its next step)."""
        if not match_id or SAVE + match_id not in self.app.storage.values["local"]:
            return self.plays.get(match_id or "")  # not saved (the browser refused): as held
        return self._mine(match_id) or self._load(match_id)

    def _let_go(self, match_id: str) -> None:
        """Another tab of this browser took this game over: forget this tab's copy (its save
        is the other tab's now), so the two never sign two different next steps."""
        self.plays.pop(match_id, None)
        self.views.pop(match_id, None)
        self.elsewhere.add(match_id)
