"""The connections: opened, lost, greeted; the heartbeat that notices a silent peer.

A transport tells the session that a connection to a peer `opened` or `closed`; this module
keeps each `Link`'s state and numbering, says `hello` on a guest's fresh connection (and again
if no welcome comes), pings a quiet peer, and calls a peer lost after `LOST_AFTER` seconds
without a word. Who is connected is the host's to say (`status`).
"""

from __future__ import annotations

from parlour.errors import ProtocolError
from parlour.fair.signing import DeviceKey
from parlour.match.online.device import HOST, Device, Link
from parlour.match.wire_bodies import Ping, Pong, Resume, Status

LOST_AFTER = 5.0  # seconds without a word from a peer: it is lost
PING_EVERY = 1.0
HELLO_AGAIN = 3.0  # seconds a guest waits for the welcome before greeting the host again


class Links(Device):
    """A session's connections, as the transport reports them, and the heartbeat on them."""

    # -- connections ---------------------------------------------------------------------

    def opened(self, peer: str, now: float) -> None:
        """The transport's connection to `peer` is open (a fresh one: numbering restarts)."""
        self.now = now
        link = self.links.get(peer)
        if link is None:
            return
        link.state, link.heard, link.n_in, link.n_out = "connected", now, 0, 0
        link.welcomed, link.opened = False, now
        for ack in [*self.acks.values(), *([self.my_ack] if self.my_ack else [])]:
            if ack.device != link.peer:  # a device that comes back hears them all again
                link.acks_due[ack.device] = ack
        self.revision += 1
        if not self.is_host:
            self._hello(link)

    def closed(self, peer: str, now: float) -> None:
        self.now = now
        link = self.links.get(peer)
        if link is not None and link.state == "connected":
            self._lose(link)

    def _lose(self, link: Link) -> None:
        link.state = "lost"
        self._notice(f"Lost the connection to {self._who(link)}.")
        if self.is_host:
            self._send_status()

    def _send_status(self) -> None:
        """The host tells every guest who is connected (signed play: and every device's key)."""
        body: dict[str, object] = {"links": self.link_states()}
        if self.signing:
            body["keys"] = self._keys_json()
        for link in self.links.values():
            self._emit(link, "status", body, None)

    def _keys_json(self) -> dict[str, object]:
        return {device: key.to_json() for device, key in sorted(self.keys.items())}

    def _hello(self, link: Link) -> None:
        link.hello_at = self.now
        key: dict[str, object] = (
            {"key": self._my_key().to_json()} if self.crypto is not None else {}
        )
        if self.guest_name:
            key["name"] = self.guest_name
        self._send(link, "hello", resume=self._resume(), **key)

    def _my_key(self) -> DeviceKey:
        assert self.crypto is not None
        return DeviceKey.of(self.crypto.signer)

    def _resume(self) -> Resume | None:
        """What a guest tells the host of its log, so a returning one gets only what it lacks."""
        if self.config is None or not self.local:
            return None
        match = self.match
        return {
            "match": self.config.match_id,
            "seat": self.local[0],
            "step": match.step if match else 0,
            "head": match.head() if match else "00" * 32,
        }

    # -- who is connected ----------------------------------------------------------------

    def _everyone_here(self) -> bool:
        if not self.is_host:
            return self.links[HOST].state == "connected"
        return all(link.state == "connected" for link in self.links.values())

    def seat_state(self, seat: int) -> str:
        """How `seat` is reached from this device: here, connected, invited or lost."""
        if seat in self.local:
            return "here"
        if self.is_host:
            return self.link_states().get(str(seat), "invited")
        host = self.links[HOST]
        if host.state != "connected":
            return host.state
        state = self.remote_links.get(str(seat), "invited")
        return "connected" if state == "here" else state  # the host's own seats

    def link_states(self) -> dict[str, str]:
        """Every seat's connection, as the host sees it: here, invited, connected or lost."""
        if not self.is_host:
            return dict(self.remote_links)
        states = {str(s): "here" for s in self.local}
        for link in self.links.values():
            states[str(link.seats[0])] = link.state
        return states

    def _on_status(self, link: Link, body: Status) -> None:
        if self.is_host:
            raise ProtocolError("Only the host reports who is connected.")
        if self.signing:
            self._take_keys(dict(body.get("keys", {})))
        self.remote_links = dict(body["links"])
        self.revision += 1

    # -- the heartbeat -------------------------------------------------------------------

    def _on_ping(self, link: Link, body: Ping) -> None:
        self._send(link, "pong", at=body["at"])

    def _on_pong(self, link: Link, body: Pong) -> None:
        """Nothing to do: hearing it (`receive` notes when) is what keeps the link alive."""

    def _heartbeat(self, now: float) -> None:
        """Lose a silent peer, greet again a host whose welcome has not come, ping a quiet one."""
        for link in self.links.values():
            if link.state != "connected":
                continue
            if now - link.heard > LOST_AFTER:
                self._lose(link)
            elif not self.is_host and not link.welcomed and now - link.hello_at >= HELLO_AGAIN:
                self._hello(link)  # no welcome yet: say hello again (the host answers any)
            elif now - link.sent >= PING_EVERY:
                self._send(link, "ping", at=int(now * 1000) % 2**31)
