"""Online play's links (pure): the candidates for each seat's connection, the host's invites and
the guest's answer, as `OnlineController` (online/app.py) makes and hears of them.

The links themselves live on the main thread, named by an id: these methods ask for them as
effects ("make an offer on link L3") and take in what the page says they did ("L3 opened",
"the offer of L3 is made"). A mixin of `OnlineController`; what it uses of it is declared below.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, Protocol

from parlour.errors import MalformedInput, ParlourError
from parlour.match.online import HOST, OnlineSession, seat_peer
from parlour.net.sdp import ANSWER, OFFER, compress, expand, invite_link, stun_servers
from parlour.ui.espeers.shelf import guest_choices, guest_decks
from parlour.ui.host import Host
from parlour.ui.online.screen import Invite

# what still works where the browser refuses a direct connection (WebRTC off)
BY_LINK = "Playing by link needs no direct connection: choose it in a game's set-up."


class Candidate:
    """One way a remote seat may connect (its WebRTC invite or its tab invite), a link on the
    main thread named `id`: the first that opens becomes that seat's link, the other closes."""

    def __init__(self, peer: str, kind: str, link_id: str) -> None:
        self.peer, self.kind, self.id = peer, kind, link_id
        self.open = False


class DeckHost(Host, Protocol):
    """The app as online play sees it (online/app.py's `TheApp` asks more): a part's view, and
    the ESPEERS decks saved in this browser, which a guest may bring."""

    def saved_decks_raw(self) -> object: ...


