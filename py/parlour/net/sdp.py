"""Short invite and answer codes: a WebRTC offer or answer cut down to what it cannot do without.

A browser's session description is about 900 characters; a data channel needs only the ICE user
fragment and password, the DTLS certificate's SHA-256 fingerprint, the DTLS role (which follows
from offer or answer) and the candidates. Those are packed into bytes, with a 2-byte check
against typos, and written as base64url: about 120 to 140 characters. The other side rebuilds a
complete description from them (`expand`). Pure: tested under CPython, used by the browser.

Bytes: version and kind (1), ufrag (length, ASCII), pwd (length, ASCII), fingerprint (32), then
per candidate: a byte of type and address form, the address (4, 16 or 16 bytes: IPv4, IPv6,
an mDNS name's UUID), the port (2); last, the first 2 bytes of SHA-256 over everything before.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import uuid
from urllib.parse import parse_qsl, quote

from parlour.errors import MalformedInput

VERSION = 1
OFFER, ANSWER = 0, 1
KINDS = {OFFER: "offer", ANSWER: "answer"}
CANDIDATE_TYPES = ("host", "srflx", "prflx", "relay")
FORM_IPV4, FORM_IPV6, FORM_MDNS = 0, 1, 2
MAX_CANDIDATES = 8

_CANDIDATE = re.compile(
    r"^a=candidate:\S+ 1 udp \d+ (?P<address>\S+) (?P<port>\d+)"
    r" typ (?P<type>host|srflx|prflx|relay)"
)
_ICE_CHARS = re.compile(r"^[A-Za-z0-9+/]{1,64}$")


def _field(sdp: str, name: str) -> str:
    match = re.search(rf"^a={name}:(\S+)", sdp, re.MULTILINE)
    if match is None:
        raise MalformedInput(f"That connection description has no {name}.")
    return match.group(1)


def _address(text: str) -> tuple[int, bytes] | None:
    if text.endswith(".local"):
        try:
            return FORM_MDNS, uuid.UUID(text.removesuffix(".local")).bytes
        except ValueError:
            return None
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    return (FORM_IPV4 if ip.version == 4 else FORM_IPV6), ip.packed


def compress(sdp: str, kind: int) -> str:
    """A browser's offer (kind OFFER) or answer (ANSWER) as a short code."""
    ufrag, pwd = _field(sdp, "ice-ufrag"), _field(sdp, "ice-pwd")
    fingerprint = re.search(r"^a=fingerprint:sha-256 ([0-9A-Fa-f:]{95})", sdp, re.MULTILINE)
    if fingerprint is None:
        raise MalformedInput("That connection description has no SHA-256 fingerprint.")
    out = bytearray([VERSION << 1 | kind])
    for text in (ufrag, pwd):
        out += bytes([len(text)]) + text.encode("ascii")
    out += bytes.fromhex(fingerprint.group(1).replace(":", ""))
    seen = 0
    for line in sdp.splitlines():
        match = _CANDIDATE.match(line)
        address = _address(match.group("address")) if match else None
        if match is None or address is None or seen == MAX_CANDIDATES:
            continue
        form, packed = address
        type_index = CANDIDATE_TYPES.index(match.group("type"))
        out += (
            bytes([type_index << 2 | form]) + packed + int(match.group("port")).to_bytes(2, "big")
        )
        seen += 1
    out += hashlib.sha256(bytes(out)).digest()[:2]
    return base64.urlsafe_b64encode(bytes(out)).decode("ascii").rstrip("=")


def _decode(code: str) -> bytes:
    text = "".join(code.split())  # pasted codes pick up line breaks and spaces
    if not text or not re.fullmatch(r"[A-Za-z0-9_-]+", text) or len(text) > 600:
        raise MalformedInput("That is not a Psi Parlour code: copy it again, all of it.")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        raise MalformedInput("That code is cut short: copy it again, all of it.") from None
    if len(raw) < 40 or hashlib.sha256(raw[:-2]).digest()[:2] != raw[-2:]:
        raise MalformedInput("That code has a typo or is cut short: copy it again, all of it.")
    if raw[0] >> 1 != VERSION:
        raise MalformedInput("That code comes from another version of Psi Parlour.")
    return raw[:-2]


def kind_of(code: str) -> str:
    """'offer' or 'answer' (raises MalformedInput for anything that is not a good code)."""
    return KINDS[_decode(code)[0] & 1]


