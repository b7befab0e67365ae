"""Online games saved in this browser: the keys they are saved under (one save per game and seat,
the latest few kept), the tab that owns each, the signing keys kept beside them (`Keyring`), and
reading a save back. Online play (online/app.py) and the app both use it."""

from __future__ import annotations

import json
import secrets
from functools import cache
from typing import Any, Protocol

from parlour.errors import MalformedInput
from parlour.fair.encoding import parse_json
from parlour.match.online import OnlineSession
from parlour.match.online.device import Crypto
from parlour.numbers import whole
from parlour.ui.host import Host
from parlour.ui.screens import now

ONLINE_SAVE = "psi-parlour:online"  # then :<match id>:<role>:<seats>, one save per game and seat
ONLINE_LAST = ONLINE_SAVE + ":last"  # the browser's latest online game
TAB_KEY = ONLINE_SAVE + ":tab"  # the game of this tab (sessionStorage survives its reloads)
KEYS = ONLINE_SAVE + ":keys"
KEEP = 8  # online games kept in this browser
UNKEPT_KEY = (
    "This browser would not keep this game's signing key, so a reload cannot continue this "
    "online game: keep this tab open until it ends."
)
OWNER = ":owner"  # after a save key: the tab that plays that game now
SAVED_WHAT = "Your saved online game"


@cache
def this_tab() -> str:
    """This page load's name, for owning a save: drawn at first use, never at import, because
    the engine may start from a memory snapshot of the imported package (docs/deploy.md), and
    every page load restored from it would share a name drawn at import."""
    return secrets.token_hex(6)


class Keyring(Protocol):
    """This browser's signing keys, one key pair per online game it plays, named by the game's
    save key (the page's: WebCrypto key pairs that cannot be exported, kept in IndexedDB, so a
    reload keeps its key; the tests': `cryptography`'s). Without one, play is unsigned."""

    def fresh(self) -> Crypto | None:
        """A new key pair, for a game about to begin here (None: this browser cannot sign)."""
        ...

    def kept(self, name: str) -> Crypto | None:
        """The key pair kept for this game, if any."""
        ...

    def keep(self, name: str, crypto: Crypto) -> None:
        """Keep this key pair for this game (the page writes it to IndexedDB after the call)."""
        ...

    def forget(self, name: str) -> None:
        """This game's save is gone (dropped, or pushed out by newer games): its key pair goes
        too, so the browser keeps no key for a game it can no longer continue."""
        ...

    def checked_signature(
        self, algorithm: str, public: bytes, data: bytes, signature: bytes
    ) -> bool | None:
        """Whether a signature holds, as this browser checked it before the call (None: it
        could not check it: no WebCrypto, or not that algorithm)."""
        ...

    def cannot_keep(self, name: str) -> bool:
        """This browser would not keep this game's key pair (IndexedDB refused or missing): the
        game plays on, but a reload cannot continue it."""
        ...


class SavingHost(Host, Protocol):
    """The app, as saving an online game sees it: storage, and the page's signing keys."""

    keyring: Keyring | None


def remember(app: SavingHost, key: str) -> None:
    """Mark `key` as this tab's game and the browser's latest; forget all but the last few."""
    storage = app.storage
    storage.set(TAB_KEY, key, area="session")
    storage.set(ONLINE_LAST, key)
    app.effects.attrs["online-save"] = key
    kept = storage.read(KEYS, "The list of saved online games")
    keys = [k for k in kept if isinstance(k, str) and k != key] if isinstance(kept, list) else []
    keys.append(key)
    for old in keys[:-KEEP]:
        storage.remove(old)
        if app.keyring is not None:
            app.keyring.forget(old)
    storage.set(KEYS, json.dumps(keys[-KEEP:]))


def forget_save(app: SavingHost, key: str | None) -> None:
    """An online game this browser will not continue live (it carries on by link): its save,
    its tab's mark, its place in the list and its key pair's entry go."""
    if key is None:
        return
    storage = app.storage
    storage.remove(key)
    storage.remove(key + OWNER)
    kept = storage.read(KEYS, "The list of saved online games")
    if isinstance(kept, list) and key in kept:
        storage.set(KEYS, json.dumps([k for k in kept if k != key]))
    if app.keyring is not None:
        app.keyring.forget(key)


def live_save(app: SavingHost, match_id: str) -> tuple[OnlineSession, str] | None:
    """The online game of `match_id` saved in this browser, and its save's key (None if there
    is none, or it cannot be read back): a link that carries it on is opened with it."""
    storage = app.storage
    kept = storage.read(KEYS, "The list of saved online games")
    prefix = f"{ONLINE_SAVE}:{match_id}:"
    for key in reversed(kept if isinstance(kept, list) else []):
        if not isinstance(key, str) or not key.startswith(prefix):
            continue
        data = storage.read(key, SAVED_WHAT)
        crypto = app.keyring.kept(key) if app.keyring is not None else None
        try:
            return load_data(data, crypto)[0], key
        except MalformedInput:
            continue
    return None


def saved_game(app: SavingHost) -> tuple[OnlineSession, dict[int, dict[str, Any]]] | None:
    """The online game saved in this browser, with the seat's private notes; None if none. A
    save that cannot be loaded is set aside (the storage note says so)."""
    storage = app.storage
    key = storage.get(TAB_KEY, area="session") or storage.get(ONLINE_LAST)
    if key is None:
        return None
    data = storage.read(key, SAVED_WHAT)  # one that cannot be read is set aside
    if data is None:
        if app.keyring is not None:
            app.keyring.forget(key)  # no save to sign for: its key goes too
        return None
    try:
        return load_data(data, app.keyring.kept(key) if app.keyring is not None else None)
    except MalformedInput:
        storage.set_aside(key, SAVED_WHAT)
        if app.keyring is not None:
            app.keyring.forget(key)
        return None


def load(raw: str, crypto: Crypto | None = None) -> tuple[OnlineSession, dict[int, dict[str, Any]]]:
    """A save as `OnlineController.save` writes it: the session (a signed one with the key pair
    kept for it), and the seat's private notes (a note that is not one is left out). Anything
    wrong with the session, or a signed save whose key is gone, is MalformedInput."""
    return load_data(parse_json(raw, "That saved online game"), crypto)


def load_data(
    data: object, crypto: Crypto | None = None
) -> tuple[OnlineSession, dict[int, dict[str, Any]]]:
    """`load`, of a save already read from its JSON."""
    if not isinstance(data, dict):
        raise MalformedInput("That is not a saved online game.")
    session = OnlineSession.from_json(data.get("session"), now(), crypto)
    notes = data.get("notes")
    if not isinstance(notes, dict):
        return session, {}
    return session, {
        seat: note
        for key, note in notes.items()
        if (seat := whole(key)) is not None and isinstance(note, dict)
    }
