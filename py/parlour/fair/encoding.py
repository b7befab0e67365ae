"""Unambiguous byte encodings shared by every hash in the project.

Why length prefixes: concatenating fields lets ("ab", "c") and ("a", "bc") hash alike. Every field
here is written as a 4-byte big-endian length and then its bytes. Values are written as canonical
JSON (sorted keys, no spaces, UTF-8), restricted to types every implementation writes the same
way: null, booleans, integers, strings, lists and objects with string keys. No floats.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
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


def canonical_json(value: Json) -> bytes:
    """The one byte string that stands for `value` in every hash."""
    _check_canonical(value)
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def field(data: bytes | str) -> bytes:
    """One length-prefixed field."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return len(raw).to_bytes(4, "big") + raw


def encode_fields(fields: Iterable[bytes | str]) -> bytes:
    return b"".join(field(f) for f in fields)


def digest(fields: Iterable[bytes | str]) -> bytes:
    """SHA-256 over the length-prefixed fields."""
    return hashlib.sha256(encode_fields(fields)).digest()
