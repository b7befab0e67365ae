"""The worker's browser glue never stops the app: a worker without IndexedDB or WebCrypto (an old
browser, storage refused, a context without them) still imports py/ui/webcrypto.py and plays
unsigned, and a worker that cannot import it at all still plays pass-and-play and bots."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import types

import pytest


def _fake_module(name: str, **attrs: object) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


@pytest.fixture
def bare_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's `js` with none of IndexedDB and WebCrypto, and Pyodide's `ffi` as a fake."""
    monkeypatch.setitem(sys.modules, "js", _fake_module("js", Object=object, Uint8Array=bytes))
    ffi = _fake_module("pyodide.ffi", create_proxy=lambda f: f, to_js=lambda v, **_: v)
    monkeypatch.setitem(sys.modules, "pyodide", _fake_module("pyodide", ffi=ffi))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    monkeypatch.delitem(sys.modules, "ui.webcrypto", raising=False)
    monkeypatch.delitem(sys.modules, "worker", raising=False)


def test_a_worker_without_indexeddb_or_webcrypto_imports_the_keyring_and_plays_unsigned(
    bare_worker: None,
) -> None:
    webcrypto = importlib.import_module("ui.webcrypto")
    keyring = webcrypto.Keyring()
    asyncio.run(keyring.start())
    assert keyring.db is None and keyring.fresh() is None  # unsigned: version 1
    worker = importlib.import_module("worker")
    assert worker.FAULT is None and worker.keyring is not None
    assert worker.app.lean  # the page is sent a redraw's changes without its whole HTML
    out = json.loads(asyncio.run(worker.call(json.dumps({"op": "start", "local": {}}))))
    assert "error" not in out


def test_a_worker_that_cannot_import_its_keyring_still_plays(
    bare_worker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ui.webcrypto", None)  # importing it fails
    worker = importlib.import_module("worker")
    assert worker.FAULT is None and worker.keyring is None
    out = json.loads(asyncio.run(worker.call(json.dumps({"op": "start", "local": {}}))))
    assert "error" not in out
    out = json.loads(asyncio.run(worker.call(json.dumps({"op": "route", "hash": "#new-esp"}))))
    assert "error" not in out
