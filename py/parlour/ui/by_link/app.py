"""Play by link, as the worker runs it (pure): the set-up's "Play by link", opening a link,
joining, the board, "Send this link", and "Your games" kept per match in browser storage.

The protocol is `parlour.match.by_link` (docs/links.md); this module carries text between it
and the page. Keys are the page's (WebCrypto, py/ui/webcrypto.py): a record waits for its
signature (`pending`), the page signs it, and `after_signing` shows the links that then exist.
Checking the others' signatures is asked for before the call (`checks`). The app (app.py)
imports this module on first use and hands it itself; what it uses of the app is online/app.py's
`TheApp`.
"""

from __future__ import annotations

import json
import time
from typing import Any

from parlour.errors import ParlourError
from parlour.fair.encoding import Json
from parlour.fair.signing import invite_code
from parlour.match.by_link import LinkPlay, Outcome, packing
from parlour.match.config import name_refusal
from parlour.match.table import AnyTable
from parlour.ui import setup_form
from parlour.ui.by_link.kept import SAVE, KeptGames
from parlour.ui.by_link.saves import is_part, kept_parts
from parlour.ui.by_link.screen import (
    claim_tree,
    disclosures,
    elsewhere_tree,
    join_form,
    links_to_send,
    nothing_tree,
    send_tree,
    sending_tree,
    trust,
    your_games,
)
from parlour.ui.by_link.seats import LinkSeats, LinkView
from parlour.ui.espeers.shelf import guest_choices, guest_decks
from parlour.ui.online.app import TheApp
from parlour.ui.online.saves import OWNER, forget_save, live_save, this_tab
from parlour.ui.online.screen import GAME_NAMES
from parlour.ui.screens import screen_for
from parlour.ui.setup_form import SetUp
from parlour.ui.tree import Node, h
from parlour.words import and_list

ROOT = "#bylink .bylink-root"
HOME_ROOT = "#home .link-games-root"
NO_KEYS = (
    "This browser cannot sign moves (WebCrypto is missing or turned off), so it cannot play "
    "by link: play online or on one device instead."
)
PARTS = "psi-parlour:link-parts"  # parts of split links opened here, by tag, till each is whole
PARTS_KEPT = 8  # links whose parts are kept at once (the newest)
NOT_KEPT = "This browser did not keep the game by link, so a reload would lose it: {why}"
NOT_LIVE_HERE = (
    "That link carries on a live game this browser did not play: open it on the device you "
    "played that game on."
)
CARRIED_HERE = (
    "This game already carries on by link in this browser: open it from “Your games” (the "
    "host's link opened there too)."
)
SENT_WORDS = "Your move is sealed and signed: send the link below to the others."


def now() -> float:
    """The time of day by this device's clock, in seconds: a game by link's records carry it
    (a time per move counts across devices and days), so never the page's monotonic clock,
    which starts again at each load."""
    return time.time()


BOTH = (
    "It is your turn too: move now and send one link with your move in it, or send this link first."
)