def expand(code: str, expected: int) -> str:
    """A complete session description rebuilt from a code; refuses the wrong kind of code."""
    raw = _decode(code)
    kind = raw[0] & 1
    if kind != expected:
        if expected == ANSWER:
            raise MalformedInput("That is an invite, not an answer: paste the code the guest sent.")
        raise MalformedInput("That is an answer code: open the invite the host sent instead.")
    pos = 1
    texts = []
    for _ in range(2):
        size = raw[pos]
        texts.append(raw[pos + 1 : pos + 1 + size].decode("ascii", "replace"))
        pos += 1 + size
    ufrag, pwd = texts
    if not (_ICE_CHARS.match(ufrag) and _ICE_CHARS.match(pwd)):
        raise MalformedInput("That code is damaged: copy it again, all of it.")
    fingerprint = raw[pos : pos + 32]
    pos += 32
    candidates = []
    while pos < len(raw):
        head = raw[pos]
        form, type_index = head & 3, head >> 2
        size = 4 if form == FORM_IPV4 else 16
        if form > FORM_MDNS or type_index >= len(CANDIDATE_TYPES) or pos + 1 + size + 2 > len(raw):
            raise MalformedInput("That code is damaged: copy it again, all of it.")
        packed = raw[pos + 1 : pos + 1 + size]
        port = int.from_bytes(raw[pos + 1 + size : pos + 3 + size], "big")
        if form == FORM_MDNS:
            address = f"{uuid.UUID(bytes=packed)}.local"
        else:
            address = str(ipaddress.ip_address(packed))
        candidates.append((CANDIDATE_TYPES[type_index], address, port))
        pos += 3 + size
    return _sdp(kind, ufrag, pwd, fingerprint, candidates)


def _sdp(
    kind: int, ufrag: str, pwd: str, fingerprint: bytes, candidates: list[tuple[str, str, int]]
) -> str:
    lines = [
        "v=0",
        "o=- 4611731400430051336 2 IN IP4 127.0.0.1",
        "s=-",
        "t=0 0",
        "a=group:BUNDLE 0",
        "a=msid-semantic: WMS",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
        "c=IN IP4 0.0.0.0",
    ]
    for index, (type_, address, port) in enumerate(candidates):
        priority = {"host": 2113937151, "srflx": 1677729535, "prflx": 1845501695}.get(
            type_, 41885439
        ) - index
        related = " raddr 0.0.0.0 rport 0" if type_ != "host" else ""
        lines.append(
            f"a=candidate:{index + 1} 1 udp {priority} {address} {port} typ {type_}{related}"
            " generation 0"
        )
    finger = ":".join(f"{b:02X}" for b in fingerprint)
    lines += [
        f"a=ice-ufrag:{ufrag}",
        f"a=ice-pwd:{pwd}",
        "a=ice-options:trickle",
        f"a=fingerprint:sha-256 {finger}",
        f"a=setup:{'actpass' if kind == OFFER else 'active'}",
        "a=mid:0",
        "a=sctp-port:5000",
        "a=max-message-size:262144",
    ]
    return "\r\n".join(lines) + "\r\n"


def invite_link(base: str, code: str, game: str = "", stun: tuple[str, ...] = ()) -> str:
    """The link a host sends: the page's address, `#join=` and the code (a WebRTC offer code,
    or `bc.<room>` for a tab of the same browser); `g` names the game for the join screen's
    words, `stun` the servers the guest should use too. The page's query is left out: an
    invite made inside a blog's frame (?embed=1&game=...) opens the full site."""
    extra = f"&g={quote(game)}" if game else ""
    extra += f"&stun={quote(','.join(stun), safe=':,.')}" if stun else ""
    return f"{base.split('#')[0].split('?')[0]}#join={code}{extra}"


def parse_invite(text: str) -> tuple[str, list[str], str]:
    """The code, STUN servers and game in an invite link, or in the bare code pasted. The game
    is only a word for the join screen: the host's welcome says what is really played."""
    text = "".join(text.split())  # a link pasted across lines
    fragment = text.split("#", 1)[1] if "#" in text else text
    code, _, rest = fragment.removeprefix("join=").partition("&")
    params = dict(parse_qsl(rest))
    stun = [server for server in params.get("stun", "").split(",") if server]
    return code, stun, params.get("g", "")


_STUN = re.compile(
    r"^(?:stun:)?(?P<host>(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::(?P<port>\d{1,5}))?$"
)
MAX_STUN = 4
MAX_STUN_TEXT = 270  # characters: "stun:", a name of at most 253, a port; a longer one is no name


def stun_servers(entries: list[str]) -> list[str]:
    """STUN servers as `host` or `host:port` (a `stun:` in front is allowed and dropped), checked
    before a browser sees them: its RTCPeerConnection refuses a bad one by throwing, which
    would leave an invite half made."""
    servers = []
    for entry in (e.strip() for e in entries):
        if not entry:
            continue
        match = _STUN.match(entry) if len(entry) <= MAX_STUN_TEXT else None
        port = match and match.group("port")
        if match is None or (port is not None and not 0 < int(port) < 65536):
            raise MalformedInput(
                f"'{entry[:60]}' is not a STUN server: write a name or address, and a port if "
                "it needs one, like stun.example.org:3478."
            )
        servers.append(entry.removeprefix("stun:"))
    if len(servers) > MAX_STUN:
        raise MalformedInput(f"Name at most {MAX_STUN} STUN servers.")
    return servers