class Connecting:
    """A seat's candidates and links, the host's invites, the guest's answer."""

    app: DeckHost
    session: OnlineSession
    links: dict[str, Candidate]  # peer -> the candidate in use
    candidates: dict[str, list[Candidate]]
    invites: dict[int, Invite]
    join: dict[str, Any]  # the guest's join screen: its answer code, status, error, name
    joining: bool
    passive: bool
    stun: tuple[str, ...] | list[str]
    after: Callable[..., None]  # the controller's: send, save and redraw after anything
    draw: Callable[[], None]
    clock: Callable[[], float]  # the controller's clock (online/app.py's `now`, which tests move)

    @property
    def effects(self) -> Any:
        return self.app.effects

    def _game(self) -> str:
        """The host's game, named in its invites (a host's session has its set-up)."""
        config = self.session.config
        return config.game if config is not None else ""

    # -- links on the main thread -----------------------------------------------------------

    def new_candidate(self, peer: str, kind: str) -> Candidate:
        candidate = Candidate(peer, kind, "L" + secrets.token_hex(4))
        self.candidates.setdefault(peer, []).append(candidate)
        return candidate

    def close(self, candidate: Candidate) -> None:
        self.effects.links.append({"do": "close", "link": candidate.id})

    def find(self, link_id: object) -> Candidate | None:
        for candidates in self.candidates.values():
            for candidate in candidates:
                if candidate.id == link_id:
                    return candidate
        return None

    def on_link(self, event: dict[str, Any]) -> None:
        """What a link on the main thread did: opened, received, closed, or finished making
        an offer, an answer or taking an answer (or failed to)."""
        if self.passive:
            return
        candidate = self.find(event.get("link"))
        if candidate is None:
            return
        kind = event.get("event")
        if kind == "opened":
            self.opened(candidate)
        elif kind == "received" and isinstance(event.get("text"), str):
            self.received(candidate, event["text"])
        elif kind == "closed":
            self.link_closed(candidate)
        elif kind == "offered":
            self.offered(candidate, str(event.get("sdp", "")))
        elif kind == "answered":
            self.answered(str(event.get("sdp", "")))
        elif kind == "accepted":
            self.accepted(candidate)
        elif kind == "failed":
            self.failed(candidate, str(event.get("stage", "")))

    def opened(self, candidate: Candidate) -> None:
        if candidate.open:
            return  # once: opening again would restart the numbering mid-conversation
        candidate.open = True
        peer = candidate.peer
        for other in self.candidates.get(peer, []):
            if other is not candidate:
                self.close(other)
        self.candidates[peer] = [candidate]
        self.links[peer] = candidate
        if peer != HOST:
            self.invites[int(peer.removeprefix("seat-"))].status = "connected"
        else:
            self.join["status"] = "connected"
            self.joining = False
            self.session.guest_name = self.join.get("name", "")  # said in the hello
        self.session.opened(peer, self.clock())
        self.after()

    def received(self, candidate: Candidate, text: str) -> None:
        if not candidate.open and candidate in self.candidates.get(candidate.peer, []):
            # A message can be dispatched before the channel's open event: the channel is open
            # all the same, and dropping this one would lose a guest's hello (no welcome, ever).
            self.opened(candidate)
        if self.links.get(candidate.peer) is candidate:
            if self.session.config is None:  # the deck on the join screen goes with us
                deck = (
                    self.join.get("deck")
                    or next(iter(guest_decks(self.app.saved_decks_raw())), ("", ""))[0]
                )
                self.session.guest_choices = guest_choices(self.app.saved_decks_raw(), deck)
            self.session.receive(candidate.peer, text, self.clock())
            self.after()

    def link_closed(self, candidate: Candidate) -> None:
        peer = candidate.peer
        if self.links.get(peer) is candidate:
            self.session.closed(peer, self.clock())
        elif not candidate.open and peer != HOST:
            invite = self.invites.get(int(peer.removeprefix("seat-")))
            if invite is not None and invite.status in ("waiting", "connecting"):
                if invite.accepted_at is not None:  # both codes were in: no route between
                    invite.status = "no-route"
                else:
                    invite.status = "failed"
                    invite.error = "The connection could not be made. Make a new invite."
        elif peer == HOST and not candidate.open:
            self.join["status"] = "no-route" if candidate.kind == "rtc" else "failed"
        self.after(redraw=True)  # an invite's or the join's state is drawn, not the session's

    # -- the host's invites --------------------------------------------------------------

    def invite_all(self) -> None:
        for link in self.session.links.values():
            if link.state != "connected":
                self.make_invite(link.seats[0])

    def make_invite(self, seat: int) -> None:
        """Two candidates for the seat: a WebRTC offer (made on the main thread, which says
        when the code is ready) and a tab invite (a BroadcastChannel room, ready at once)."""
        peer = seat_peer(seat)
        for old in self.candidates.pop(peer, []):
            self.close(old)
        self.invites[seat] = invite = Invite(seat)
        rtc = self.new_candidate(peer, "rtc")
        tab = self.new_candidate(peer, "tab")
        room = secrets.token_hex(8)
        self.effects.links.append({"do": "tab", "link": tab.id, "room": room, "hosting": True})
        self.effects.links.append({"do": "rtc-offer", "link": rtc.id, "stun": list(self.stun)})
        invite.tab_link = invite_link(self.app.href, f"bc.{room}", self._game())
        self.draw()

    def offered(self, candidate: Candidate, sdp: str) -> None:
        seat = int(candidate.peer.removeprefix("seat-"))
        invite = self.invites.get(seat)
        if invite is None or self.find(candidate.id) is None:
            return
        code = compress(sdp, OFFER)
        invite.link = invite_link(self.app.href, code, self._game(), tuple(self.stun))
        if invite.status == "making":
            invite.status = "waiting"
        self.draw()

    def failed(self, candidate: Candidate, stage: str) -> None:
        if candidate.peer == HOST:  # the guest's answer, or its tab link, refused
            error = "This invite could not be opened: this browser refused to connect"
            why = " to other tabs." if stage == "tab" else f" (is WebRTC turned off?). {BY_LINK}"
            self.join.update(error=error + why, status="failed")
        else:
            invite = self.invites.get(int(candidate.peer.removeprefix("seat-")))
            if invite is None:
                return
            if stage == "tab":  # this browser keeps its tabs apart: the invite link goes on
                invite.tab_link = ""
            elif stage == "accept":
                invite.error = (
                    "That answer does not fit this invite: make a new invite and try again."
                )
            else:
                invite.status = "failed"
                invite.error = (
                    f"This browser could not make an invite (is WebRTC turned off?). {BY_LINK}"
                )
        self.draw()

    def accept(self, seat: int, code: str) -> None:
        invite = self.invites.get(seat)
        rtc = next((c for c in self.candidates.get(seat_peer(seat), []) if c.kind == "rtc"), None)
        if invite is None or rtc is None:
            return
        try:
            sdp = expand(code, ANSWER)
        except ParlourError as error:
            invite.error = error.sentence
            self.draw()
            return
        self.effects.links.append({"do": "rtc-accept", "link": rtc.id, "sdp": sdp})

    def accepted(self, candidate: Candidate) -> None:
        invite = self.invites.get(int(candidate.peer.removeprefix("seat-")))
        if invite is None:
            return
        invite.error = ""
        if invite.status == "waiting":  # the channel may have opened already: keep that
            invite.status = "connecting"
            invite.accepted_at = self.clock()
        self.draw()

    # -- the guest's side ----------------------------------------------------------------

    def answer(self, code: str, stun: list[str], game: str = "") -> None:
        self.joining = True
        self.join.update(answer="", status="waiting", error="", tab=False, game=game)
        for old in self.candidates.pop(HOST, []):
            self.close(old)
        if not code:  # "I have an invite" on the home screen: ask for it
            self.join["status"] = "paste"
            self.draw()
            return
        if code.startswith("bc."):
            candidate = self.new_candidate(HOST, "tab")
            self.join.update(status="connecting", tab=True)
            room = code.removeprefix("bc.")
            self.effects.links.append(
                {"do": "tab", "link": candidate.id, "room": room, "hosting": False}
            )
            self.draw()
            return
        try:
            stun = stun_servers(stun)
            sdp = expand(code, OFFER)
        except MalformedInput as problem:
            broken_stun = "STUN" in problem.sentence
            self.join.update(
                error="This invite names a STUN server that cannot be used: ask the host to "
                "correct it in the set-up and send a new invite."
                if broken_stun
                else problem.sentence,
                status="failed",
            )
            self.draw()
            return
        candidate = self.new_candidate(HOST, "rtc")
        self.effects.links.append(
            {"do": "rtc-answer", "link": candidate.id, "sdp": sdp, "stun": stun or self.stun}
        )
        self.draw()

    def answered(self, sdp: str) -> None:
        self.join["answer"] = compress(sdp, ANSWER)
        self.draw()
