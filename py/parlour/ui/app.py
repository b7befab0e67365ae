"""The app, as it runs in the worker (pure): a call from the page in, its effects out.

The page's main thread (MicroPython, `py/shell/`) owns the DOM and turns every click, key,
address change, timer tick and network event into a plain request; `App.call` answers each with
`Effects` (HTML for regions, storage writes, texts to send). Routes, play sessions, the deck
builder, storage and online play all live here, in Python that runs the same under CPython, so
all of it is tested without a browser. See docs/two-threads.md.
"""

from __future__ import annotations

import json
import traceback
from typing import TYPE_CHECKING, Any

from parlour.ui import setup_form, signing
from parlour.ui.espeers.shelf import DECKS_STORAGE, fill_deck_choices, saved_decks_raw
from parlour.ui.page import Effects, Storage, within
from parlour.ui.pass_and_play import PassAndPlay, play_root
from parlour.ui.redraw import Drawn
from parlour.ui.saved_game import (
    STORAGE,
)
from parlour.ui.screens import SCREENS
from parlour.ui.setup_form import SetUp
from parlour.ui.signing import LINK_SAVE

if TYPE_CHECKING:
    from parlour.fair.signing import Signed, Signer
    from parlour.match.table import Table
    from parlour.ui.by_link.app import LinkGames
    from parlour.ui.online.app import OnlineController
    from parlour.ui.online.saves import Keyring
    from parlour.ui.play import PlaySession
    from parlour.ui.replays.app import Replays
    from parlour.ui.storage_note import StorageNote
    from parlour.ui.tutorial import Lessons


# Screens the worker draws whole (their address prefix, their region): a route to one moves
# the keyboard focus to its heading, as the page does for its plain screens.
DRAWN_SCREENS = (
    ("#online", "#online .online-root"),
    ("#join=", "#online .online-root"),
    ("#bylink", "#bylink .bylink-root"),
    ("#replay", "#replay .replay-root"),
)


