"""The engine worker's signing keys (signed play, issue 26): WebCrypto and IndexedDB, the only
browser glue of the worker, so the package stays pure.

Each online game played here gets a key pair made by WebCrypto that cannot be exported
(Ed25519 where the browser has it, ECDSA P-256 otherwise), kept in IndexedDB under the game's
save key, so a reload signs with the same key. WebCrypto answers with promises and the app is
synchronous, so each call goes: check the signatures the message carries (`verify` then reads
the answers), the app's call, then sign what waits (`sign` gives None: the record waits) and let
the app send it (`App.after_signing`). Calls run one at a time, in order.

A browser that refuses any of it never breaks a call: `js.crypto` and `js.indexedDB` are read
only inside the steps that use them (a worker without IndexedDB, or with storage refused, still
imports this module); without WebCrypto the page plays unsigned (version 1, docs/online.md), and
a key IndexedDB would not keep is named (`cannot_keep`), so the app can say a reload cannot
continue that game.
"""

import asyncio

import js
from js import Object, Uint8Array
from pyodide.ffi import create_proxy, to_js

from parlour.fair.signing import ED25519, P256
from parlour.match.online.device import Crypto

DB, STORE = "psi-parlour-keys", "keys"
GENERATE = {ED25519: {"name": "Ed25519"}, P256: {"name": "ECDSA", "namedCurve": "P-256"}}
SIGN = {ED25519: {"name": "Ed25519"}, P256: {"name": "ECDSA", "hash": "SHA-256"}}
ROUNDS = 4  # sign-and-send rounds in one call (a send that makes more to sign)


def _js(value):
    return to_js(value, dict_converter=Object.fromEntries)


def _bytes(buffer):
    return Uint8Array.new(buffer).to_bytes()


def _now():
    try:
        return js.performance.now()
    except Exception:
        return None


def _timed(name, started):
    """The time since `started` in the worker's performance timeline, and the time now: each
    WebCrypto call and each part of a call (the bench reads them: signing and verifying per
    move in a real game, and where a call's time goes); a worker without one still signs."""
    try:
        if started is not None:
            js.performance.measure(name, _js({"start": started}))
    except Exception:
        pass
    return _now()


def _done(request, event="success"):
    """An IndexedDB request (or transaction, `event="complete"`) as a future."""
    future = asyncio.get_event_loop().create_future()

    def settle(value, error):
        if not future.done():
            future.set_exception(OSError(error)) if error else future.set_result(value)
        ok.destroy()
        bad.destroy()

    ok = create_proxy(lambda _: settle(getattr(request, "result", None), None))
    bad = create_proxy(lambda _: settle(None, str(getattr(request, "error", "failed"))))
    request.addEventListener(event, ok)
    request.addEventListener("error", bad)
    return future


class PageSigner:
    """One key pair of this browser: its private key never leaves WebCrypto."""

    def __init__(self, algorithm, public_key, pair):
        self.algorithm, self.public_key, self.pair = algorithm, public_key, pair

    def sign(self, data):
        return None  # WebCrypto signs later (`Keyring.sign`): the record waits for it


