"""Play by link, as the worker runs it (pure): the set-up's "Play by link", opening a link,
joining, the board, "Send this link", and "Your games" kept per match in browser storage.

The protocol is `parlour.match.by_link` (docs/links.md); this module carries text between it
and the page. Keys are the page's (WebCrypto, py/webcrypto.py): a record waits for its signature
(`pending`), the page signs it, and `after_signing` shows the links that then exist. Checking
the others' signatures is asked for before the call (`checks`). The app (app.py) imports this
module on first use and hands it itself; what it uses of the app is online_app's `TheApp`.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from parlour.errors import ParlourError
from parlour.fair.encoding import Json, parse_json
from parlour.fair.signing import Signed, Signer
from parlour.match.by_link import LinkPlay, packing
from parlour.match.by_link.device import Outcome
from parlour.match.match import Submitted
from parlour.match.table import AnyTable
from parlour.ui import setup_form
from parlour.ui.online_app import TheApp, _deck_choices, _guest_choices
from parlour.ui.online_screen import GAME_NAMES, copy_box
from parlour.ui.play import PlaySession
from parlour.ui.qr import qr_svg
from parlour.ui.screens import now, screen_for
from parlour.ui.tree import Node, h

ROOT = "#bylink .bylink-root"
HOME_ROOT = "#home .link-games-root"
SAVE = "psi-parlour:link:"  # then the match id: one save per game by link
NO_KEYS = (
    "This browser cannot sign moves (WebCrypto is missing or turned off), so it cannot play "
    "by link: play online or on one device instead."
)
NOT_KEPT = "This browser did not keep the game by link, so a reload would lose it: {why}"
SENT_WORDS = "Your move is sealed and signed: send the link below to the others."


class Pending:
    """One record of a game waiting for the page's signature, as py/webcrypto.py signs: it sets
    `signature`, which this gives to the game (kept only if it holds). The page's checks answer
    only for signatures checked before the call, so the one just made with this device's own
    key is noted as made here (`made`), for `LinkGames.verifier`."""

    def __init__(self, play: LinkPlay, which: str, data: bytes, made: set[Any]) -> None:
        self.play, self.which, self.data, self.made = play, which, data, made

    @property
    def signature(self) -> bytes | None:
        return None

    @signature.setter
    def signature(self, value: bytes | None) -> None:
        if value is not None:
            signer = self.play.signer
            self.made.add((signer.algorithm, signer.public_key, self.data, bytes(value)))
            self.play.signed(self.which, value)


class LinkSeats:
    """What the play screen asks of the device it plays for (as of an online session): moves
    go to the game by link, whose log takes them at once or once the others' are in."""

    is_host = True  # no host: nothing is relayed (play.py's `_relayed`)
    verdicts: ClassVar[dict[int, Any]] = {}
    links: ClassVar[dict[str, Any]] = {}

    def __init__(self, games: LinkGames, play: LinkPlay) -> None:
        self.games, self.play = games, play

    @property
    def openings(self) -> dict[int, Any]:
        return self.play.openings

    @property
    def audit_result(self) -> Any:
        return self.play.audit_result

    def replay_signatures(self) -> None:
        return None

    def table_code(self) -> str | None:
        return self.play.table_code()

    def act(self, seat: int, choice: Any) -> Submitted:
        match = self.play.match
        before = len(match.entries) if match is not None else 0
        out = self.play.act(seat, choice, now())
        self.games.outcome(self.play, out)
        if not out.ok:
            return Submitted(reason=out.sentence)
        match = self.play.match
        entries = match.entries if match is not None else []
        if len(entries) > before and entries[before].seat == seat:
            return Submitted(entry=entries[before])
        return Submitted(sent=True)


class LinkView(PlaySession):
    """The board of a game by link: the device's seats; its bots move in the game itself."""

    def bot_due(self) -> bool:
        return False

    def bot_thinking(self) -> int | None:
        return None


