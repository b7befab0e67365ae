"""Reading outside input: the worst time of each kind's reader over adversarial shapes, each as
large as that kind allows (pure CPython, no browser).

Everything that reads text from outside (a play-by-link link or its parts, a replay link or
file, a save, an online message) runs before any signature is checked, so an input made to be
slow must be no slower than an honest one of its size. Each kind is fed every shape of
`SHAPES` at its size limit and the slowest is printed, in ms and against the baseline:
json.loads of an honest document (log entries) of the same size, timed in the same run.

With a git revision (`--baseline`), the same readers of that revision run too, in a child
process: their shapes grow from 4 KB, doubling, and a shape that takes over a second is stopped
there, its time at the limit estimated (marked `est.`): quadratic if its last two doublings
took over eight times as long, else linear.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from parlour.errors import ParlourError

ROOT = Path(__file__).resolve().parent.parent
CAP = 1.0  # seconds: a shape slower than this is not grown further (earlier code only)
START = 4096  # characters: the first size of a growing shape
MESSAGE = 65_536  # wire.MAX_MESSAGE_BYTES
LINK_JSON = 400_000  # packing.MAX_JSON: a link's records once inflated
LINK_TEXT = 100_000  # packing.read_fragment: characters of one link or part
REPLAY = 2_000_000  # replay.MAX_BYTES and match.MAX_SAVED_BYTES
SAVE = 5_000_000  # encoding.MAX_TEXT: any other save (a browser keeps less for one site)


SHAPES: dict[str, Callable[[int], str]] = {
    "escaped quotes": lambda n: '"' + '\\"' * (n // 2),
    "escaped quotes, closed": lambda n: '["' + '\\"' * (n // 2 - 3) + '"]',
    "quotes and brackets": lambda n: '["' + '\\"[{' * (n // 4 - 2) + '"]',
    "brackets inside a string": lambda n: '["' + "[{" * (n // 2 - 3) + '"]',
    "brackets outside strings": lambda n: "[" + "[]," * (n // 3 - 1) + "[]]",
    "objects": lambda n: "[" + "{}," * (n // 3 - 1) + "{}]",
    "deep nesting": lambda n: "[" * (n // 2) + "]" * (n // 2),
    "long string": lambda n: '["' + "a" * (n - 4) + '"]',
    "empty strings": lambda n: "[" + '"",' * (n // 3 - 1) + '""]',
    "lone surrogates": lambda n: '["' + "\\ud800" * (n // 6 - 1) + '"]',
    "paired surrogates": lambda n: '["' + "\\ud83d\\ude00" * (n // 12 - 1) + '"]',
    "numbers": lambda n: "[" + "0," * (n // 2 - 1) + "0]",
    "long numbers": lambda n: "[" + ",".join(["9" * 4000] * max(1, n // 4001)) + "]",
}  # JSON texts of about n characters made to be slow to read, by name


def honest(size: int) -> str:
    """A document like a saved log, of about `size` characters: the baseline's input."""
    entry = {"seat": 1, "action": {"kind": "place", "cell": [3, -2]}, "hash": "ab12" * 16}
    one = json.dumps(entry, separators=(",", ":"))
    return "[" + ",".join([one] * max(1, size // (len(one) + 1))) + "]"


# -- each kind: its size limit and how a JSON text becomes its input -----------------------


def _link_data(document: str, pad_to: int = 0) -> str:
    """A play-by-link link's data around a JSON text (no signatures: nothing reaches them)."""
    zipped = zlib.compress(document.encode("utf-8", "surrogatepass"), 9)[:65_535]
    raw = bytes([1]) + len(zipped).to_bytes(2, "big") + zipped
    raw += bytes(max(0, pad_to * 3 // 4 - len(raw)))
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _one_link(document: str) -> list[str]:
    return ["https://example.org/#pl=1." + _link_data(document)]


def _parts(document: str) -> list[str]:
    """The most a split link can be: 24 parts of 100,000 characters, last part first."""
    from parlour.match.by_link import packing

    data = _link_data(document, pad_to=24 * (LINK_TEXT - 100))
    return packing.links("https://example.org/", data, limit=LINK_TEXT)[::-1]


def _replay_link(document: str) -> str:
    packed = zlib.compress(document.encode("utf-8", "surrogatepass"), 9)
    return "https://example.org/#replay=3." + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def _bomb(size: int) -> str:
    """A document past a limit, for the kinds that inflate: zlib must stop at the limit."""
    return "[" * (size * 8)


@dataclass(frozen=True)
class Kind:
    name: str
    limit: int  # characters of JSON
    read: Callable[[object], object]
    wrap: Callable[[str], object]
    inflates: bool = False


def kinds() -> list[Kind]:
    """Every kind of outside input whose reader this revision has."""
    found = []
    for name, make in _MAKERS:
        try:
            found.append(make())
        except (ImportError, AttributeError):
            print(f"  ({name}: no such reader in this revision)", file=sys.stderr)
    return found


def _by_link() -> Kind:
    from parlour.match.by_link import packing

    return Kind("play-by-link link", LINK_JSON, packing.read_invite, _one_link, True)


def _by_link_parts() -> Kind:
    from parlour.match.by_link import packing

    return Kind("play-by-link, 24 parts", LINK_JSON, packing.read_invite, _parts, True)


def _replay_code() -> Kind:
    from parlour.match import replay

    return Kind("replay link", REPLAY, replay.from_code, _replay_link, True)


def _replay_file() -> Kind:
    from parlour.match import replay

    return Kind("replay file", REPLAY, replay.from_file, str)


def _saved_game() -> Kind:
    from parlour.match.match import Match

    return Kind("save: a game on one device", REPLAY, Match.loads, str)


def _online_save() -> Kind:
    from parlour.ui.online import saves as online_saves

    return Kind("save: an online game", SAVE, online_saves.load, str)


def _link_save() -> Kind:
    from parlour.ui.by_link import saves as link_saves

    return Kind("save: a game by link", SAVE, link_saves.save_keys, str)


def _kept_parts() -> Kind:
    from parlour.ui.by_link import saves as link_saves

    return Kind("save: parts of links kept", SAVE, link_saves.kept_parts, str)


def _solo() -> Kind:
    from parlour.ui import solo

    return Kind("save: a game against bots", SAVE, lambda raw: solo.read_choice("esp", raw), str)


def _message() -> Kind:
    from parlour.match import wire

    return Kind("online message", MESSAGE, wire.decode, str)


_MAKERS: list[tuple[str, Callable[[], Kind]]] = [
    ("play-by-link link", _by_link),
    ("play-by-link, 24 parts", _by_link_parts),
    ("replay link", _replay_code),
    ("replay file", _replay_file),
    ("save: a game on one device", _saved_game),
    ("save: an online game", _online_save),
    ("save: a game by link", _link_save),
    ("save: parts of links kept", _kept_parts),
    ("save: a game against bots", _solo),
    ("online message", _message),
]

# -- timing ---------------------------------------------------------------------------------


def _once(read: Callable[[object], object], value: object) -> float:
    start = time.perf_counter()
    with contextlib.suppress(ParlourError):
        read(value)
    return time.perf_counter() - start


def _best(read: Callable[[object], object], value: object, runs: int = 2) -> float:
    return min(_once(read, value) for _ in range(runs))


def timed(kind: Kind, shape: str, start: int) -> tuple[float, float, int]:
    """Seconds for `shape` at the kind's limit, grown from `start` characters, doubling: as
    measured there, or (growing stopped past CAP seconds) estimated from the last size, as
    quadratic if its last two doublings took over eight times as long (4 is linear, 16
    quadratic), else linear; then the seconds and size last measured."""
    size, times = min(start, kind.limit), [0.0, 0.0]
    while True:
        seconds = _best(kind.read, kind.wrap(SHAPES[shape](size)))
        if size >= kind.limit:
            return seconds, seconds, size
        if seconds > CAP:
            power = 2 if seconds > 8 * times[-2] else 1
            return seconds * (kind.limit / size) ** power, seconds, size
        size, times = min(size * 2, kind.limit), [*times, seconds]


def bombs(kind: Kind) -> float:
    """Seconds for a zlib bomb: a small input that would inflate well past the limit."""
    return _best(kind.read, kind.wrap(_bomb(kind.limit))) if kind.inflates else 0.0


def worst(kind: Kind, start: int) -> tuple[float, float, int, str]:
    """The slowest shape for a kind (each grown from `start` characters): its seconds at the
    limit, the seconds and size last measured, its name."""
    rows = [(*timed(kind, shape, start), shape) for shape in SHAPES]
    if kind.inflates:
        seconds = bombs(kind)
        rows.append((seconds, seconds, kind.limit, "zlib bomb"))
    return max(rows)


def baseline(size: int) -> float:
    document = honest(size)
    return min(_once(json.loads, document) for _ in range(3))


Figures = dict[str, tuple[float, float, int, str]]


def measure(start: int) -> Figures:
    return {kind.name: worst(kind, start) for kind in kinds()}


def grown() -> None:
    """The child process's part: earlier code's figures, as JSON on stdout."""
    print(json.dumps(measure(START)))


# -- earlier code, in a child process -------------------------------------------------------


def earlier(revision: str) -> Figures:
    """The same kinds read by the package of a git revision (grown from START, capped)."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, "py"], cwd=ROOT, capture_output=True
    )
    if archive.returncode:
        raise SystemExit(f"no git revision {revision!r} here")
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(folder, filter="data")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([f"{folder}/py", str(ROOT)])}
        child = subprocess.run(
            [sys.executable, "-c", "import bench.parsing; bench.parsing.grown()"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    return {name: tuple(row) for name, row in json.loads(child.stdout).items()}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f}" if seconds < 10 else f"{seconds * 1000:,.0f}"


def _before(row: tuple[float, float, int, str], limit: int) -> str:
    at_limit, measured, size, shape = row
    if size >= limit:
        return f"{_ms(at_limit)}, {shape}"
    return f"~{_ms(at_limit)} est. ({_ms(measured)} at {size // 1000} KB), {shape}"


def run(revision: str | None = None) -> list[str]:
    before = earlier(revision) if revision else {}
    every = kinds()
    now = {kind.name: worst(kind, kind.limit) for kind in every}
    sizes = {kind.name: kind.limit for kind in every}
    bases = {size: baseline(size) for size in sorted(set(sizes.values()))}
    head = f"  {'kind':28} {'limit':>8} {'worst ms':>9} {'/ json.loads':>12}  worst shape"
    lines = [
        "Reading outside input (pure CPython: every shape at each kind's size limit)",
        "  baseline, json.loads of an honest log of that size: "
        + ", ".join(f"{size // 1000:,} KB {_ms(s)} ms" for size, s in bases.items()),
        head + (f"   before ({revision}), ms, worst shape" if revision else ""),
    ]
    for name, (seconds, _, _, shape) in now.items():
        size = sizes[name]
        line = (
            f"  {name:28} {size // 1000:>5} KB {_ms(seconds):>9} {seconds / bases[size]:>12.2f}"
            f"  {shape}"
        )
        if name in before:
            line += f"   {_before(before[name], size)}"
        lines.append(line)
    return lines
