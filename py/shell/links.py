"""The data channels of online play, on the main thread (RTCPeerConnection exists only here).

Each link has an id the worker chose. The worker asks for links and for texts to be sent on them
(effects); every link tells the worker what happens to it through `emit`, as plain data:
{"event": "opened" | "received" | "closed", "link": id, "text": ...}, and for WebRTC the
results of the steps that take time: "offered", "answered", "accepted" (with the SDP) or
"failed" (with the stage). Codes are made from SDP by the worker (`parlour.net.sdp`).

WebRTC: one peer connection and one ordered channel per guest. ICE gathering waits at most
GATHER_SECONDS (with no STUN server it takes about a tenth of a second; an unreachable one could
hold it for 40 s). BroadcastChannel: online play between tabs of one browser; the host's tab and
the guest's meet on a channel named after the invite's room and greet each other once.
"""

import asyncio
import json

from shell import env

GATHER_SECONDS = 3.0
CHANNEL = "psi-parlour"
PREFIX = "psi-parlour:"


class Refused(Exception):
    """The browser would not make a link (window.parlourLinks answered null: a JS throw would
    end main.py, as MicroPython cannot catch one)."""


def send(channel, text):
    """`text` out on a data channel or BroadcastChannel; False where the browser threw."""
    return env.window.parlourLinks.send(channel, text)


def token():
    return str(env.window.crypto.randomUUID())


class RtcLink:
    def __init__(self, link_id, emit, stun):
        self.id = link_id
        self.emit = emit
        servers = [{"urls": "stun:" + url.replace("stun:", "", 1)} for url in stun if url]
        self.pc = env.window.parlourLinks.connection(json.dumps({"iceServers": servers}))
        if self.pc is None:
            raise Refused("the browser refused a peer connection (is WebRTC off?)")
        self.channel = None
        self.closed = False
        self.pc.onconnectionstatechange = env.proxy(self._on_state)

    def _bind(self, channel):
        self.channel = channel
        channel.onopen = env.proxy(lambda _e: self._tell("opened"))
        channel.onmessage = env.proxy(lambda e: self._tell("received", text=str(e.data)))
        channel.onclose = env.proxy(lambda _e: self._lost())

    def _tell(self, event, **more):
        if not self.closed:
            self.emit(dict(event=event, link=self.id, **more))

    def _on_state(self, _event):
        if str(self.pc.connectionState) in ("failed", "closed"):
            self._lost()

    def _lost(self):
        if not self.closed:
            self._tell("closed")
            self.closed = True

    async def _gathered(self):
        waited = 0.0
        while str(self.pc.iceGatheringState) != "complete" and waited < GATHER_SECONDS:
            await asyncio.sleep(0.05)
            waited += 0.05

    async def offer(self):
        """The host's side: a channel, an offer, the candidates gathered: its SDP."""
        channel = env.window.parlourLinks.channel(self.pc, CHANNEL)
        if channel is None:
            raise Refused("the browser refused a data channel")
        self._bind(channel)
        await self.pc.setLocalDescription(await self.pc.createOffer())
        await self._gathered()
        self._tell("offered", sdp=str(self.pc.localDescription.sdp))

    async def accept(self, sdp):
        """The host takes the guest's answer."""
        description = env.window.JSON.parse(json.dumps({"type": "answer", "sdp": sdp}))
        await self.pc.setRemoteDescription(description)
        self._tell("accepted")

    async def answer(self, sdp):
        """The guest's side: take the offer, make the answer."""
        self.pc.ondatachannel = env.proxy(lambda e: self._bind(e.channel))
        description = env.window.JSON.parse(json.dumps({"type": "offer", "sdp": sdp}))
        await self.pc.setRemoteDescription(description)
        await self.pc.setLocalDescription(await self.pc.createAnswer())
        await self._gathered()
        self._tell("answered", sdp=str(self.pc.localDescription.sdp))

    def send(self, text):
        channel = self.channel
        if channel is not None and str(channel.readyState) == "open" and not send(channel, text):
            # an open channel refused the text (too large, or its queue full): what was said
            # is lost, so the link is too; closed at both ends, not left half open
            self._lost()
            self.close()

    def close(self):
        """Close for good; the handlers go first (a late close event must not reach us)."""
        self.closed = True
        if self.channel is not None:
            self.channel.onopen = self.channel.onmessage = self.channel.onclose = None
            self.channel.close()
        self.pc.onconnectionstatechange = self.pc.ondatachannel = None
        self.pc.close()


