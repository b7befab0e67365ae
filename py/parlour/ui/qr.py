"""QR codes drawn here, in Python, with no network: an invite link as an SVG a phone can scan.

Byte mode, error correction level M (or L), versions 1 to 40: an invite link of a few hundred
characters, or a whole link or part of one for a chat (up to 2,000 characters, level L). The
steps are ISO/IEC 18004's: data bits and padding, Reed-Solomon codewords per block over GF(256)
(polynomial 0x11D), interleaving, the function patterns (finders, timing, alignment, dark module,
format and version information), the zigzag placement of the data and the mask with the lowest
penalty. The tests compare every module with the `segno` library.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.ui.tree import Node, s

# version -> level -> (EC codewords per block, [(blocks, data codewords per block), ...])
EC_BLOCKS: dict[int, dict[str, tuple[int, list[tuple[int, int]]]]] = {
    1: {"L": (7, [(1, 19)]), "M": (10, [(1, 16)])},
    2: {"L": (10, [(1, 34)]), "M": (16, [(1, 28)])},
    3: {"L": (15, [(1, 55)]), "M": (26, [(1, 44)])},
    4: {"L": (20, [(1, 80)]), "M": (18, [(2, 32)])},
    5: {"L": (26, [(1, 108)]), "M": (24, [(2, 43)])},
    6: {"L": (18, [(2, 68)]), "M": (16, [(4, 27)])},
    7: {"L": (20, [(2, 78)]), "M": (18, [(4, 31)])},
    8: {"L": (24, [(2, 97)]), "M": (22, [(2, 38), (2, 39)])},
    9: {"L": (30, [(2, 116)]), "M": (22, [(3, 36), (2, 37)])},
    10: {"L": (18, [(2, 68), (2, 69)]), "M": (26, [(4, 43), (1, 44)])},
    11: {"L": (20, [(4, 81)]), "M": (30, [(1, 50), (4, 51)])},
    12: {"L": (24, [(2, 92), (2, 93)]), "M": (22, [(6, 36), (2, 37)])},
    13: {"L": (26, [(4, 107)]), "M": (22, [(8, 37), (1, 38)])},
    14: {"L": (30, [(3, 115), (1, 116)]), "M": (24, [(4, 40), (5, 41)])},
    15: {"L": (22, [(5, 87), (1, 88)]), "M": (24, [(5, 41), (5, 42)])},
    16: {"L": (24, [(5, 98), (1, 99)]), "M": (28, [(7, 45), (3, 46)])},
    17: {"L": (28, [(1, 107), (5, 108)]), "M": (28, [(10, 46), (1, 47)])},
    18: {"L": (30, [(5, 120), (1, 121)]), "M": (26, [(9, 43), (4, 44)])},
    19: {"L": (28, [(3, 113), (4, 114)]), "M": (26, [(3, 44), (11, 45)])},
    20: {"L": (28, [(3, 107), (5, 108)]), "M": (26, [(3, 41), (13, 42)])},
    21: {"L": (28, [(4, 116), (4, 117)]), "M": (26, [(17, 42)])},
    22: {"L": (28, [(2, 111), (7, 112)]), "M": (28, [(17, 46)])},
    23: {"L": (30, [(4, 121), (5, 122)]), "M": (28, [(4, 47), (14, 48)])},
    24: {"L": (30, [(6, 117), (4, 118)]), "M": (28, [(6, 45), (14, 46)])},
    25: {"L": (26, [(8, 106), (4, 107)]), "M": (28, [(8, 47), (13, 48)])},
    26: {"L": (28, [(10, 114), (2, 115)]), "M": (28, [(19, 46), (4, 47)])},
    27: {"L": (30, [(8, 122), (4, 123)]), "M": (28, [(22, 45), (3, 46)])},
    28: {"L": (30, [(3, 117), (10, 118)]), "M": (28, [(3, 45), (23, 46)])},
    29: {"L": (30, [(7, 116), (7, 117)]), "M": (28, [(21, 45), (7, 46)])},
    30: {"L": (30, [(5, 115), (10, 116)]), "M": (28, [(19, 47), (10, 48)])},
    31: {"L": (30, [(13, 115), (3, 116)]), "M": (28, [(2, 46), (29, 47)])},
    32: {"L": (30, [(17, 115)]), "M": (28, [(10, 46), (23, 47)])},
    33: {"L": (30, [(17, 115), (1, 116)]), "M": (28, [(14, 46), (21, 47)])},
    34: {"L": (30, [(13, 115), (6, 116)]), "M": (28, [(14, 46), (23, 47)])},
    35: {"L": (30, [(12, 121), (7, 122)]), "M": (28, [(12, 47), (26, 48)])},
    36: {"L": (30, [(6, 121), (14, 122)]), "M": (28, [(6, 47), (34, 48)])},
    37: {"L": (30, [(17, 122), (4, 123)]), "M": (28, [(29, 46), (14, 47)])},
    38: {"L": (30, [(4, 122), (18, 123)]), "M": (28, [(13, 46), (32, 47)])},
    39: {"L": (30, [(20, 117), (4, 118)]), "M": (28, [(40, 47), (7, 48)])},
    40: {"L": (30, [(19, 118), (6, 119)]), "M": (28, [(18, 47), (31, 48)])},
}
ALIGNMENT: dict[int, tuple[int, ...]] = {
    1: (),
    2: (6, 18),
    3: (6, 22),
    4: (6, 26),
    5: (6, 30),
    6: (6, 34),
    7: (6, 22, 38),
    8: (6, 24, 42),
    9: (6, 26, 46),
    10: (6, 28, 50),
    11: (6, 30, 54),
    12: (6, 32, 58),
    13: (6, 34, 62),
    14: (6, 26, 46, 66),
    15: (6, 26, 48, 70),
    16: (6, 26, 50, 74),
    17: (6, 30, 54, 78),
    18: (6, 30, 56, 82),
    19: (6, 30, 58, 86),
    20: (6, 34, 62, 90),
    21: (6, 28, 50, 72, 94),
    22: (6, 26, 50, 74, 98),
    23: (6, 30, 54, 78, 102),
    24: (6, 28, 54, 80, 106),
    25: (6, 32, 58, 84, 110),
    26: (6, 30, 58, 86, 114),
    27: (6, 34, 62, 90, 118),
    28: (6, 26, 50, 74, 98, 122),
    29: (6, 30, 54, 78, 102, 126),
    30: (6, 26, 52, 78, 104, 130),
    31: (6, 30, 56, 82, 108, 134),
    32: (6, 34, 60, 86, 112, 138),
    33: (6, 30, 58, 86, 114, 142),
    34: (6, 34, 62, 90, 118, 146),
    35: (6, 30, 54, 78, 102, 126, 150),
    36: (6, 24, 50, 76, 102, 128, 154),
    37: (6, 28, 54, 80, 106, 132, 158),
    38: (6, 32, 58, 84, 110, 136, 162),
    39: (6, 26, 54, 82, 110, 138, 166),
    40: (6, 30, 58, 86, 114, 142, 170),
}
LEVEL_BITS = {"L": 0b01, "M": 0b00}
MASKS: tuple[Callable[[int, int], bool], ...] = (
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: (r * c) % 2 + (r * c) % 3 == 0,
    lambda r, c: ((r * c) % 2 + (r * c) % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + (r * c) % 3) % 2 == 0,
)
QUIET = 4

# -- Reed-Solomon over GF(256) ----------------------------------------------------------------

_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


def _multiply(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _generator(degree: int) -> list[int]:
    poly = [1]
    for i in range(degree):
        poly = [
            (poly[j] if j < len(poly) else 0) ^ (_multiply(poly[j - 1], _EXP[i]) if j else 0)
            for j in range(len(poly) + 1)
        ]
    return poly


def ec_codewords(data: list[int], degree: int) -> list[int]:
    """The Reed-Solomon remainder of `data` for a generator of `degree`."""
    generator = _generator(degree)
    remainder = list(data) + [0] * degree
    for i in range(len(data)):
        factor = remainder[i]
        if factor:
            for j, coefficient in enumerate(generator):
                remainder[i + j] ^= _multiply(coefficient, factor)
    return remainder[len(data) :]


# -- data codewords ----------------------------------------------------------------------------


def capacity(version: int, level: str) -> int:
    _, groups = EC_BLOCKS[version][level]
    return sum(n * k for n, k in groups)


def choose_version(size: int, level: str) -> int:
    for version in EC_BLOCKS:
        count_bits = 8 if version < 10 else 16
        if 4 + count_bits + 8 * size <= 8 * capacity(version, level):
            return version
    raise ValueError(f"{size} bytes do not fit in a version 40 QR code")


def data_codewords(payload: bytes, version: int, level: str) -> list[int]:
    bits = [0, 1, 0, 0]  # byte mode
    count_bits = 8 if version < 10 else 16
    bits += [(len(payload) >> i) & 1 for i in reversed(range(count_bits))]
    for byte in payload:
        bits += [(byte >> i) & 1 for i in reversed(range(8))]
    total = 8 * capacity(version, level)
    bits += [0] * min(4, total - len(bits))
    bits += [0] * (-len(bits) % 8)
    words = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8)]
    pad = (0xEC, 0x11)
    words += [pad[i % 2] for i in range(total // 8 - len(words))]
    return words


def interleaved(payload: bytes, version: int, level: str) -> list[int]:
    degree, groups = EC_BLOCKS[version][level]
    words = data_codewords(payload, version, level)
    blocks, pos = [], 0
    for count, size in groups:
        for _ in range(count):
            blocks.append(words[pos : pos + size])
            pos += size
    ecs = [ec_codewords(block, degree) for block in blocks]
    out = []
    for i in range(max(len(b) for b in blocks)):
        out += [b[i] for b in blocks if i < len(b)]
    for i in range(degree):
        out += [e[i] for e in ecs]
    return out


# -- the matrix ------------------------------------------------------------------------------


def _bch(value: int, generator: int, shift: int) -> int:
    rest = value << shift
    top = generator.bit_length()
    while rest.bit_length() >= top:
        rest ^= generator << (rest.bit_length() - top)
    return (value << shift) | rest


class _Grid:
    def __init__(self, version: int) -> None:
        self.version = version
        self.size = 17 + 4 * version
        self.dark = [[False] * self.size for _ in range(self.size)]
        self.reserved = [[False] * self.size for _ in range(self.size)]

    def set(self, r: int, c: int, dark: bool) -> None:
        self.dark[r][c] = dark
        self.reserved[r][c] = True

    def functions(self) -> None:
        n = self.size
        for r0, c0 in ((0, 0), (0, n - 7), (n - 7, 0)):
            for r in range(-1, 8):
                for c in range(-1, 8):
                    rr, cc = r0 + r, c0 + c
                    if 0 <= rr < n and 0 <= cc < n:
                        ring = max(abs(r - 3), abs(c - 3))
                        self.set(rr, cc, ring != 2 and ring != 4 and 0 <= r <= 6 and 0 <= c <= 6)
        for i in range(8, n - 8):
            self.set(6, i, i % 2 == 0)
            self.set(i, 6, i % 2 == 0)
        centres = ALIGNMENT[self.version]
        ends = (centres[0], centres[-1]) if centres else ()
        corners = {(a, b) for a in ends for b in ends} - {(ends[-1], ends[-1])} if ends else set()
        for r in centres:
            for c in centres:
                if (r, c) in corners:  # where the finder patterns are
                    continue
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        self.set(r + dr, c + dc, max(abs(dr), abs(dc)) != 1)
        self.set(n - 8, 8, True)  # the dark module
        for i in range(9):  # format information, filled in later
            for r, c in ((8, i), (i, 8)):
                if not self.reserved[r][c]:
                    self.set(r, c, False)
        for i in range(8):
            self.set(8, n - 1 - i, False)
            self.set(n - 1 - i, 8, False)
        if self.version >= 7:
            bits = _bch(self.version, 0x1F25, 12)
            for i in range(18):
                dark = (bits >> i) & 1 == 1
                self.set(n - 11 + i % 3, i // 3, dark)
                self.set(i // 3, n - 11 + i % 3, dark)

    def place(self, codewords: list[int]) -> None:
        n = self.size
        bits = [(w >> i) & 1 for w in codewords for i in reversed(range(8))]
        index = 0
        upward = True
        col = n - 1
        while col > 0:
            if col == 6:
                col -= 1
            rows = range(n - 1, -1, -1) if upward else range(n)
            for r in rows:
                for c in (col, col - 1):
                    if not self.reserved[r][c]:
                        self.dark[r][c] = index < len(bits) and bits[index] == 1
                        index += 1
            upward = not upward
            col -= 2

    def masked(self, mask: int, level: str) -> list[list[bool]]:
        n = self.size
        rule = MASKS[mask]
        out = [
            [self.dark[r][c] ^ (not self.reserved[r][c] and rule(r, c)) for c in range(n)]
            for r in range(n)
        ]
        bits = _bch(LEVEL_BITS[level] << 3 | mask, 0x537, 10) ^ 0x5412
        for i in range(15):
            dark = (bits >> i) & 1 == 1
            if i < 6:
                out[i][8] = dark
            elif i < 8:
                out[i + 1][8] = dark
            else:
                out[n - 15 + i][8] = dark
            if i < 8:
                out[8][n - 1 - i] = dark
            elif i < 9:
                out[8][7] = dark
            else:
                out[8][14 - i] = dark
        out[n - 8][8] = True
        return out


def penalty(m: list[list[bool]]) -> int:
    n = len(m)
    score = 0
    lines = m + [list(col) for col in zip(*m, strict=True)]
    for line in lines:
        run, last = 0, None
        for module in line:
            if module == last:
                run += 1
            else:
                if run >= 5:
                    score += run - 2
                run, last = 1, module
        if run >= 5:
            score += run - 2
        text = "".join("1" if x else "0" for x in line)
        for pattern in ("10111010000", "00001011101"):
            start = text.find(pattern)
            while start != -1:
                score += 40
                start = text.find(pattern, start + 1)
    for r in range(n - 1):
        for c in range(n - 1):
            if m[r][c] == m[r][c + 1] == m[r + 1][c] == m[r + 1][c + 1]:
                score += 3
    dark = sum(sum(row) for row in m)
    score += 10 * (abs(dark * 100 // (n * n) - 50) // 5)
    return score


def qr_matrix(text: str, level: str = "M", mask: int | None = None) -> list[list[bool]]:
    """The modules of the QR code for `text` (True is dark), quiet zone not included."""
    payload = text.encode("utf-8")
    version = choose_version(len(payload), level)
    grid = _Grid(version)
    grid.functions()
    grid.place(interleaved(payload, version, level))
    if mask is not None:
        return grid.masked(mask, level)
    return min((grid.masked(k, level) for k in range(8)), key=penalty)


def qr_svg(text: str, label: str, level: str = "M") -> Node:
    """The QR code as one SVG path (dark modules as horizontal runs), with its quiet zone."""
    matrix = qr_matrix(text, level)
    n = len(matrix) + 2 * QUIET
    parts = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                parts.append(f"M{start + QUIET} {r + QUIET}h{c - start}v1h{start - c}z")
            c += 1
    return s(
        "svg",
        {"viewBox": f"0 0 {n} {n}", "class": "qr", "role": "img", "aria-label": label},
        s("rect", {"width": n, "height": n, "class": "qr-light"}),
        s("path", {"d": "".join(parts), "class": "qr-dark", "shape-rendering": "crispEdges"}),
    )
