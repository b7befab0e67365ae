"""Invite and answer codes: a real Chromium offer and answer, cut down and rebuilt.

The samples in tests/vectors/sdp_samples.json were made by Debian's Chromium 156 on this kind
of machine, once with plain addresses (as the browser tests run) and once with mDNS names (as
browsers do by default). The e2e tests connect through rebuilt descriptions for real.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from parlour.errors import MalformedInput
from parlour.net.sdp import (
    ANSWER,
    OFFER,
    compress,
    expand,
    invite_link,
    kind_of,
    parse_invite,
    stun_servers,
)

SAMPLES = json.loads((Path(__file__).parent / "vectors" / "sdp_samples.json").read_text())
CASES = [
    (s[kind], k, s["mdns"]) for s in SAMPLES for kind, k in (("offer", OFFER), ("answer", ANSWER))
]


def essentials(sdp: str) -> tuple:
    candidates = tuple(
        (m.group(1), m.group(2), m.group(3))
        for m in re.finditer(r"^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ (\w+)", sdp, re.MULTILINE)
    )
    fields = tuple(
        re.search(rf"^a={name}:(.+?)\r?$", sdp, re.MULTILINE).group(1)
        for name in ("ice-ufrag", "ice-pwd", "fingerprint", "setup", "mid", "sctp-port")
    )
    return fields, candidates


@pytest.mark.parametrize("sdp, kind, mdns", CASES)
def test_a_code_keeps_everything_a_data_channel_needs(sdp, kind, mdns):
    code = compress(sdp, kind)
    assert len(code) < 200 and re.fullmatch(r"[A-Za-z0-9_-]+", code)
    assert kind_of(code) == ("offer" if kind == OFFER else "answer")
    rebuilt = expand(code, kind)
    assert essentials(rebuilt) == essentials(sdp)
    assert "m=application 9 UDP/DTLS/SCTP webrtc-datachannel" in rebuilt
    assert rebuilt.endswith("\r\n")


def test_the_invite_link_stays_short():
    code = compress(SAMPLES[1]["offer"], OFFER)  # mDNS names: the longest case
    link = invite_link("https://psi-parlour.netlify.app/", code, "telepathic")
    assert len(link) < 200, len(link)


def test_an_invite_link_gives_back_its_code_game_and_stun_servers():
    code = compress(SAMPLES[0]["offer"], OFFER)
    stun = ("stun:stun.example.org:3478", "stun:10.0.0.1:3478")
    link = invite_link("https://x.example/play/?embed=1#home", code, "psi-squad", stun)
    assert link.startswith("https://x.example/play/#join=")  # an embed's invite: the full site
    assert parse_invite(link) == (code, list(stun), "psi-squad")
    assert parse_invite("  " + code + "\n") == (code, [], "")  # the bare code, pasted
    cut = link[:60] + "\n" + link[60:]  # a link broken across lines by a mail program
    assert parse_invite(cut) == (code, list(stun), "psi-squad")
    tab = invite_link("https://x.example/", "bc.r00m", "esp")
    assert parse_invite(tab) == ("bc.r00m", [], "esp")
    assert parse_invite("https://x.example/#join=" + code + "&g=%3Cb%3E")[2] == "<b>"


def test_the_wrong_kind_of_code_says_what_to_paste():
    offer = compress(SAMPLES[0]["offer"], OFFER)
    answer = compress(SAMPLES[0]["answer"], ANSWER)
    with pytest.raises(MalformedInput, match="That is an invite, not an answer"):
        expand(offer, ANSWER)
    with pytest.raises(MalformedInput, match="That is an answer code"):
        expand(answer, OFFER)


@pytest.mark.parametrize(
    "mangle",
    [
        lambda c: c[:-1],
        lambda c: c[:40],
        lambda c: c[:20] + ("A" if c[20] != "A" else "B") + c[21:],
        lambda c: c + "AAAA",
        lambda c: "",
        lambda c: "hello world!",
        lambda c: "x" * 700,
    ],
)
def test_a_damaged_code_is_refused_with_a_sentence(mangle):
    code = compress(SAMPLES[0]["offer"], OFFER)
    with pytest.raises(MalformedInput) as caught:
        expand(mangle(code), OFFER)
    assert "copy it again" in caught.value.sentence or "Psi Parlour code" in caught.value.sentence


def test_line_breaks_and_spaces_in_a_pasted_code_do_not_matter():
    code = compress(SAMPLES[0]["answer"], ANSWER)
    spaced = "\n  ".join(code[i : i + 30] for i in range(0, len(code), 30))
    assert expand(spaced, ANSWER) == expand(code, ANSWER)


def test_a_description_without_the_essentials_is_refused():
    with pytest.raises(MalformedInput, match="no ice-ufrag"):
        compress("v=0\r\n", OFFER)


def test_stun_servers_are_checked_before_a_browser_sees_them():
    assert stun_servers(["stun:stun.example.org:3478", " 10.0.0.1 ", "", "[2001:db8::1]:3478"]) == [
        "stun.example.org:3478",
        "10.0.0.1",
        "[2001:db8::1]:3478",
    ]
    # each of these made Chromium's RTCPeerConnection throw, leaving an invite half made
    for bad in ("bad url", "stun:", "a:99999", "turn:x", "a:0", "-x.example", "x" * 300):
        with pytest.raises(MalformedInput, match="is not a STUN server"):
            stun_servers([bad])
    with pytest.raises(MalformedInput, match="at most 4"):
        stun_servers([f"s{i}.example" for i in range(5)])