class App(PassAndPlay):
    """Everything Python does for one page, fed one request at a time: it routes each request,
    plays the games of this device (`PassAndPlay`, ui/pass_and_play.py) and makes online play,
    play by link, replays and the lessons on first use."""

    def __init__(self) -> None:
        self.storage = Storage({}, {})
        self.sessions: dict[str, PlaySession] = {}
        self.builder: Any = None
        self.online: OnlineController | None = None
        self.keyring: Keyring | None = None  # the page's signing keys (worker.py): signed play
        self._replays: Replays | None = None
        self._links: LinkGames | None = None  # play by link: made on first use
        self.href = ""
        self._lessons: Lessons | None = None  # the lessons (#learn-<game>): made on first use
        self.hash = ""
        self.note: StorageNote | None = None  # the storage note: made when it has a word
        # A game made elsewhere (a replay played on), started by the next #start-<game>
        self.pending_tables: dict[str, Table] = {}
        self.pending_setup: SetUp | None = None  # a start waiting on "replace the game?"
        self.pending_table: Table | None = None  # or its table
        self.drawn = Drawn()  # what the page's regions hold: each redraw sends what changed
        self.lean = False  # the worker's page: changes go without the whole HTML (page.Effects)

    # -- the one entry point ------------------------------------------------------------

    def call(self, text: str) -> str:
        """One request from the page, as JSON; its effects, as JSON. Nothing raises out of
        here: a fault becomes an `error` the page shows, and the app goes on."""
        self.storage.effects = Effects(self.drawn, self.lean)
        try:
            request = json.loads(text)
            if not isinstance(request, dict):
                raise ValueError("a request is an object")
            self.handle(request)
            self.draw_note()
            out = self.effects.to_json()
        except Exception:  # the page must hear of any fault, not hang on it
            out = {**self.effects.to_json(), "error": traceback.format_exc()}
        return json.dumps(out)

    # -- signed play: what the page signs and checks around a call (webcrypto.py) ------------

    def signature_checks(self, text: str) -> list[tuple[str, bytes, bytes, bytes]]:
        return signing.signature_checks(self, text)

    def pending_signatures(self) -> tuple[Signer | None, list[tuple[Signed, bytes]]]:
        return signing.pending_signatures(self)

    def after_signing(self) -> str:
        return signing.after_signing(self)

    def made_links(self) -> LinkGames | None:
        """Play by link, if this page has used it (it is made on first use: `links`)."""
        return self._links

    def handle(self, request: dict[str, Any]) -> None:
        op = request.get("op")
        handler = HANDLERS.get(op) if isinstance(op, str) else None
        if handler is None:
            raise ValueError(f"unknown request {op!r}")
        handler(self, request)

    def on_start(self, request: dict[str, Any]) -> None:
        local, tab = request.get("local"), request.get("session")
        self.storage = Storage(
            {k: v for k, v in (local or {}).items() if isinstance(v, str)},
            {k: v for k, v in (tab or {}).items() if isinstance(v, str)},
        )
        if request.get("refused"):  # the browser lets the page keep nothing (cookies blocked)
            self.storage.why = "refused"
        if any(k.startswith(LINK_SAVE) for k in self.storage.values["local"]):
            self.links().load_all()
            self.links().draw_home()
        self.on_route(request)

    # -- the storage note: a game not saved, a save set aside ----------------------------

    def storage_note(self) -> StorageNote:
        """The storage note, made on first use (most visits never need it)."""
        if self.note is None:
            from parlour.ui.storage_note import StorageNote

            self.note = StorageNote()
        return self.note

    def on_unsaved(self, request: dict[str, Any]) -> None:
        self.storage_note().unsaved(request, self.storage)

    def draw_note(self) -> None:
        """Draw the storage note when it has something to say."""
        storage = self.storage
        if self.note is not None or storage.why or storage.damaged:
            self.storage_note().draw(storage, self.effects, self.current_saves())

    def current_saves(self) -> set[str]:
        """The saves of what is being played now, never offered for removal."""
        keep = set(self.storage.unsaved)
        for game_id in self.sessions:
            if self.hash == f"#play-{game_id}":
                keep.add(STORAGE.format(game=game_id))
        owned = getattr(self.online, "owned", None)
        if owned is not None:
            keep.add(owned)
        if self._links is not None and self._links.current is not None:
            keep.add(LINK_SAVE + self._links.current)  # the game by link on screen
        return keep

    def on_storage(self, request: dict[str, Any]) -> None:
        key, value = request.get("key"), request.get("value")
        if isinstance(key, str) and (value is None or isinstance(value, str)):
            self.storage.changed_elsewhere(key, value)

    # -- routes -------------------------------------------------------------------------

    def on_route(self, request: dict[str, Any]) -> None:
        if self.note is not None:
            self.note.said = ""  # "saved again" was said; a new screen need not hear it
        self._route(request)
        hash_ = self.hash
        drawn = [
            root
            for prefix, root in DRAWN_SCREENS
            if hash_.partition("=")[0] == prefix.rstrip("=")
            and any(r[0] == root for r in self.effects.render)
        ]
        if drawn and self.effects.focus is None and self.effects.go is None:
            # a screen the worker draws: the focus goes to its heading (see shell/page.py)
            self.effects.focus = within(drawn[0], "h2, h1")

    def _route(self, request: dict[str, Any]) -> None:
        self.href = str(request.get("href") or self.href)
        self.hash = hash_ = str(request.get("hash") or "")
        form = request.get("form")
        self.effects.attrs["joining"] = None
        if hash_.startswith("#join="):
            self._online_start().guest_new(self, hash_[1:])
            return
        if hash_.startswith("#pl="):
            self.links().open_link(hash_)
            self.go("#bylink")
            return
        if hash_ == "#bylink" or hash_.startswith("#bylink="):
            self.links().show(hash_.partition("=")[2])
            return
        if hash_ == "#online":
            self._online_module().show(self)
            return
        if hash_ == "#replay":
            self.replays().show()
            return
        if hash_.startswith("#replay="):
            self.replays().open_code(hash_.removeprefix("#replay="))
            return
        if self._replays is not None:
            self._replays.leave()
        if hash_.startswith("#host-") and hash_[6:] in SCREENS:
            self._online_start().host_new(self, hash_[6:], setup_form.read(form, hash_[6:]))
            return
        if hash_.startswith("#link-") and hash_[6:] in SCREENS:
            self.links().create(hash_[6:], setup_form.read(form, hash_[6:]))
            return
        if hash_.startswith("#learn-") and hash_[7:] in SCREENS:
            self.lessons().route(hash_[7:])
            return
        if hash_ == "#decks-espeers":
            self.draw_builder()
            return
        if hash_.startswith("#new-") and hash_[5:] in SCREENS:
            from parlour.ui.online import network  # (the set-up's online part: drawn, not at start)

            network.draw_choice(self.storage, self.effects, hash_[5:])
        if hash_ == "#new-espeers":
            fill_deck_choices(self.storage, self.effects, form)
            return
        for game_id in SCREENS:
            if hash_ == f"#start-{game_id}":
                table = self.pending_tables.pop(game_id, None)
                setup = setup_form.read(form, game_id) if table is None else None
                self.start_new(game_id, setup, table=table)
                return
            if hash_ == f"#solo-{game_id}":
                self.start_solo(game_id)
                return
            if hash_ == f"#play-{game_id}":
                if game_id not in self.sessions and not self.resume(game_id):
                    self.go(f"#new-{game_id}")
                    return
                session = self.sessions[game_id]
                session.focus_to = session.focus_to or "[data-autofocus],[data-role=status]"
                self.draw(game_id)
                return

    def replays(self) -> Replays:
        """The replay viewer, made on first use (a game's page never needs it)."""
        if self._replays is None:
            from parlour.ui.replays.app import Replays

            self._replays = Replays(self)
        return self._replays

    def links(self) -> LinkGames:
        """This browser's games by link, made on first use."""
        if self._links is None:
            from parlour.ui.by_link.app import LinkGames

            self._links = LinkGames(self)
        return self._links

    def lessons(self) -> Lessons:
        """The lessons under way, made on first use (a game's page never needs them)."""
        if self._lessons is None:
            from parlour.ui.tutorial import Lessons

            self._lessons = Lessons(self)
        return self._lessons

    def in_lesson(self, game_id: str) -> bool:
        return self._lessons is not None and game_id in self._lessons.under_way

    def _online_module(self) -> Any:
        from parlour.ui.online import app as online_app

        return online_app

    def _online_start(self) -> Any:
        """Where online games begin (a host's table, a guest's join): loaded on first use."""
        from parlour.ui.online import start as online_start

        return online_start

    def on_click(self, request: dict[str, Any]) -> None:
        region, data = request.get("region"), request.get("data")
        if not isinstance(region, str) or not isinstance(data, dict):
            return
        kind, _, game_id = region.partition(":")
        if kind == "play" and game_id in SCREENS:
            self.dispatch(game_id, data)
        elif kind == "learn" and self.in_lesson(game_id):
            self.lessons().dispatch(game_id, data)
        elif kind == "start" and game_id in SCREENS and data.get("cmd") == "replace-game":
            self.sessions.pop(game_id, None)
            setup, table = self.pending_setup, self.pending_table
            self.start_new(game_id, setup, confirmed=True, table=table)
        elif kind == "solo" and game_id in SCREENS and data.get("cmd") == "replace-game":
            self.sessions.pop(game_id, None)
            self.start_solo(game_id, confirmed=True)
        elif kind == "builder":
            self.on_builder_click(data)
        elif kind == "storage":
            self.storage_note().click(data, self.storage, self.effects, self.current_saves())
        elif kind == "online" and self.online is not None:
            self.online.on_click(data)
        elif kind == "replay":
            self.replays().click(data)
        elif kind == "bylink":
            self.links().click(data)
        elif kind == "linkgames":
            self.links().home_click(data)

    def on_key(self, request: dict[str, Any]) -> None:
        """A key on a play screen, as the page read it: Enter or Space on a board cell, an
        arrow across the ESP board (answered with where the focus goes), a digit or Enter typed
        anywhere else."""
        region = request.get("region")
        if not isinstance(region, str):
            return
        if region == "replay":
            self.replays().key(str(request.get("key")))
            return
        kind, _, game_id = region.partition(":")
        send = (
            (lambda data: self.dispatch(game_id, data))
            if kind == "play" and game_id in self.sessions
            else (lambda data: self.lessons().dispatch(game_id, data))
            if kind == "learn" and self.in_lesson(game_id)
            else self.online.click
            if kind == "online" and self.online is not None and self.online.play is not None
            else self._links.click
            if kind == "bylink" and self._links is not None
            else None
        )
        if send is None:
            return
        key, cell = str(request.get("key")), request.get("cell")
        if cell is None:
            send({"cmd": "key", "key": key})
        elif key in ("Enter", " "):
            send({"cell": str(cell)})
        elif key.startswith("Arrow"):
            from parlour.ui.esp.board import arrow_focus

            target = arrow_focus(str(cell), request.get("cells"), key)
            roots = {"play": play_root(game_id), "learn": f"#learn-{game_id} .learn-root"}
            roots["bylink"] = "#bylink .bylink-root"
            root = roots.get(kind, "#online .online-root")
            self.effects.focus = within(root, target) if target else None

    def on_bot(self, request: dict[str, Any]) -> None:
        """A bot's turn, asked for by the page after the pause (see `draw`). A request for a
        step the match has left (an undo, a second request) changes nothing."""
        game_id = request.get("game")
        if isinstance(game_id, str) and game_id.startswith("learn:"):
            self.lessons().bot(game_id[6:], request.get("step"))
            return
        if game_id == "online":
            if self.online is not None:
                self.online.bot(request.get("step"))
            return
        if isinstance(game_id, str):
            self.bot_turn(game_id, request.get("step"))

    # -- the ESPEERS deck builder and the decks of a new game ---------------------------

    def saved_decks_raw(self) -> object:
        return saved_decks_raw(self.storage)

    def deck_builder(self) -> Any:
        if self.builder is None:
            from parlour.ui.espeers.decks import DeckBuilder

            self.builder = DeckBuilder.from_json(self.saved_decks_raw())
        return self.builder

    def draw_builder(self) -> None:
        self.effects.draw("#decks-espeers .builder-root", self.deck_builder().render())

    def on_builder_click(self, data: dict[str, Any]) -> None:
        self.deck_builder().handle(data)
        self.storage.set(DECKS_STORAGE, json.dumps(self.deck_builder().to_json()))
        self.draw_builder()

    # -- online play: its module is imported on first use --------------------------------

    def on_tick(self, request: dict[str, Any]) -> None:
        if self.online is not None:
            self.online.tick()

    def on_link(self, request: dict[str, Any]) -> None:
        if self.online is not None:
            self.online.on_link(request)

    # -- replays: the viewer is imported on first use -------------------------------------

    def on_replay_file(self, request: dict[str, Any]) -> None:
        self.replays().open_file(request.get("text"))

    def on_replay_tick(self, request: dict[str, Any]) -> None:
        self.replays().tick(request.get("revision"))


HANDLERS = {
    "start": App.on_start,
    "route": App.on_route,
    "click": App.on_click,
    "key": App.on_key,
    "tick": App.on_tick,
    "link": App.on_link,
    "storage": App.on_storage,
    "unsaved": App.on_unsaved,
    "bot": App.on_bot,
    "replay-file": App.on_replay_file,
    "replay-tick": App.on_replay_tick,
    "whole": lambda app, request: app.effects.whole(str(request.get("selector"))),
}
