"""WebRTC data channels (browser only): one peer connection and one ordered channel per guest.

Signalling is by hand: the host's offer and the guest's answer travel as short codes
(`net.sdp`). ICE gathering waits at most `GATHER_SECONDS` (with no STUN server it takes about a
tenth of a second; an unreachable STUN server could hold it for 40 s), then the code is made from
the candidates found so far. The link reports to `events`: `opened(peer)`, `received(peer,
text)`, `closed(peer)`, the same three calls every transport makes.
"""

from __future__ import annotations

import asyncio

from pyscript import window
from pyscript.ffi import create_proxy, to_js

from parlour.net.sdp import ANSWER, OFFER, compress, expand

GATHER_SECONDS = 3.0
CHANNEL = "psi-parlour"


class RtcLink:
    def __init__(self, peer: str, events, stun: list[str]) -> None:
        self.peer = peer
        self.events = events
        servers = [{"urls": f"stun:{url.removeprefix('stun:')}"} for url in stun if url]
        self.pc = window.RTCPeerConnection.new(to_js({"iceServers": servers}))
        self.channel = None
        self._proxies: list = []
        self._closed = False
        self.pc.onconnectionstatechange = self._proxy(self._on_state)

    def _proxy(self, handler):
        proxy = create_proxy(handler)
        self._proxies.append(proxy)
        return proxy

    def _bind(self, channel) -> None:
        self.channel = channel
        channel.onopen = self._proxy(lambda _e: self.events.opened(self.peer))
        channel.onmessage = self._proxy(lambda e: self.events.received(self.peer, e.data))
        channel.onclose = self._proxy(lambda _e: self._lost())

    def _on_state(self, _event) -> None:
        if str(self.pc.connectionState) in ("failed", "closed"):
            self._lost()

    def _lost(self) -> None:
        if not self._closed:
            self._closed = True
            self.events.closed(self.peer)

    async def _gathered(self) -> None:
        waited = 0.0
        while str(self.pc.iceGatheringState) != "complete" and waited < GATHER_SECONDS:
            await asyncio.sleep(0.05)
            waited += 0.05

    async def offer(self) -> str:
        """The host's side: a channel, an offer, the candidates: the invite code."""
        self._bind(self.pc.createDataChannel(CHANNEL, to_js({"ordered": True})))
        await self.pc.setLocalDescription(await self.pc.createOffer())
        await self._gathered()
        return compress(str(self.pc.localDescription.sdp), OFFER)

    async def accept(self, answer_code: str) -> None:
        """The host pastes the guest's answer (a bad code raises MalformedInput first)."""
        sdp = expand(answer_code, ANSWER)
        await self.pc.setRemoteDescription(to_js({"type": "answer", "sdp": sdp}))

    async def answer(self, offer_code: str) -> str:
        """The guest's side: take the invite, make the answer code to send back."""
        sdp = expand(offer_code, OFFER)
        self.pc.ondatachannel = self._proxy(lambda e: self._bind(e.channel))
        await self.pc.setRemoteDescription(to_js({"type": "offer", "sdp": sdp}))
        await self.pc.setLocalDescription(await self.pc.createAnswer())
        await self._gathered()
        return compress(str(self.pc.localDescription.sdp), ANSWER)

    def send(self, text: str) -> None:
        if self.channel is not None and str(self.channel.readyState) == "open":
            self.channel.send(text)

    def close(self) -> None:
        """Close for good. The handlers go first: the channel's close event comes later, and
        would call a proxy that is destroyed by then (an uncaught error in the page)."""
        self._closed = True
        if self.channel is not None:
            self.channel.onopen = self.channel.onmessage = self.channel.onclose = None
            self.channel.close()
        self.pc.onconnectionstatechange = self.pc.ondatachannel = None
        self.pc.close()
        for proxy in self._proxies:
            proxy.destroy()
        self._proxies.clear()
