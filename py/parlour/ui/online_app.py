"""Online play in the page (browser only): invites, joining, the transports and the heartbeat.

The pure `OnlineSession` decides everything; this module only carries text between it and the
links (WebRTC or BroadcastChannel), ticks it twice a second, saves it after every change (so a
reload loses nothing) and draws the lobby, the join screen or the game in `#online`.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time

from pyscript import document, window
from pyscript.ffi import create_proxy

from parlour.errors import MalformedInput, ParlourError
from parlour.games import GAMES
from parlour.match.config import MatchConfig
from parlour.match.online import HOST, OnlineSession, Phase, seat_peer
from parlour.match.table import new_match_id
from parlour.net.broadcast import TabLink, new_room
from parlour.net.sdp import invite_link, parse_invite, stun_servers
from parlour.net.webrtc import RtcLink
from parlour.ui import app, dom
from parlour.ui.dom import value
from parlour.ui.online_screen import (
    Invite,
    bar_notice,
    elsewhere_tree,
    forfeit_tree,
    guest_join,
    host_lobby,
    next_game_tree,
    online_banner,
)
from parlour.ui.play import PlaySession

SAVE = app.ONLINE_SAVE
LAST_KEY = app.ONLINE_LAST  # the game saved last in this browser
TAB_KEY = SAVE + ":tab"  # the game of this tab (sessionStorage survives its reloads)
KEYS = SAVE + ":keys"
KEEP = 8  # online games kept in this browser
OWNER = ":owner"  # after a save key: the tab that plays that game now
TAB = secrets.token_hex(6)  # this page load's name, for owning a save


def remember(key: str) -> None:
    """Mark `key` as this tab's game and the browser's latest; forget all but the last few."""
    window.sessionStorage.setItem(TAB_KEY, key)
    window.localStorage.setItem(LAST_KEY, key)
    document.documentElement.dataset.onlineSave = key
    try:
        keys = json.loads(str(value(window.localStorage.getItem(KEYS)) or "[]"))
    except ValueError:
        keys = []
    keys = [k for k in keys if isinstance(k, str) and k != key] + [key]
    for old in keys[:-KEEP]:
        window.localStorage.removeItem(old)
    window.localStorage.setItem(KEYS, json.dumps(keys[-KEEP:]))


STUN = "psi-parlour:stun"
TICK_MS = 500
controller: Controller | None = None
_ticker = None
_tasks: set = set()  # running coroutines, kept alive until they finish


def spawn(coroutine) -> None:
    task = asyncio.ensure_future(coroutine)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def now() -> float:
    return time.monotonic()


def _root():
    return document.querySelector("#online .online-root")


class Candidate:
    """One way a remote seat may connect (its WebRTC invite or its tab invite): the first that
    opens becomes that seat's link, and the other is closed."""

    def __init__(self, ctl: Controller, peer: str, kind: str) -> None:
        self.ctl, self.peer, self.kind = ctl, peer, kind
        self.link = None
        self.open = False

    def opened(self, peer: str) -> None:
        if self.open:
            return  # once: opening again would restart the numbering mid-conversation
        self.open = True
        self.ctl.adopt(self)

    def received(self, peer: str, text) -> None:
        if not self.open and self in self.ctl.candidates.get(peer, []):
            # A message can be dispatched before the channel's open event: the channel is open
            # all the same, and dropping this one would lose a guest's hello (no welcome, ever).
            self.opened(peer)
        if self.ctl.links.get(peer) is self.link:
            if self.ctl.session.config is None:
                self.ctl.session.guest_choices = _guest_choices()
            self.ctl.session.receive(peer, str(text), now())
            self.ctl.after()

    def closed(self, peer: str) -> None:
        self.ctl.link_closed(self)


