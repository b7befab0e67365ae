"""BroadcastChannel links (browser only): online play between tabs of one browser, no network.

A tab invite names a room; the host's tab and the guest's tab meet on a BroadcastChannel of that
name and greet each other once (so a third tab opening the same invite is ignored). Then each
side posts the same text messages WebRTC would carry, and reports through the same three calls.
A tab that closes says goodbye; a tab that dies without a word is noticed by the heartbeat.
"""

from __future__ import annotations

import json
import secrets

from pyscript import window
from pyscript.ffi import create_proxy

PREFIX = "psi-parlour:"


def new_room() -> str:
    return secrets.token_hex(8)


class TabLink:
    def __init__(self, peer: str, events, room: str, hosting: bool) -> None:
        self.peer = peer
        self.events = events
        self.hosting = hosting
        self.me = secrets.token_hex(6)
        self.other: str | None = None
        self.channel = window.BroadcastChannel.new(PREFIX + room)
        self._proxy = create_proxy(self._on_message)
        self.channel.onmessage = self._proxy
        if not hosting:
            self._post("hello")

    def _post(self, kind: str, text: str = "") -> None:
        self.channel.postMessage(
            json.dumps({"kind": kind, "from": self.me, "to": self.other, "text": text})
        )

    def _on_message(self, event) -> None:
        try:
            data = json.loads(str(event.data))
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        kind, sender = data.get("kind"), data.get("from")
        if kind == "hello" and self.hosting and self.other in (None, sender):
            self.other = sender
            self._post("welcome")
            self.events.opened(self.peer)
        elif kind == "welcome" and not self.hosting and data.get("to") == self.me:
            self.other = sender
            self.events.opened(self.peer)
        elif sender == self.other and data.get("to") == self.me:
            if kind == "msg" and isinstance(data.get("text"), str):
                self.events.received(self.peer, data["text"])
            elif kind == "bye":
                self.events.closed(self.peer)

    def send(self, text: str) -> None:
        if self.other is not None:
            self._post("msg", text)

    def close(self) -> None:
        if self.other is not None:
            self._post("bye")
        self.channel.close()
        self._proxy.destroy()
