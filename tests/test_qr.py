"""The QR encoder against `segno`, module by module, for every version, level and mask used.

segno appends a whole zero byte when the data already ends on a byte boundary after the
terminator (its `write_padding_bits` adds 8 - 0 bits); the standard adds nothing, and readers
ignore either. To compare everything else exactly (Reed-Solomon, interleaving, placement,
function patterns, format and version information, masks), the test gives our encoder segno's
data codewords for those cases.
"""

from __future__ import annotations

import re

import pytest
import segno

from parlour.ui import qr
from parlour.ui.tree import to_html

TEXTS = [
    "hello",
    "x" * 50,
    "y" * 90,
    "https://psi-parlour.netlify.app/#join=" + "Ab9_-" * 26,
    "é" * 150,
    "z" * 300,
    "w" * 600,
    "https://psi-parlour.netlify.app/#pl=1.1-4.abcdefgh." + "Ab9_-" * 389,  # a chat-sized part
]


STANDARD = qr.data_codewords


def segno_like(payload: bytes, version: int, level: str) -> list[int]:
    words = STANDARD(payload, version, level)
    used = 4 + (8 if version < 10 else 16) + 8 * len(payload)
    if used + 4 <= 8 * qr.capacity(version, level) and (used + 4) % 8 == 0:
        index = (used + 4) // 8
        words = [*words[:index], 0, *words[index:-1]]
    return words


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("level", ["L", "M"])
def test_every_module_matches_segno(text, level, monkeypatch):
    payload = text.encode()
    version = qr.choose_version(len(payload), level)
    monkeypatch.setattr(qr, "data_codewords", segno_like)
    for mask in range(8):
        reference = segno.make(
            payload, version=version, error=level.lower(), mask=mask, mode="byte", boost_error=False
        )
        expected = [[bool(m) for m in row] for row in reference.matrix]
        assert qr.qr_matrix(text, level, mask) == expected, (version, mask)


def test_the_data_follows_the_standard_terminator_and_padding():
    # byte mode, 5 bytes, "hello": 0100 | 00000101 | 68 65 6C 6C 6F | 0000, then EC 11 ...
    words = qr.data_codewords(b"hello", 1, "M")
    assert words == [
        0x40,
        0x56,
        0x86,
        0x56,
        0xC6,
        0xC6,
        0xF0,
        0xEC,
        0x11,
        0xEC,
        0x11,
        0xEC,
        0x11,
        0xEC,
        0x11,
        0xEC,
    ]


def test_versions_grow_with_the_text_and_stop_at_forty():
    assert qr.choose_version(10, "M") == 1
    assert qr.choose_version(170, "M") == 9
    assert qr.choose_version(2000, "L") == 33  # a whole part of a split link
    with pytest.raises(ValueError):
        qr.choose_version(2400, "M")


def test_the_svg_has_a_quiet_zone_a_label_and_one_path():
    node = qr.qr_svg("https://example.org/#join=abc", "Invite for Bo")
    html = to_html(node)
    size = 17 + 4 * qr.choose_version(len("https://example.org/#join=abc"), "M") + 8
    assert f'viewBox="0 0 {size} {size}"' in html and 'aria-label="Invite for Bo"' in html
    assert html.count("<path") == 1 and re.search(r'd="M4 4h7v1h-7z', html)