class Controller:
    def __init__(self, session: OnlineSession) -> None:
        self.session = session
        self.links: dict[str, object] = {}  # peer -> the link in use
        self.candidates: dict[str, list[Candidate]] = {}
        self.invites: dict[int, Invite] = {}
        self.join = {"answer": "", "status": "waiting", "error": "", "tab": False, "game": ""}
        self.play: PlaySession | None = None
        self.notes: dict[int, dict] = {}
        self.drawn = -1
        self.stun = _stun_setting()
        self.joining = False  # a guest between opening an invite and being connected
        self.played = False  # a game was on screen: a new one in the making is "Play again"
        self.owned: str | None = None  # the save key this tab has claimed
        self.passive = False  # another tab took this game over: do nothing more
        self.shown_notice = ""  # the online bar's notice as last drawn

    # -- transport events ----------------------------------------------------------------

    def adopt(self, candidate: Candidate) -> None:
        peer = candidate.peer
        for other in self.candidates.get(peer, []):
            if other is not candidate and other.link is not None:
                other.link.close()
        self.candidates[peer] = [candidate]
        self.links[peer] = candidate.link
        if peer != HOST:
            self.invites[int(peer.removeprefix("seat-"))].status = "connected"
        else:
            self.join["status"] = "connected"
            self.joining = False
        self.session.opened(peer, now())
        self.after()

    def link_closed(self, candidate: Candidate) -> None:
        peer = candidate.peer
        if self.links.get(peer) is candidate.link:
            self.session.closed(peer, now())
        elif not candidate.open and peer != HOST:
            invite = self.invites.get(int(peer.removeprefix("seat-")))
            if invite is not None and invite.status in ("waiting", "connecting"):
                invite.status = "failed"
                invite.error = "The connection could not be made. Make a new invite."
        elif peer == HOST and not candidate.open:
            self.join["status"] = "failed"
        self.after()

    def after(self, redraw: bool = False) -> None:
        """After anything: send what the session has to say, save, redraw if it changed."""
        for peer, text in self.session.take_outbox():
            link = self.links.get(peer)
            if link is not None:
                link.send(text)
        if self.play is not None and self.play.table is not self.session.table:
            self.play, self.notes = None, {}  # another game began ("Play again")
        if self.play is None and self.session.table is not None:
            self.played = True
            self.play = PlaySession(
                self.session.table, app.screen_for(self.session.game.id), self.session
            )
            self.play.notes = self.notes
            self.play.banner = lambda: online_banner(self.session, self.invites)
        self.save()
        if redraw or self.session.revision != self.drawn:
            self.draw()

    def tick(self) -> None:
        if self.passive:
            return
        self.session.tick(now())
        self.after(redraw=bar_notice(self.session) != self.shown_notice)  # a notice expired

    def save(self) -> None:
        key = self.save_key()
        if key is None or self.passive:
            return  # a guest not yet welcomed has nothing to keep
        if key != self.owned:  # the newest tab to open a game plays it
            window.localStorage.setItem(key + OWNER, TAB)
            self.owned = key
        elif value(window.localStorage.getItem(key + OWNER)) != TAB:
            self.let_go()
            return
        data = {"session": self.session.to_json(), "notes": self.play.notes if self.play else {}}
        remember(key)
        window.localStorage.setItem(key, json.dumps(data))
        app.mark_online_resumable()

    def save_key(self) -> str | None:
        """One save per game and seat: tabs of one browser (which share storage) playing one
        game together keep apart, and each tab finds its own after a reload."""
        config = self.session.config
        if config is None:
            return None
        seats = ",".join(str(s) for s in self.session.local)
        return f"{SAVE}:{config.match_id}:{self.session.role}:{seats}"

    def let_go(self) -> None:
        """Another tab of this browser took this game over: close the links, stop saving."""
        self.passive = True
        for candidates in self.candidates.values():
            for candidate in candidates:
                if candidate.link is not None:
                    candidate.link.close()
        self.candidates.clear()
        self.links.clear()
        self.draw()

    # -- drawing -------------------------------------------------------------------------

    def draw(self) -> None:
        self.drawn = self.session.revision
        root = _root()
        if self.passive:
            dom.render(root, elsewhere_tree())
            return
        self.shown_notice = bar_notice(self.session)
        if self.session.phase is Phase.FORFEIT:
            dom.render(root, forfeit_tree(self.session))
            return
        if self.play is not None and not self.joining:
            self.play.refresh()
            dom.render(root, self.play.render())
            app.scroll_log(root)
            return
        if self.played and not self.joining:
            dom.render(root, next_game_tree(self.session))
        elif self.session.is_host:
            dom.render(root, host_lobby(self.session, self.invites))
        else:
            j = self.join
            dom.render(
                root,
                guest_join(
                    self.session,
                    j["answer"],
                    j["status"],
                    j["error"],
                    tab=j["tab"],
                    decks=_deck_choices(),
                    deck=_chosen_deck(),
                    game=j["game"],
                ),
            )

    # -- the host's invites --------------------------------------------------------------

    def invite_all(self) -> None:
        for link in self.session.links.values():
            if link.state != "connected":
                spawn(self.make_invite(link.seats[0]))

    async def make_invite(self, seat: int) -> None:
        peer = seat_peer(seat)
        for old in self.candidates.pop(peer, []):
            if old.link is not None:
                old.link.close()
        invite = Invite(seat)
        self.invites[seat] = invite
        self.draw()
        rtc = Candidate(self, peer, "rtc")
        room = new_room()
        tab = Candidate(self, peer, "tab")
        tab.link = TabLink(peer, tab, room, hosting=True)
        self.candidates[peer] = [rtc, tab]
        try:
            rtc.link = RtcLink(peer, rtc, self.stun)
            code = await rtc.link.offer()
        except Exception:  # the browser refused: say so, offer again
            invite.status = "failed"
            invite.error = "This browser could not make an invite (is WebRTC turned off?)."
            self.draw()
            return
        base, game = str(window.location.href), self.session.config.game
        invite.link = invite_link(base, code, game, tuple(self.stun))
        invite.tab_link = invite_link(base, f"bc.{room}", game)
        invite.status = "waiting"
        self.draw()

    async def accept(self, seat: int, code: str) -> None:
        invite = self.invites.get(seat)
        rtc = next((c for c in self.candidates.get(seat_peer(seat), []) if c.kind == "rtc"), None)
        if invite is None or rtc is None:
            return
        try:
            await rtc.link.accept(code)
        except ParlourError as error:
            invite.error = error.sentence
        except Exception:
            invite.error = "That answer does not fit this invite: make a new invite and try again."
        else:
            invite.error = ""
            if invite.status == "waiting":  # the channel may have opened already: keep that
                invite.status = "connecting"
        self.draw()

    # -- the guest's side ----------------------------------------------------------------

    async def answer(self, code: str, stun: list[str], game: str = "") -> None:
        self.joining = True
        self.join.update(answer="", status="waiting", error="", tab=False, game=game)
        for old in self.candidates.pop(HOST, []):
            if old.link is not None:
                old.link.close()
        if not code:  # "I have an invite" on the home screen: ask for it
            self.join["status"] = "paste"
            self.draw()
            return
        candidate = Candidate(self, HOST, "tab" if code.startswith("bc.") else "rtc")
        self.candidates[HOST] = [candidate]
        if candidate.kind == "tab":
            self.join.update(status="connecting", tab=True)
            candidate.link = TabLink(HOST, candidate, code.removeprefix("bc."), hosting=False)
            self.draw()
            return
        try:
            stun = stun_servers(stun)
        except MalformedInput:
            self.join.update(
                error="This invite names a STUN server that cannot be used: ask the host to "
                "correct it in the set-up and send a new invite.",
                status="failed",
            )
            self.draw()
            return
        self.draw()
        try:
            candidate.link = RtcLink(HOST, candidate, stun or self.stun)
            self.join["answer"] = await candidate.link.answer(code)
        except ParlourError as error:
            self.join.update(error=error.sentence, status="failed")
        except Exception:
            self.join.update(error="This invite could not be opened.", status="failed")
        self.draw()

    def play_again(self) -> None:
        try:
            self.session.rematch(new_match_id(), now())
        except ParlourError as error:
            if self.play is not None:
                self.play.message = error.sentence
            self.draw()
            return
        self.after(redraw=True)

    # -- clicks --------------------------------------------------------------------------

    def click(self, data: dict) -> None:
        cmd = data.get("cmd")
        fields = data.get("fields", {})
        if cmd == "play-again":
            self.play_again()
            return
        if cmd == "accept-answer" and data.get("seat", "").isdigit():
            seat = int(data["seat"])
            pasted, _, _ = parse_invite(fields.get(f"answer-{seat}", ""))  # a link pasted too
            spawn(self.accept(seat, pasted))
            return
        if cmd == "new-invite" and data.get("seat", "").isdigit():
            spawn(self.make_invite(int(data["seat"])))
            return
        if cmd == "use-invite":
            code, stun, game = parse_invite(fields.get("invite", ""))
            spawn(self.answer(code, stun, game))
            return
        if self.play is not None:
            self.play.handle(data)
            self.after(redraw=True)