class LinkGames:
    """This browser's games by link: loaded, shown, played, saved."""

    def __init__(self, app: TheApp) -> None:
        self.app = app
        self.plays: dict[str, LinkPlay] = {}
        self.views: dict[str, LinkView] = {}
        self.current: str | None = None
        self.sending: set[str] = set()  # games whose "Send this link" is open
        self.sentence = ""  # the last link's or action's word
        self.invite: list[str] = []  # an invite opened here, not joined yet
        self.parts: dict[str, dict[int, str]] = {}  # parts of split links, by tag, till whole
        self.made: set[Any] = set()  # signatures this page's keys made (`Pending`)
        self.opened = 0  # links opened by this page: <html data-links-opened> (tests wait on it)
        self.join_error = ""

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
            if not text.startswith("#pl="):
                return []
            found = packing.match_of(text)
            play = self.plays.get(found or "")
            if play is not None:
                return play.checks(text)
            if is_part(text):
                return self._part_checks(text)
            return packing.invite_checks([text])
        if op == "click" and request.get("region") == "bylink":
            return packing.invite_checks(self.invite)
        return []

    def _part_checks(self, text: str) -> list[packing.Check]:
        """A part that completes a link: that link's signatures (none for a damaged one,
        which `open_link` then refuses with a sentence)."""
        whole = self._whole(text)
        try:
            packet = packing.read_invite(whole) if whole else None
        except ParlourError:
            return []
        if packet is None:
            return []
        game = self.plays.get(packet.match_id)
        return packing.signature_checks(packet, game.keys if game else {})

    def saved_checks(self, local: dict[str, Any]) -> list[packing.Check]:
        """Every signature of the games by link kept in this browser (`local`, as the page
        starts): each is checked again as it is read back (`load_all`)."""
        checks: list[packing.Check] = []
        for key, raw in local.items():
            if not (isinstance(key, str) and key.startswith(SAVE) and isinstance(raw, str)):
                continue
            try:
                data = parse_json(raw, "A saved game by link")
                records = [Signed.from_json(r) for r in data["records"]]  # type: ignore[index]
                packet = packing.Packet(str(data["match"]), tuple(records[:-1]), records[-1])  # type: ignore[index]
            except (ParlourError, KeyError, TypeError, IndexError):
                continue  # read as damaged, and set aside, by `load_all`
            checks += packing.signature_checks(packet, {})
        return checks

    # -- storage ----------------------------------------------------------------------

    def save(self, play: LinkPlay) -> None:
        key = SAVE + play.match_id
        self.app.storage.set(key, json.dumps(play.to_json()))

    def load_all(self) -> None:
        """Every game by link kept in this browser, read back (one that cannot be is set aside,
        and the storage note says so)."""
        storage = self.app.storage
        for key in list(storage.values["local"]):
            match_id = key.removeprefix(SAVE)
            if not key.startswith(SAVE) or ":" in match_id or match_id in self.plays:
                continue
            what = "Your saved game by link"
            data, crypto = storage.read(key, what), self._crypto(match_id)
            if data is None:
                continue
            try:
                if crypto is None:
                    raise ParlourError("no key")
                play = LinkPlay.from_json(data, crypto.signer, self.verifier(crypto), now())
            except ParlourError:
                storage.set_aside(key, what)
                continue
            self.plays[match_id] = play

    # -- making and joining -----------------------------------------------------------

    def create(self, game_id: str, form: object) -> None:
        """The set-up form's "Play by link": this device holds the first seat (and the bots)."""
        crypto = self._crypto()
        if crypto is None:
            self._refuse(game_id, NO_KEYS)
            return
        bots = setup_form.seat_kinds(form)
        names = list(setup_form.seat_names(form))
        variant = setup_form.variant(form, game_id)
        private: dict[int, dict[str, Json]] = {}
        decks = setup_form.deck_choices(form)
        if decks:  # ESPEERS: each player brings a deck the others do not see
            chosen = self.app.chosen_decks(decks)
            private = {s: {"deck": chosen[s]} for s in {0, *bots} if s < len(chosen)}
            variant["decks"] = ["sealed"] * len(chosen)
        play, out = LinkPlay.create(
            game_id, names, variant, (0,), crypto.signer, self.verifier(crypto), now(), self.base(),
            bots, 0, private,
        )  # fmt: skip
        if play is None:
            self._refuse(game_id, out.sentence)
            return
        self._refuse(game_id, "")
        self._keep(play, crypto)
        self.outcome(play, out)
        self.app.go("#bylink")

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

    def outcome(self, play: LinkPlay, out: Outcome) -> None:
        """After taking a link or acting: the sentence, the links to send, the save."""
        self.sentence = out.sentence
        if out.links or out.signing:
            self.sending.add(play.match_id)
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
                self.sentence = "Part of a link kept: open its other parts too (any order)."
                self.draw()
                return
            texts = whole
        found = packing.match_of(texts[0]) if len(texts) == 1 else self._match_of(texts)
        play = self.plays.get(found or "")
        if play is None:
            self.invite, self.join_error, self.current = texts, "", None
            self.draw()
            return
        self.current = play.match_id
        for part in texts:
            out = play.take_link(part, now())  # the last part completes the link
        self.outcome(play, out)
        self.draw()

    def _whole(self, text: str) -> list[str] | None:
        """Keep a part; all the parts of its link once every one is here (else None)."""
        read = packing.read_fragment(text)
        assert isinstance(read, packing.Part)
        parts = self.parts.setdefault(read.tag, {})
        parts[read.index] = text
        if any(i not in parts for i in range(1, read.count + 1)):
            return None
        return [parts[i] for i in range(1, read.count + 1)]

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
        deck = fields.get("espeers-deck")
        private = _guest_choices(self.app, str(deck)) if deck is not None else None
        play, out = LinkPlay.join(
            self.invite, seat, name, crypto.signer, self.verifier(crypto), now(), self.base(),
            private,
        )  # fmt: skip
        if play is None:
            self.join_error = out.sentence
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
        play = self.plays.get(self.current or "")
        if cmd == "bylink-join":
            self.join(fields or {})
            return
        if play is None:
            return
        if cmd == "bylink-send":
            self.sending.add(play.match_id)
        elif cmd == "bylink-sent":
            self.sending.discard(play.match_id)
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
            view.result_extras = lambda: [trust(play)]
            self.views[play.match_id] = view
        return view

    def show(self, match_id: str = "") -> None:
        """`#bylink` (the game shown) or `#bylink=<match>` (one of Your games)."""
        if match_id in self.plays and match_id != self.current:
            self.current, self.sentence = match_id, ""  # another game: the last word was not its
        elif self.current is None and self.plays and not self.invite:  # after a reload
            self.current = max(self.plays.values(), key=lambda p: p.last_link_at).match_id
        self.draw()

    def draw(self) -> None:
        play = self.plays.get(self.current or "")
        if play is None:
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
        self.app.effects.draw(HOME_ROOT, your_games(list(self.plays.values())))

    def panel(self, play: LinkPlay, titled: bool = False) -> Node:
        """Above the board: what the game waits for, and "Send this link" when there is one
        (`titled`: the screen's heading too, before the board has its own)."""
        links = play.links() if play.match_id in self.sending else []
        game = GAME_NAMES.get(play.game.id, play.game.id) if play.game is not None else ""
        said = self.sentence
        if links and said.startswith("Send this"):
            said = ""  # the panel below says it
        return h(
            "section",
            {"class": "bylink-bar", "data-role": "bylink-bar", "aria-label": "Play by link"},
            h("h2", {"tabindex": "-1"}, f"{game} by link: {', '.join(play.names)}")
            if titled
            else None,
            h("p", {"class": "bylink-said", "data-role": "bylink-said"}, said) if said else None,
            h("p", {"class": "bylink-waiting", "data-role": "bylink-waiting"}, play.waiting()),
            send_tree(links)
            if links
            else h("p", {"class": "hint", "data-role": "bylink-signing"}, "Signing…")
            if play.match_id in self.sending
            else h(
                "button",
                {"class": "button small", "data-cmd": "bylink-send", "type": "button"},
                "Show the link again",
            ),
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
        decks = _deck_choices(self.app) if opened.body.get("g") == "espeers" else []
        return join_form(opened, packet.records, self.join_error, decks)


def is_part(text: str) -> bool:
    """Whether a link is one part of a link split in several."""
    try:
        return isinstance(packing.read_fragment(text), packing.Part)
    except ParlourError:
        return False


# -- trees ------------------------------------------------------------------------------------


def send_tree(links: list[str]) -> Node:
    """ "Send this link": Copy, Share (where the browser has it), a QR code, and what to do."""
    many = len(links) > 1
    items = []
    for i, link in enumerate(links):
        label = f"Link part {i + 1} of {len(links)}" if many else "The link to send"
        items.append(
            h(
                "div",
                {"class": "bylink-link"},
                copy_box(link, label, f"bylink-link-{i}"),
                h(
                    "button",
                    {"class": "button small", "data-share": link, "type": "button", "hidden": True},
                    "Share",
                ),
            )
        )
    done = h(
        "button",
        {"class": "button small", "data-cmd": "bylink-sent", "type": "button"},
        "Done: I sent it",
    )
    return h(
        "div",
        {"class": "bylink-send", "data-role": "bylink-send"},
        h("h3", None, "Send these links" if many else "Send this link"),
        h(
            "p",
            None,
            "Send it to your group chat (or to each player): each player opens it on their "
            "own device, and the game goes on there.",
            " Send every part: they can arrive in any order." if many else None,
        ),
        h(
            "div",
            {"class": "bylink-share"},
            qr_or_word(links[0]) if not many else None,
            h("div", None, *items, done),
        ),
    )


def qr_or_word(link: str) -> Node:
    """The link's QR code (level L, the most it holds: up to 858 bytes), or a word when it is
    too long for one (Copy and Share carry it)."""
    try:
        return qr_svg(link, "QR code of the link", "L")
    except ValueError:
        return h("p", {"class": "hint"}, "This link is too long for a QR code: copy or share it.")


def join_form(
    opened: Signed, records: tuple[Signed, ...], error: str, decks: list[tuple[str, str]]
) -> Node:
    """A free seat and your name (and in ESPEERS your deck), for a device that opens an
    invite."""
    body = opened.body
    names = [str(n) for n in body.get("n", [])] if isinstance(body.get("n"), list) else []
    held = body.get("h") if isinstance(body.get("h"), list) else []
    taken = set(held or []) | {r.body.get("s") for r in records if r.kind == "join"}
    free = [s for s in range(len(names)) if s not in taken]
    game = GAME_NAMES.get(str(body.get("g")), str(body.get("g")))
    bots = [names[int(s)] for s in body.get("b", {}) if str(s).isdigit() and int(s) < len(names)]
    seats = [h("option", {"value": str(s)}, names[s]) for s in free]
    return h(
        "div",
        {"class": "bylink bylink-join", "data-role": "bylink-join"},
        h("h2", {"tabindex": "-1"}, f"Join a game of {game} by link"),
        h("p", None, f"Players: {', '.join(names)}."),
        h(
            "p",
            {"class": "hint"},
            "Each turn is a link: after you join, and after each of your moves, this page gives "
            "you one to send to the group chat.",
        ),
        h("p", {"class": "hint"}, f"{', '.join(bots)} play on the creator's device.")
        if bots
        else None,
        h(
            "label",
            {"class": "field"},
            h("span", None, "Your seat"),
            h("select", {"data-field": "bylink-seat"}, *seats),
        )
        if free
        else h("p", {"class": "error"}, "Every seat is taken in that game."),
        h(
            "label",
            {"class": "field"},
            h("span", None, "Your name"),
            h("input", {"data-field": "bylink-name", "maxlength": "24", "autocomplete": "off"}),
        ),
        h(
            "label",
            {"class": "field deck-choice"},
            h("span", None, "Your deck (nobody else sees it)"),
            h(
                "select",
                {"data-field": "espeers-deck"},
                *(h("option", {"value": v}, label) for v, label in decks),
            ),
        )
        if decks
        else None,
        h("p", {"class": "error", "role": "alert", "data-role": "bylink-error"}, error),
        h(
            "div",
            {"class": "actions"},
            h(
                "button",
                {"class": "button primary", "data-cmd": "bylink-join", "type": "button"},
                "Join the game",
            )
            if free
            else None,
        ),
    )


def trust(play: LinkPlay) -> Node | None:
    code = play.table_code()
    if code is None:
        return None
    return h(
        "p",
        {"class": "table-code", "data-role": "table-code"},
        "Table code ",
        h("strong", {"class": "code", "data-code": code}, code),
        ": compare it with the other players once, in your chat.",
    )


def nothing_tree(said: str) -> Node:
    """No game shown: what the last link opened said (a part kept), or that there is none."""
    return h(
        "div",
        {"class": "bylink"},
        h("h2", {"tabindex": "-1"}, "Play by link"),
        h("p", {"data-role": "bylink-said"}, said or "No game by link is open here."),
        h("a", {"class": "button", "href": "#home"}, "All games"),
    )


def your_games(plays: list[LinkPlay]) -> Node:
    """ "Your games" on the home screen: each game by link kept here, whose turn, the last link."""
    if not plays:
        return h("div", {"class": "link-games", "hidden": True})
    rows = []
    for play in sorted(plays, key=lambda p: -p.last_link_at):
        line = play.summary()
        game = GAME_NAMES.get(str(line["game"]), str(line["game"]))
        players = ", ".join(str(n) for n in line["players"] or [])  # type: ignore[union-attr]
        turn = "Your turn." if line["my_turn"] else str(line["waiting"])
        rows.append(
            h(
                "li",
                {"data-match": play.match_id},
                h("a", {"href": f"#bylink={play.match_id}"}, f"{game}: {players}"),
                h(
                    "span",
                    {"class": "turn mine" if line["my_turn"] else "turn"},
                    f"{turn} Last link {last_link_words(play.last_link_at)}.",
                ),
            )
        )
    return h(
        "section",
        {"class": "link-games", "aria-labelledby": "link-games-title"},
        h("h2", {"id": "link-games-title"}, "Your games by link"),
        h("ul", {"data-role": "link-games"}, *rows),
    )


def last_link_words(at: float) -> str:
    """When the last link came, in words ("5 min ago")."""
    ago = max(0, int(now() - at))
    if ago < 60:
        return "just now"
    if ago < 3600:
        return f"{ago // 60} min ago"
    if ago < 86400:
        return f"{ago // 3600} h ago"
    return f"{ago // 86400} days ago"