class Keyring:
    """The app's `Keyring` (ui/online/app.py), on WebCrypto and IndexedDB."""

    def __init__(self):
        self.kept_signers = {}  # save key -> PageSigner
        self.unstored = []  # names to write to IndexedDB after the call
        self.spare = None  # a fresh key pair, made before it is needed
        self.checked = {}  # (algorithm, key, data, signature) -> bool, for one call
        self.imported = {}  # (algorithm, key) -> CryptoKey
        self.db = None
        self.started = False
        self.unkept = set()  # names whose key pair IndexedDB would not keep
        self.forgotten = []  # names to delete from IndexedDB after the call

    # -- what the app asks, synchronously --------------------------------------------------

    def verify(self, algorithm, public, data, signature):
        return self.checked.get((algorithm, public, data, signature)) is True

    def checked_signature(self, algorithm, public, data, signature):
        return self.checked.get((algorithm, public, data, signature))

    def _crypto(self, signer):
        return Crypto(signer, self.verify) if signer is not None else None

    def fresh(self):
        signer, self.spare = self.spare, None
        return self._crypto(signer)

    def kept(self, name):
        return self._crypto(self.kept_signers.get(name))

    def keep(self, name, crypto_):
        if name not in self.kept_signers:
            self.kept_signers[name] = crypto_.signer
            self.unstored.append(name)
            if self.db is None:
                self.unkept.add(name)  # no store opened here: it cannot outlive the page

    def forget(self, name):
        self.kept_signers.pop(name, None)
        self.unkept.discard(name)
        self.unstored = [n for n in self.unstored if n != name]
        self.forgotten.append(name)

    def cannot_keep(self, name):
        return name in self.unkept

    # -- what the worker does around a call ------------------------------------------------

    async def start(self):
        """Open the store and read every kept key pair, and make a spare one. A browser that
        cannot (no WebCrypto outside a secure page, no IndexedDB) plays unsigned."""
        self.started = True
        try:
            opening = js.indexedDB.open(DB, 1)
            opening.onupgradeneeded = create_proxy(
                lambda _: opening.result.createObjectStore(STORE)
            )
            self.db = await _done(opening)
            store = self.db.transaction(STORE, "readonly").objectStore(STORE)
            # both asked at once: a transaction ends when a task passes with nothing asked
            names_asked, values_asked = _done(store.getAllKeys()), _done(store.getAll())
            names, values = (await names_asked).to_py(), await values_asked
            for i, name in enumerate(names):
                value = values[i]
                self.kept_signers[str(name)] = PageSigner(
                    str(value.algorithm), _bytes(value.publicKey), value
                )
        except Exception:
            self.db = None  # keys are not kept: a reload starts afresh
        await self.refill()

    async def refill(self):
        if self.spare is not None:
            return
        for algorithm in (ED25519, P256):
            try:
                pair = await js.crypto.subtle.generateKey(
                    _js(GENERATE[algorithm]), False, _js(["sign", "verify"])
                )
                public = _bytes(await js.crypto.subtle.exportKey("raw", pair.publicKey))
            except Exception:
                continue  # no Ed25519 here: P-256
            value = _js({"algorithm": algorithm, "publicKey": to_js(public)})
            value.privateKey = pair.privateKey
            self.spare = PageSigner(algorithm, public, value)
            return

    async def check(self, checks):
        self.checked = {}
        for check in checks:
            self.checked[check] = await self._verify(*check)

    async def _verify(self, algorithm, public, data, signature):
        try:
            key = self.imported.get((algorithm, public))
            if key is None:
                params = _js(GENERATE[algorithm])
                key = await js.crypto.subtle.importKey(
                    "raw", to_js(public), params, True, _js(["verify"])
                )
                self.imported[(algorithm, public)] = key
            started = _now()
            held = await js.crypto.subtle.verify(
                _js(SIGN[algorithm]), key, to_js(signature), to_js(data)
            )
            _timed("parlour-verify", started)
            return bool(held)
        except Exception:
            return None  # a key this browser cannot read: not checked (never taken as forged)

    async def sign(self, signer, pending):
        """Sign each record that waits, with this game's key pair (`PageSigner`)."""
        algorithm = _js(SIGN[signer.algorithm])
        for record, data in pending:
            try:
                started = _now()
                signature = await js.crypto.subtle.sign(
                    algorithm, signer.pair.privateKey, to_js(data)
                )
                _timed("parlour-sign", started)
            except Exception:
                return  # it waits, and is tried again with the next call
            record.signature = _bytes(signature)

    async def settle(self):
        """After the call: write new key pairs to IndexedDB, and make the next spare."""
        names, self.unstored = self.unstored, []
        gone, self.forgotten = self.forgotten, []
        if self.db is not None and (names or gone):
            try:
                transaction = self.db.transaction(STORE, "readwrite")
                store = transaction.objectStore(STORE)
                for name in names:
                    store.put(self.kept_signers[name].pair, name)
                for name in gone:
                    store.delete(name)
                await _done(transaction, "complete")
            except Exception:
                # not kept: the app says a reload cannot continue this game (`cannot_keep`)
                self.unkept.update(names)
        self.checked = {}
        await self.refill()


async def call(app, keyring, text):
    """One request, with the signatures it carries checked first and what it makes signed."""
    if not keyring.started:
        await keyring.start()
        app.keyring = keyring
    started = _now()
    await keyring.check(app.signature_checks(text))
    checked = _timed("parlour-call-check", started)
    out = app.call(text)
    called = _timed("parlour-call-app", checked)
    for _ in range(ROUNDS):
        signer, pending = app.pending_signatures()
        if not pending:
            break
        await keyring.sign(signer, pending)
        called = _timed("parlour-call-sign", called)
        out = app.after_signing()
        called = _timed("parlour-call-after-signing", called)
    await keyring.settle()
    _timed("parlour-call-settle", called)
    return out