# -- the page's entry points ------------------------------------------------------------------


def _deck_choices() -> list[tuple[str, str]]:
    from parlour.ui.espeers_decks import deck_choices, saved_decks

    return deck_choices(saved_decks(app.saved_decks_raw()))


def _chosen_deck() -> str:
    select = value(document.querySelector("#online [data-field=espeers-deck]"))
    return str(select.value) if select is not None else ""


def _guest_choices() -> dict:
    """What the guest chose on the join screen for dealing: an ESPEERS deck."""
    select = value(document.querySelector("#online [data-field=espeers-deck]"))
    if select is None:
        return {}
    from parlour.ui.espeers_decks import resolve_choice, saved_decks

    choice = resolve_choice(_chosen_deck(), saved_decks(app.saved_decks_raw()))
    return {"deck": choice} if choice is not None else {}


def _stun_setting() -> list[str]:
    raw = value(window.localStorage.getItem(STUN))
    try:
        return stun_servers(str(raw).split(",")) if raw is not None else []
    except MalformedInput:  # saved by an older page that did not check
        return []


COPIED, SELECTED = "Copied ✓", "Selected: copy it"


async def _copy(button, text: str) -> None:
    """Copy a code and say so on its button. Where the page may not write to the clipboard
    (plain http on a LAN is no secure context), the text is left selected in its box instead,
    for the player to copy."""
    box = value(button.parentElement.querySelector("input"))
    if box is not None:
        box.select()
    try:
        await window.navigator.clipboard.writeText(text)
        words = COPIED
    except Exception:  # no clipboard here, or no permission
        words = SELECTED
    button.textContent = words
    await asyncio.sleep(2.5)
    button.textContent = "Copy"


