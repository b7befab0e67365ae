"""Unambiguous byte encodings shared by every hash in the project.

Why length prefixes: concatenating fields lets ("ab", "c") and ("a", "bc") hash alike. Every field
here is written as a 4-byte big-endian length and then its bytes. Values are written as canonical
JSON (sorted keys, no spaces, UTF-8), restricted to types every implementation writes the same
way: null, booleans, integers, strings, lists and objects with string keys. No floats.
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
from array import array
from collections.abc import Iterable
from itertools import accumulate
from typing import Any

from parlour.errors import MalformedInput

Json = Any  # null | bool | int | str | list[Json] | dict[str, Json]


def _check_canonical(value: Json, depth: int = 0) -> None:
    if depth > 32:
        raise MalformedInput("That value is nested too deeply.")
    if value is None or isinstance(value, (bool, int, str)):
        return
    if isinstance(value, float):
        raise MalformedInput("Fractional numbers cannot be committed to; use whole numbers.")
    if isinstance(value, (list, tuple)):
        for item in value:
            _check_canonical(item, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise MalformedInput("Object keys must be text.")
            _check_canonical(item, depth + 1)
        return
    raise MalformedInput(f"A {type(value).__name__} cannot be written as canonical JSON.")


NOT_TEXT = (
    "That holds a character that is not one (half of a pair of UTF-16 surrogates, alone): "
    "it cannot be written down, so it was refused."
)


def utf8(text: str) -> bytes:
    """`text` as UTF-8; a lone surrogate (valid in JSON's "\\ud800", not in UTF-8) is
    malformed input, never a UnicodeEncodeError out of a hash."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedInput(NOT_TEXT) from None


def check_text(value: object, depth: int = 0) -> None:
    """Refuse any text in a parsed JSON value (keys included) that UTF-8 cannot write: checked
    where input comes in (a message, a save), before anything reads it."""
    if isinstance(value, str):
        utf8(value)
    elif isinstance(value, dict) and depth < 64:
        for key, item in value.items():
            check_text(key, depth + 1)
            check_text(item, depth + 1)
    elif isinstance(value, list) and depth < 64:
        for item in value:
            check_text(item, depth + 1)


MAX_DEPTH = 24  # nesting of arrays and objects in anything we read: real data nests 8 at most
MAX_TEXT = 5_000_000  # characters of JSON read at once: more than a browser's storage holds

# Everything below reads text from outside before any signature is checked, so each is one pass
# that never backtracks: an earlier string pattern, `"(?:[^"\\]|\\.)*"`, took quadratic time on
# a quote followed by many escaped quotes (a 30 KB link held a page for half a minute).
# A string, or what is left of one at the end of the text: possessive, so it never fails.
_STRING = re.compile(r'"(?:[^"\\]++|\\[\s\S])*+(?:"|\\?\Z)')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 and -1 as signed bytes
# JSON text whose strings hold no lone surrogate: an escaped high surrogate is always followed
# by an escaped low one (the pair json.loads joins), and no surrogate is written raw.
_WHOLE_CHARACTERS = re.compile(
    r"(?:[^\\\ud800-\udfff]++|\\[^u]|\\\Z|\\u(?![dD][89a-fA-F])"
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2})*+"
)


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Nesting deeper than `limit`, checked before parsing: Python's JSON parser (and
    canonical_json after it) recurse once per level, so a run of brackets well within any size
    limit would end in a RecursionError (in Pyodide, a blown stack). The brackets outside
    strings become steps of +1 and -1, summed in C: a loop in Python would cost more than
    json.loads itself."""
    outside = _STRING.sub("", text).encode("utf-8", "surrogatepass")
    steps = array("b", outside.translate(_STEPS, _NOT_BRACKETS))
    return max(accumulate(steps), default=0) > limit


def lone_surrogate(text: str) -> bool:
    """Whether JSON text that json.loads read holds a lone surrogate in a string or a key: the
    same answer as `check_text` on what it read, found in one pass over the text instead of a
    walk over every value read from it."""
    found = _WHOLE_CHARACTERS.match(text)
    return found is None or found.end() != len(text)


def load_json(text: str) -> Json:
    """json.loads with the cycle collector paused: what it builds holds no cycles, and a
    collector pass after every few hundred new lists or objects made a text of many small ones
    up to seven times slower to read."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return json.loads(text)
    finally:
        if collecting:
            gc.enable()


def parse_json(text: str, what: str) -> Json:
    """JSON read from outside (a save, a file, a link), refused as malformed with a sentence
    naming `what` if it is too large, is not JSON, nests too deep, or holds a character that is
    not one. Every step takes time linear in the text's length."""
    if len(text) > MAX_TEXT:
        raise MalformedInput(f"{what} is too large to read.")
    if too_deep(text):
        raise MalformedInput(f"{what} nests deeper than {MAX_DEPTH} levels.")
    try:
        data = load_json(text)
    except ValueError:
        raise MalformedInput(f"{what} is not valid JSON.") from None
    if lone_surrogate(text):
        raise MalformedInput(NOT_TEXT)
    return data


def canonical_json(value: Json) -> bytes:
    """The one byte string that stands for `value` in every hash."""
    _check_canonical(value)
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return utf8(text)


def field(data: bytes | str) -> bytes:
    """One length-prefixed field."""
    raw = utf8(data) if isinstance(data, str) else bytes(data)
    return len(raw).to_bytes(4, "big") + raw


def encode_fields(fields: Iterable[bytes | str]) -> bytes:
    return b"".join(field(f) for f in fields)


def digest(fields: Iterable[bytes | str]) -> bytes:
    """SHA-256 over the length-prefixed fields."""
    return hashlib.sha256(encode_fields(fields)).digest()