class LinkGames(KeptGames):
    """This browser's games by link: made, joined, opened, shown and played (kept, with their
    keys and saves: `KeptGames`, by_link/kept.py)."""

    def __init__(self, app: TheApp) -> None:
        self.app = app
        self.plays: dict[str, LinkPlay] = {}
        self.views: dict[str, LinkView] = {}
        self.current: str | None = None
        self.sending: set[str] = set()  # games whose "Send this link" is open
        self.scanning: set[str] = set()  # games whose links are shown in parts to scan
        self.sentence = ""  # the last link's or action's word
        self.invite: list[str] = []  # an invite opened here, not joined yet
        self.made: set[Any] = set()  # signatures this page's keys made (`Pending`)
        self.opened = 0  # links opened by this page: <html data-links-opened> (tests wait on it)
        self.join_error = ""
        self.join_refused = False  # the invite itself refused joining: no seat or name helps
        self.join_typed: tuple[int, str] = (-1, "")  # the seat and name a refused join chose
        self.lines: dict[str, dict[str, Json]] = {}  # "Your games": each save's summary line
        self.elsewhere: set[str] = set()  # games another tab of this browser took over
        self.removing: str | None = None  # a finished game whose removal waits for a yes
        self.tab = this_tab()  # this page load, as it marks the games it plays (`OWNER`)

    # -- making and joining -----------------------------------------------------------

    def create(self, game_id: str, setup: SetUp) -> None:
        """The set-up form's "Play by link": this device holds the first seat (and the bots)."""
        crypto = self._crypto()
        if crypto is None:
            self._refuse(game_id, NO_KEYS)
            return
        if setup.refusal:
            self._refuse(game_id, setup.refusal)
            return
        bots = setup.bots
        names = list(setup.names)
        variant = dict(setup.variant)
        private: dict[int, dict[str, Json]] = {}
        if setup.decks:  # ESPEERS: each player brings a deck the others do not see
            chosen = self.app.chosen_decks(setup.decks)
            private = {s: {"deck": chosen[s]} for s in {0, *bots} if s < len(chosen)}
            variant["decks"] = ["sealed"] * len(chosen)
        play, out = LinkPlay.create(
            game_id, names, variant, (0,), crypto.signer, self.verifier(crypto), now(), self.base(),
            bots, setup.link_hours, private,
        )  # fmt: skip
        if play is None:
            self._refuse(game_id, out.sentence)
            return
        self._refuse(game_id, "")
        self._keep(play, crypto)
        self.outcome(play, out)
        self.app.go("#bylink")

    def carry_on(self, session: Any) -> str:
        """The live host's "Carry on by link": the same game by link from this move, shown
        with the link to send; the sentence why not, if it cannot be ("" when it was)."""
        crypto = session.crypto
        if crypto is None:
            return NO_KEYS
        play, out = LinkPlay.carry_on(session, now(), self.base(), self.verifier(crypto))
        if play is None:
            return out.sentence
        self._keep(play, crypto)
        self.outcome(play, out)
        self.app.go("#bylink")
        return ""

    def _carry(self, texts: list[str]) -> bool:
        """A link that carries a live game on (the host's `carry`), opened on another device of
        that game: its game by link, from the live save here (True: it was such a link)."""
        try:
            packet = packing.read_invite(texts)
        except ParlourError:
            return False
        if not any(r.kind == "carry" and r.seq == 1 for r in packet.records):
            return False
        refused = self.carry_join(texts, self._live(packet.match_id))
        if refused:
            self.current, self.sentence = None, refused
        self.draw()
        return True

    def carry_join(self, texts: list[str], found: tuple[Any, str | None] | None) -> str:
        """The host's carry link taken with this device's live game (`found`: the session and
        its save's key): the game by link kept and shown, the live save gone; the sentence why
        not, if it cannot be ("" when it was)."""
        if found is None:
            return NOT_LIVE_HERE
        session, key = found
        config = getattr(session, "config", None)
        match_id = config.match_id if config is not None else ""
        if match_id in self.plays or self.app.storage.get(SAVE + match_id) is not None:
            return CARRIED_HERE  # (another tab of this browser carried it on: not made again)
        play, out = LinkPlay.carry_join(
            session, texts, now(), self.base(), self.verifier(session.crypto)
        )
        if play is None:
            return out.sentence
        self._keep(play, session.crypto)
        self.outcome(play, out)
        online = self.app.online
        if online is not None and online.session is session:
            online.close_all()
            self.app.online = None
        forget_save(self.app, key)
        return ""

    def _live(self, match_id: str) -> tuple[Any, str | None] | None:
        """The live game of `match_id` on this device: the one this tab plays, or its save."""
        online = self.app.online
        session = online.session if online is not None else None
        config = session.config if session is not None else None
        if online is not None and config is not None and config.match_id == match_id:
            return session, online.save_key()
        return live_save(self.app, match_id)

    def _refuse(self, game_id: str, sentence: str) -> None:
        self.app.effects.text.append([f"#new-{game_id} [data-role=link-error]", sentence])
        if sentence:
            self.app.go(f"#new-{game_id}")

    def _keep(self, play: LinkPlay, crypto: Any) -> None:
        self.plays[play.match_id] = play
        self.current = play.match_id
        if self.app.keyring is not None:
            self.app.keyring.keep(SAVE + play.match_id, crypto)
        self.save(play)

    def base(self) -> str:
        """The site's address for links: never an embed's (?embed=1): a link opens the full
        site."""
        return self.app.href.partition("#")[0].partition("?")[0]

    def clock(self) -> float:
        """The time of day (`now`, which the tests move on)."""
        return now()

    def outcome(self, play: LinkPlay, out: Outcome) -> None:
        """After taking a link or acting: the sentence, the links to send, the save."""
        self.sentence = out.sentence
        if out.links or out.signing or play.unsent():
            self.sending.add(play.match_id)  # (unsent: ours not sent yet, news or not)
        elif out.ok and out.fresh:
            self.sending.discard(play.match_id)  # news to read, nothing new of ours to send
        self.save(play)

    def open_link(self, text: str) -> None:
        """A link opened (`#pl=...`): into the game it belongs to, or an invite to join. A
        part of a split link waits here until its last part comes, in any order."""
        self.opened += 1
        self.app.effects.attrs["links-opened"] = str(self.opened)
        texts = [text]
        if is_part(text):
            whole = self._whole(text)
            if whole is None:
                self.sentence = self._missing_parts(text)
                self.draw()
                return
            texts = whole
        found = packing.match_of(texts[0]) if len(texts) == 1 else self._match_of(texts)
        play = self.game(found)
        if play is None and self._carry(texts):
            return
        if play is None:
            self.invite, self.join_error, self.current = texts, "", None
            self.join_refused, self.join_typed = False, (-1, "")
            self.draw()
            return
        self.current = play.match_id
        self.elsewhere.discard(play.match_id)
        for part in texts:
            out = play.take_link(part, now())  # the last part completes the link
        self.outcome(play, out)
        self.draw()

    def _whole(self, text: str, keep: bool = True) -> list[str] | None:
        """Keep a part (in this browser's storage too, so a reload or a restart between parts
        loses none: `keep`); all the parts of its link once every one is here (else None)."""
        read = packing.read_fragment(text)
        assert isinstance(read, packing.Part)
        kept = kept_parts(self.app.storage.get(PARTS))  # storage is where parts wait: always
        parts = {**kept.pop(read.tag, {}), read.index: text}
        whole = [parts[i] for i in range(1, read.count + 1) if i in parts]
        if keep:
            if len(whole) < read.count:
                kept[read.tag] = parts  # else whole: its parts need keeping no more
            newest = dict(list(kept.items())[-PARTS_KEPT:])  # the newest few links' parts
            self.app.storage.set(PARTS, json.dumps(newest) if newest else None)
        return whole if len(whole) == read.count else None

    def _missing_parts(self, text: str) -> str:
        """Which parts of a split link are still to open ("Part 1 of 3 kept: open parts 2 and
        3 of the same send too, in any order.")."""
        read = packing.read_fragment(text)
        assert isinstance(read, packing.Part)
        kept = kept_parts(self.app.storage.get(PARTS)).get(read.tag, {})
        missing = [str(i) for i in range(1, read.count + 1) if i not in kept]
        plural = "s" if len(missing) > 1 else ""
        play = self.plays.get(read.match_id)  # open here: a save is not read for a sentence
        whose = play.whose(read) if play is not None else "a link"
        return (
            f"Part {read.index} of {read.count} of {whose} kept: open part{plural} "
            f"{and_list(missing)} of the same send too, in any order (they came together)."
        )

    def _match_of(self, texts: list[str]) -> str | None:
        try:
            return packing.read_invite(texts).match_id
        except ParlourError:
            return None

    def join(self, fields: dict[str, Any]) -> None:
        crypto = self._crypto()
        if crypto is None:
            self.join_error = NO_KEYS
            self.draw()
            return
        seat = setup_form.whole(fields.get("bylink-seat"), -1)
        name = str(fields.get("bylink-name", ""))
        self.join_typed = (seat, name)  # drawn again as chosen, should the join be refused
        refused = name_refusal(name)
        if refused:
            self.join_error = refused
            self.draw()
            return
        deck = fields.get("espeers-deck")
        private = guest_choices(self.app.saved_decks_raw(), str(deck)) if deck is not None else None
        play, out = LinkPlay.join(
            self.invite, seat, name, crypto.signer, self.verifier(crypto), now(), self.base(),
            private,
        )  # fmt: skip
        if play is None:  # the invite's refusal (the seats offered are free, the name is fine)
            self.join_error, self.join_refused = out.sentence, True
            self.draw()
            return
        self.invite = []
        self._keep(play, crypto)
        self.outcome(play, out)
        self.draw()

    # -- clicks and drawing -----------------------------------------------------------

    def click(self, data: dict[str, Any]) -> None:
        cmd = data.get("cmd")
        fields = data.get("fields") if isinstance(data.get("fields"), dict) else {}
        if cmd == "bylink-join":
            self.join(fields or {})
            return
        if cmd == "bylink-take-over" and self.current is not None:
            self.elsewhere.discard(self.current)
            self.game(self.current)
        play = self.plays.get(self.current or "")
        if play is not None and self._mine(play.match_id) is None:
            self._let_go(play.match_id)  # another tab took it over: this one lets go
            play = None
        if play is None:
            self.draw()
            return
        if cmd == "bylink-send":
            self.sending.add(play.match_id)
        elif cmd == "bylink-claim":
            self.outcome(play, play.claim(now()))
        elif cmd == "bylink-compared":
            play.compared = True
            self.save(play)
        elif cmd == "bylink-scan":
            self.scanning ^= {play.match_id}
        elif cmd == "bylink-sent":
            self.sending.discard(play.match_id)
            play.mark_sent()
            self.save(play)
        else:
            self.view(play).handle(data)
            self.save(play)
        self.draw()

    def view(self, play: LinkPlay) -> LinkView:
        """The board of `play`, made again when the game derived a new table."""
        view = self.views.get(play.match_id)
        table: AnyTable | None = play.table
        assert table is not None
        if view is None or view.table is not table:
            notes = view.notes if view is not None else {}
            view = LinkView(table, screen_for(table.game.id), LinkSeats(self, play), self.app.href)  # type: ignore[arg-type]
            view.notes, view.scope = notes, "bylink-" + table.game.id
            view.sent_words = SENT_WORDS
            view.banner = lambda: self.panel(play)
            view.result_extras = lambda: [trust(play, result=True)]
            self.views[play.match_id] = view
        return view

    def show(self, match_id: str = "") -> None:
        """`#bylink` (the game shown) or `#bylink=<match>` (one of Your games)."""
        if match_id in self._rows() and match_id != self.current:
            self.current, self.sentence = match_id, ""  # another game: the last word was not its
        elif self.current is None and self._rows() and not self.invite:  # after a reload
            self.current = self._shown()
        if self.current is not None:
            self.elsewhere.discard(self.current)
            self.game(self.current)  # read back from its save when this tab does not hold it
        self.draw()

    def _shown(self) -> str | None:
        """The game `#bylink` shows: the one on screen, else the one with the latest link."""
        rows = self._rows()
        if self.current is not None or not rows:
            return self.current
        return str(max(rows.values(), key=lambda line: float(str(line["last_link_at"])))["match"])

    def _rows(self) -> dict[str, dict[str, Json]]:
        """ "Your games": each game's summary line, from its save or as this tab holds it."""
        rows = dict(self.lines)
        rows.update({m: p.summary() for m, p in self.plays.items() if m not in rows})
        return rows

    def draw(self) -> None:
        play = self.plays.get(self.current or "")
        if play is None and self.current in self.elsewhere:
            self.app.effects.draw(ROOT, elsewhere_tree())
        elif play is None:
            tree = self.join_tree() if self.invite else nothing_tree(self.sentence)
            self.app.effects.draw(ROOT, tree)
        elif play.table is None:
            self.app.effects.draw(ROOT, h("div", {"class": "bylink"}, self.panel(play, True)))
        else:
            view = self.view(play)
            view.refresh()
            self.app.effects.draw(ROOT, view.render())
        self.draw_home()

    def draw_home(self) -> None:
        self.app.effects.draw(
            HOME_ROOT, your_games(list(self._rows().values()), now(), self.removing)
        )

    def home_click(self, data: dict[str, Any]) -> None:
        """ "Your games by link": remove a finished game from this browser, once confirmed."""
        cmd, match_id = data.get("cmd"), str(data.get("match", ""))
        if cmd == "bylink-remove" and self._rows().get(match_id, {}).get("over"):
            self.removing = match_id
        elif cmd == "bylink-remove-yes" and match_id == self.removing:
            self.remove(match_id)
        else:
            self.removing = None
        self.draw_home()

    def remove(self, match_id: str) -> None:
        """A finished game gone from this browser: its save, its tab's mark and its key."""
        key = SAVE + match_id
        for gone in (key, key + OWNER):
            self.app.storage.remove(gone)
        if self.app.keyring is not None:
            self.app.keyring.forget(key)
        self.plays.pop(match_id, None)
        self.views.pop(match_id, None)
        self.lines.pop(match_id, None)
        self.removing = None
        if self.current == match_id:
            self.current, self.sentence = None, ""

    def panel(self, play: LinkPlay, titled: bool = False) -> Node:
        """Above the board: what the game waits for, and "Send this link" when there is one
        (`titled`: the screen's heading too, before the board has its own)."""
        scan = play.match_id in self.scanning
        links = links_to_send(play, scan) if play.match_id in self.sending else []
        game = GAME_NAMES.get(play.game.id, play.game.id) if play.game is not None else ""
        waiting = play.waiting()
        said = self.sentence.removesuffix(waiting).rstrip()  # the waiting line below says it
        if said.startswith("Send this") and (links or play.match_id not in self.sending):
            said = ""  # the panel below says it; or it is sent: the word is stale
        return h(
            "section",
            {"class": "bylink-bar", "data-role": "bylink-bar", "aria-label": "Play by link"},
            h("h2", {"tabindex": "-1"}, f"{game} by link: {', '.join(play.names)}")
            if titled
            else None,
            h("p", {"class": "bylink-said", "data-role": "bylink-said"}, said) if said else None,
            h("p", {"class": "bylink-waiting", "data-role": "bylink-waiting"}, waiting),
            h("p", {"class": "hint", "data-role": "bylink-both"}, BOTH)
            if links and play.summary()["my_turn"]
            else None,
            claim_tree(play, now()),
            trust(play),
            *disclosures(play),
            send_tree(links, scan) if links else sending_tree(play.match_id in self.sending),
        )

    def join_tree(self) -> Node:
        """The join screen: the game the invite is for, a free seat, your name."""
        try:
            packet = packing.read_invite(self.invite)
        except ParlourError as error:
            return h("div", {"class": "bylink"}, h("p", {"class": "error"}, error.sentence))
        opened = next((r for r in packet.records if r.kind == "open"), None)
        if opened is None:
            return h(
                "div",
                {"class": "bylink"},
                h("h2", {"tabindex": "-1"}, "Play by link"),
                h(
                    "p",
                    {"class": "error", "role": "alert"},
                    "That link is for a game this device does not have: open the invite "
                    "(the first link of the game) first.",
                ),
            )
        decks = guest_decks(self.app.saved_decks_raw()) if opened.body.get("g") == "espeers" else []
        try:
            code = invite_code(packet.match_id, opened.device, opened.body)
        except ParlourError:
            code = ""  # an invite this page cannot join says so on the form
        return join_form(
            opened, packet.records, self.join_error, decks, code, self.join_refused, self.join_typed
        )


# -- trees ------------------------------------------------------------------------------------