def _start_ticking() -> None:
    """The heartbeat: twice a second, from the first online game of this page on."""
    global _ticker
    if _ticker is None:
        _ticker = create_proxy(lambda: controller.tick() if controller else None)
        window.setInterval(_ticker, TICK_MS)


def on_click(event) -> None:
    element = value(event.target.closest("[data-cmd],[data-cell]"))
    if controller is None or element is None or element.hasAttribute("disabled"):
        return
    if controller.passive:
        if str(element.getAttribute("data-cmd")) == "take-over":
            take_over()
        return
    copy = value(element.getAttribute("data-copy"))
    if copy is not None:
        spawn(_copy(element, str(copy)))
        return
    controller.click({**app.event_data(element), "fields": app.fields_of(_root())})


def on_key(event) -> None:
    if controller is None or controller.play is None or controller.passive:
        return
    app.on_key(event, _root(), controller.click)


def host_new(game_id: str) -> None:
    """The set-up form's "Make the invites": a new online game hosted here."""
    global controller
    form = document.getElementById(f"new-{game_id}")
    names = app.setup_names(game_id)
    variant = app.setup_variant(game_id)
    local = tuple(
        int(box.getAttribute("data-here-seat"))
        for box in form.querySelectorAll("input[data-here-seat]:checked")
        if int(box.getAttribute("data-here-seat")) < len(names)
    )
    limit_field = value(form.querySelector("select[data-online-limit]"))
    limit = int(limit_field.value) if limit_field is not None else 120
    stun_field = value(form.querySelector("input[data-stun]"))
    if stun_field is not None:
        try:
            stun = stun_servers(str(stun_field.value).split(","))
        except MalformedInput as problem:
            _refuse_setup(game_id, problem.sentence)
            return
        window.localStorage.setItem(STUN, ",".join(stun))
    private = {}
    if game_id == "espeers":  # every player brings a deck the other does not see
        chosen = variant.get("decks", [])
        private = {seat: {"deck": chosen[seat]} for seat in local if seat < len(chosen)}
        variant["decks"] = ["sealed", "sealed"]
    config = MatchConfig(game_id, new_match_id(), names, variant)
    try:
        session = OnlineSession.host(
            GAMES[game_id], config, local, now(), reveal_limit=limit, private=private
        )
    except ParlourError as problem:
        _refuse_setup(game_id, problem.sentence)
        return
    _refuse_setup(game_id, "")  # nothing wrong: clear an earlier sentence
    _replace(Controller(session))
    controller.invite_all()
    controller.after()
    app.go("#online")


