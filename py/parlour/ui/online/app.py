"""Online play, as the worker runs it (pure): invites, joining, links, the heartbeat, saving.

The pure `OnlineSession` decides everything about the game; this module carries text between it
and the page's links. The links themselves (a WebRTC data channel, which exists only on the
main thread, or a BroadcastChannel) live on the main thread, named by an id: this module asks
for them as effects ("make an offer on link L3", "send this on L3") and hears of them as
requests ("L3 opened", "L3 received ...", "the offer of L3 is made"). It ticks the session twice
a second (the page's timer), saves it after every change, and draws the lobby, the join screen
or the game in `#online`.

The app (app.py) imports this module on first use and hands it itself; this module never
imports the app: what it uses of it is written down as `TheApp`, and what both share (each
game's screen, the bots' pause, the clock) comes from screens.py.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from parlour.errors import ParlourError
from parlour.match.config import person_name
from parlour.match.online import OnlineSession, Phase
from parlour.match.online.device import Crypto
from parlour.match.table import new_match_id
from parlour.net.sdp import parse_invite
from parlour.ui import pace, setup_form
from parlour.ui.espeers.shelf import guest_decks
from parlour.ui.online import network
from parlour.ui.online.carry import lost_for_long
from parlour.ui.online.connecting import Candidate, Connecting, DeckHost
from parlour.ui.online.invites import host_lobby, online_banner
from parlour.ui.online.join import guest_join
from parlour.ui.online.saves import (
    ONLINE_SAVE,
    OWNER,
    TAB_KEY,
    UNKEPT_KEY,
    Keyring,
    forget_save,
    remember,
    saved_game,
    this_tab,
)
from parlour.ui.online.screen import (
    Invite,
    bar_notice,
    elsewhere_tree,
    forfeit_tree,
    next_game_tree,
)
from parlour.ui.page import within
from parlour.ui.play import PlaySession
from parlour.ui.screens import now, screen_for
from parlour.ui.setup_form import SetUp

ROOT = "#online .online-root"
PLAYER_NAME = "psi-parlour:player-name"  # the name a guest last chose on a join screen

# Once the host's browser has the answer code, two devices that can reach each other connect
# within a second or two; after this long they are told there is no route, and offered play
# by link (the browser itself gives up only after about 15 s more, or never says so).
NO_ROUTE_SECONDS = 10.0


class TheApp(DeckHost, Protocol):
    """What online play (and play by link) uses of the app beyond any part's (app.App, which
    hands itself to this module)."""

    online: OnlineController | None
    keyring: Keyring | None

    def links(self) -> Any: ...

    def chosen_decks(self, choices: list[tuple[str, str]]) -> list[Any]: ...


class OnlineController(Connecting):
    """Online play on this device: the session's messages carried, saved, drawn and clicked
    (its links and invites: `Connecting`, connecting.py)."""

    app: TheApp

    def __init__(self, app: TheApp, session: OnlineSession) -> None:
        self.app = app
        self.session = session
        if app.keyring is not None:  # "Play again": a new match signs with a new key pair
            session.key_maker = app.keyring.fresh
        self.links: dict[str, Candidate] = {}  # peer -> the candidate in use
        self.candidates: dict[str, list[Candidate]] = {}
        self.invites: dict[int, Invite] = {}
        self.join: dict[str, Any] = {
            "answer": "",
            "status": "waiting",
            "error": "",
            "tab": False,
            "game": "",
            "name": app.storage.get(PLAYER_NAME) or "",  # the guest's own, as last typed
        }
        self.play: PlaySession | None = None
        self.notes: dict[int, dict] = {}
        self.drawn = -1
        self.stun = network.servers_stored(app.storage)
        self.setup: SetUp | None = None  # the host's set-up, for "Play by link instead"
        self.joining = False  # a guest between opening an invite and being connected
        self.played = False  # a game was on screen: a new one in the making is "Play again"
        self.owned: str | None = None  # the save key this tab has claimed
        self.passive = False  # another tab took this game over: do nothing more
        self.shown_notice = ""  # the online bar's notice as last drawn
        self.shown_offer = False  # whether the bar offered "Carry on by link" when last drawn
        self.told_unkept = False  # said that this browser would not keep the game's key
        self.saved_mark: tuple[object, ...] | None = None  # what the last save written held

    def after(self, redraw: bool = False, signed: bool = False) -> None:
        """After anything: send what the session has to say, save, redraw if it changed. While
        records wait for the page to sign them (WebCrypto answers later), the save waits for
        the pass after signing (`signed`), which has them: one save per call, not two."""
        for peer, text in self.session.take_outbox():
            candidate = self.links.get(peer)
            if candidate is not None:
                self.effects.send.append([candidate.id, text])
        if self.play is not None and self.play.table is not self.session.table:
            self.play, self.notes = None, {}  # another game began ("Play again")
        if self.play is None and self.session.table is not None:
            self.played = True
            self.play = PlaySession(
                self.session.table, screen_for(self.session.game.id), self.session, self.app.href
            )
            self.play.notes = self.notes
            self.play.banner = lambda: online_banner(self.session, self.invites)
            self.effects.top = True  # the game opens at the page's top, once
        if signed or not any(r.signature is None for r in self.session.unsigned):
            self.save()  # (what waits is sent only with this call's last effects, saved first)
        if redraw or self.session.revision != self.drawn:
            self.draw()

    def clock(self) -> float:
        """The page's monotonic clock (`now`, which the tests move on)."""
        return now()

    def tick(self) -> None:
        if self.passive:
            return
        self.session.tick(now())
        routeless = self.no_route(now())
        offered = bool(lost_for_long(self.session))
        changed = bar_notice(self.session) != self.shown_notice or offered != self.shown_offer
        self.after(redraw=routeless or changed)

    def no_route(self, at: float) -> bool:
        """Invites whose answer the host took long enough ago without a connection: the two
        devices found no route (True if any is newly so)."""
        found = False
        for seat, invite in self.invites.items():
            since = invite.accepted_at
            late = since is not None and at - since >= NO_ROUTE_SECONDS
            here = self.session.link_states().get(str(seat)) == "connected"
            if invite.status == "connecting" and late and not here:
                invite.status, found = "no-route", True
        return found

    # -- saving: one tab plays a game at a time ----------------------------------------------

    def save(self) -> None:
        key = self.save_key()
        storage = self.app.storage
        if key is None or self.passive:
            return  # a guest not yet welcomed has nothing to keep
        if key != self.owned:  # the newest tab to open a game plays it
            storage.set(key + OWNER, this_tab())
            self.owned = key
        elif storage.get(key + OWNER) != this_tab():
            self.let_go()
            return
        notes = self.play.notes if self.play else {}
        mark = (key, self.session.save_mark(), json.dumps(notes, sort_keys=True))
        if mark == self.saved_mark and key not in storage.unsaved:
            return  # nothing a reload needs changed (a heartbeat, say): the save stands
        crypto = self.session.crypto
        if crypto is not None and self.app.keyring is not None:
            self._keep_key(key, self.app.keyring, crypto)
        data = {"session": self.session.to_json(), "notes": notes}
        remember(self.app, key)
        storage.set(key, json.dumps(data))
        self.saved_mark = mark

    def _keep_key(self, key: str, keyring: Keyring, crypto: Crypto) -> None:
        """Keep this game's key pair with its save; if this browser would not, say once that a
        reload cannot continue the game (it goes on here all the same)."""
        keyring.keep(key, crypto)
        if keyring.cannot_keep(key) and not self.told_unkept:
            self.told_unkept = True
            self.session.tell(UNKEPT_KEY)

    def save_key(self) -> str | None:
        """One save per game and seat: tabs of one browser (which share storage) playing one
        game together keep apart, and each tab finds its own after a reload."""
        config = self.session.config
        if config is None:
            return None
        seats = ",".join(str(s) for s in self.session.local)
        return f"{ONLINE_SAVE}:{config.match_id}:{self.session.role}:{seats}"

    def let_go(self) -> None:
        """Another tab of this browser took this game over: close the links, stop saving."""
        self.passive = True
        self.close_all()
        self.draw()

    def close_all(self) -> None:
        for candidates in self.candidates.values():
            for candidate in candidates:
                self.close(candidate)
        self.candidates.clear()
        self.links.clear()

    # -- drawing -------------------------------------------------------------------------

    def draw(self) -> None:
        self.drawn = self.session.revision
        if self.passive:
            self.effects.draw(ROOT, elsewhere_tree())
            return
        self.shown_notice = bar_notice(self.session)
        self.shown_offer = bool(lost_for_long(self.session))
        if self.session.phase is Phase.FORFEIT:
            self.effects.draw(ROOT, forfeit_tree(self.session))
            return
        if self.play is not None and not self.joining:
            self.play.refresh()
            self.effects.draw(ROOT, self.play.render())
            self.effects.announce(self.play.take_said())
            focus = self.play.take_focus()
            if focus:
                self.effects.focus = within(ROOT, focus)
            due = self.play.bot_due()
            self.effects.attrs["bot-due"] = "1" if due else None
            if due:
                step = self.session.table.match.step if self.session.table else -1
                request = {"op": "bot", "game": "online", "step": step}
                self.effects.later.append([pace.bot_pause(self.app.storage), request])
            return
        if self.played and not self.joining:
            self.effects.draw(ROOT, next_game_tree(self.session))
        elif self.session.is_host:
            self.effects.draw(ROOT, host_lobby(self.session, self.invites, self.stun))
        else:
            j = self.join
            self.effects.draw(
                ROOT,
                guest_join(
                    self.session,
                    j["answer"],
                    j["status"],
                    j["error"],
                    tab=j["tab"],
                    decks=guest_decks(self.app.saved_decks_raw()),
                    deck=j.get("deck", ""),
                    game=j["game"],
                    name=j.get("name", ""),
                ),
            )

    def by_link(self) -> None:
        """No route between the devices: the same game by link, from the same set-up (the
        form as the host filled it; after a reload, the set-up screen, where "Play by link" is
        one tap)."""
        game = self.session.config.game
        if self.setup is None:
            self.app.go(f"#new-{game}")
            return
        self.close_all()
        self.app.online = None
        self.effects.ticking = False
        self.app.links().create(game, self.setup)

    def carry_on(self) -> None:
        """The connection is lost for good: the same game goes on by link, from this move
        (match/by_link/carrying.py). The live save and its key go once the game by link is
        kept (the key is kept again under the game by link's name)."""
        refused = self.app.links().carry_on(self.session)
        if refused:
            self.session.tell(refused)
            self.draw()
            return
        key = self.save_key()
        self.close_all()
        self.app.online = None
        self.effects.ticking = False
        forget_save(self.app, key)

    def carry_join(self, texts: list[str]) -> None:
        """A guest pastes the host's carry link (opened in another browser, a chat's own): the
        same as opening it here."""
        refused = self.app.links().carry_join(texts, (self.session, self.save_key()))
        if refused:
            self.session.tell(refused)
            self.draw()
            return
        self.effects.ticking = False
        self.app.go("#bylink")

    def bot(self, step: object) -> None:
        """A bot seated here takes its turn (the host's device), asked for after the pause."""
        play, table = self.play, self.session.table
        if self.passive or play is None or table is None or step != table.match.step:
            return
        play.bot_move()
        self.after(redraw=True)

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

    def on_click(self, data: dict[str, Any]) -> None:
        if self.passive:
            if data.get("cmd") == "take-over":
                take_over(self.app)
            return
        self.click(data)

    def click(self, data: dict[str, Any]) -> None:
        cmd = data.get("cmd")
        fields = data.get("fields", {}) if isinstance(data.get("fields"), dict) else {}
        if "espeers-deck" in fields:  # the join screen's deck, read with every click
            self.join["deck"] = str(fields["espeers-deck"])
        if "guest-name" in fields:  # and the player's own name, kept for the next game too
            self.join["name"] = name = person_name(fields["guest-name"], "")
            self.app.storage.set(PLAYER_NAME, name)
        seat = setup_form.whole(data.get("seat"), -1)
        if cmd == "change":  # a field changed (the deck): nothing more to do
            return
        if cmd == "play-again":
            self.play_again()
        elif cmd == "accept-answer" and seat >= 0:
            pasted, _, _ = parse_invite(str(fields.get(f"answer-{seat}", "")))  # a link too
            self.accept(seat, pasted)
        elif cmd == "new-invite" and seat >= 0:
            self.make_invite(seat)
        elif cmd == "play-by-link" and self.session.is_host:
            self.by_link()
        elif cmd == "carry-on" and self.session.is_host:
            self.carry_on()
        elif cmd == "carry-join" and not self.session.is_host:
            self.carry_join(str(fields.get("carry-link", "")).split())
        elif cmd == "use-invite":
            code, stun, game = parse_invite(str(fields.get("invite", "")))
            self.answer(code, stun, game)
        elif cmd == "download-game" and self.play is not None:
            self.effects.download.append(self.play.game_file())
        elif self.play is not None:
            self.play.handle(data)
            self.after(redraw=True)


# -- the app's entry points ---------------------------------------------------------------------


def show(app: TheApp) -> None:
    """`#online`: the game in progress here, or the one saved before a reload."""
    if app.online is None:
        saved = saved_game(app)
        if saved is None:
            app.go("#home")
            return
        session, notes = saved
        replace_controller(app, OnlineController(app, session), notes)
        if session.is_host and session.phase in (Phase.LOBBY, Phase.SEED, Phase.PLAY):
            app.online.invite_all()
    app.online.after(redraw=True)


def take_over(app: TheApp) -> None:
    """ "Play it here instead": this tab takes its game back from the tab that has it, from
    what that tab saved; the other tab lets go at its next save."""
    key = app.online.owned if app.online is not None else None
    if key is not None:
        app.storage.set(TAB_KEY, key, area="session")
    app.online = None
    show(app)


def replace_controller(
    app: TheApp, new: OnlineController, notes: dict | None = None
) -> OnlineController:
    if app.online is not None:
        app.online.close_all()
    app.online = new
    new.notes = notes or {}
    app.effects.ticking = True
    return new