class TabLink:
    """A BroadcastChannel between two tabs of this browser, greeting each other once (so a
    third tab opening the same invite is ignored); a tab that closes says goodbye."""

    def __init__(self, link_id, emit, room, hosting):
        self.id = link_id
        self.emit = emit
        self.hosting = hosting
        self.me = token()
        self.other = None
        self.channel = env.window.parlourLinks.broadcast(PREFIX + room)
        if self.channel is None:
            raise Refused("the browser refused a channel between its tabs")
        self.channel.onmessage = env.proxy(self._on_message)
        if not hosting:
            self._post("hello")

    def _post(self, kind, text=""):
        message = {"kind": kind, "from": self.me, "to": self.other, "text": text}
        send(self.channel, json.dumps(message))

    def _on_message(self, event):
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
            self.emit({"event": "opened", "link": self.id})
        elif kind == "welcome" and not self.hosting and data.get("to") == self.me:
            self.other = sender
            self.emit({"event": "opened", "link": self.id})
        elif sender == self.other and data.get("to") == self.me:
            if kind == "msg" and isinstance(data.get("text"), str):
                self.emit({"event": "received", "link": self.id, "text": data["text"]})
            elif kind == "bye":
                self.emit({"event": "closed", "link": self.id})

    def send(self, text):
        if self.other is not None:
            self._post("msg", text)

    def close(self):
        if self.other is not None:
            self._post("bye")
        self.channel.onmessage = None
        self.channel.close()


class Links:
    """Every link of this page by id, run as the worker asks."""

    def __init__(self, emit):
        self.emit = emit
        self.links = {}

    def run(self, operation):
        """One link operation from the worker's effects."""
        do, link_id = operation.get("do"), operation.get("link")
        if do == "close":
            link = self.links.pop(link_id, None)
            if link is not None:
                link.close()
            return
        if do == "tab":
            link = self._tab(link_id, operation)
            if link is not None:
                self.links[link_id] = link
            return
        env.spawn(self._rtc(do, link_id, operation))

    def _tab(self, link_id, operation):
        """A tab link, or None where tabs cannot meet here (a channel refused, or no
        randomUUID outside a secure context): the worker hears it failed. The host then offers
        no tab invite, and its WebRTC invite, the other way in, goes on; a guest who opened a
        tab invite has no other, and is told why."""
        try:
            return TabLink(link_id, self.emit, operation["room"], operation["hosting"])
        except Exception:
            self.emit({"event": "failed", "link": link_id, "stage": "tab"})
            return None

    async def _rtc(self, do, link_id, operation):
        stage = {"rtc-offer": "offer", "rtc-answer": "answer", "rtc-accept": "accept"}.get(do)
        try:
            if do in ("rtc-offer", "rtc-answer"):
                link = RtcLink(link_id, self.emit, operation.get("stun", []))
                self.links[link_id] = link
                if do == "rtc-offer":
                    await link.offer()
                else:
                    await link.answer(operation["sdp"])
            elif do == "rtc-accept" and link_id in self.links:
                await self.links[link_id].accept(operation["sdp"])
        except Exception:  # the browser refused (WebRTC off, a bad description): say so
            self.emit({"event": "failed", "link": link_id, "stage": stage})

    def send(self, link_id, text):
        link = self.links.get(link_id)
        if link is not None:
            link.send(text)