def _refuse_setup(game_id: str, sentence: str) -> None:
    """Say under the set-up form's online part why no invites were made (or clear it)."""
    error = value(document.querySelector(f"#new-{game_id} [data-role=online-error]"))
    if error is not None:
        error.textContent = sentence
    if sentence:
        app.go(f"#new-{game_id}")


def guest_new(fragment: str) -> None:
    """An invite opened: `#join=<code>` (WebRTC) or `#join=bc.<room>` (another tab)."""
    code, stun, game = parse_invite(fragment)
    if controller is None or controller.session.is_host:
        saved = _saved()
        if saved is not None and not saved[0].is_host:
            _replace(Controller(saved[0]), saved[1])
        else:
            _replace(Controller(OnlineSession.guest(now())))
    spawn(controller.answer(code, stun, game))
    app.go("#online")


def show() -> None:
    """`#online`: the game in progress here, or the one saved before a reload."""
    global controller
    if controller is None:
        saved = _saved()
        if saved is None:
            app.go("#home")
            return
        session, notes = saved
        _replace(Controller(session), notes)
        if session.is_host and session.phase in (Phase.LOBBY, Phase.SEED, Phase.PLAY):
            controller.invite_all()
    controller.after(redraw=True)


def take_over() -> None:
    """ "Play it here instead": this tab takes its game back from the tab that has it, from
    what that tab saved; the other tab lets go at its next save."""
    global controller
    key = controller.owned if controller is not None else None
    if key is not None:
        window.sessionStorage.setItem(TAB_KEY, key)
    controller = None
    show()


def _saved() -> tuple[OnlineSession, dict] | None:
    """The online game saved in this browser, with the seat's private notes; None if none."""
    key = value(window.sessionStorage.getItem(TAB_KEY)) or value(
        window.localStorage.getItem(LAST_KEY)
    )
    raw = value(window.localStorage.getItem(str(key))) if key is not None else None
    if raw is None:
        return None
    try:
        data = json.loads(str(raw))
        session = OnlineSession.from_json(data["session"], now())
        notes = {int(k): v for k, v in data.get("notes", {}).items() if isinstance(v, dict)}
    except (ParlourError, ValueError, TypeError, KeyError, AttributeError):
        window.localStorage.removeItem(str(key))
        return None
    return session, notes


def _replace(new: Controller, notes: dict | None = None) -> None:
    global controller
    if controller is not None:
        for candidates in controller.candidates.values():
            for candidate in candidates:
                if candidate.link is not None:
                    candidate.link.close()
    controller = new
    new.notes = notes or {}
    _start_ticking()
