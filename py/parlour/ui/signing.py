"""Signed play around a call (webcrypto.py): before it, the signatures a request carries, for
the page to check with WebCrypto; after it, what waits to be signed with this device's key
pair, and the same call's effects once it is signed. The app hands itself over as `Signs`."""

from __future__ import annotations

import json
import traceback
from typing import TYPE_CHECKING, Any, Protocol

from parlour.ui.page import Effects

if TYPE_CHECKING:
    from parlour.fair.signing import Signed, Signer
    from parlour.ui.by_link.app import LinkGames
    from parlour.ui.online.app import OnlineController
    from parlour.ui.replays.app import Replays

LINK_SAVE = "psi-parlour:link:"  # then a match id: a game by link (ui/by_link/app.py's SAVE)


class Signs(Protocol):
    """The app, as signed play sees it: online play, play by link, the replay viewer."""

    online: OnlineController | None

    @property
    def effects(self) -> Effects: ...

    def links(self) -> LinkGames: ...

    def made_links(self) -> LinkGames | None: ...

    def replays(self) -> Replays: ...


def signature_checks(app: Signs, text: str) -> list[tuple[str, bytes, bytes, bytes]]:
    """The signatures a request's message carries, as (algorithm, key, signed bytes,
    signature), for the page to check with WebCrypto before the call; none for the rest."""
    try:
        request = json.loads(text)
    except ValueError:
        return []
    online = app.online
    if isinstance(request, dict) and (by_link := link_checks(app, request)) is not None:
        return by_link
    if isinstance(request, dict) and request.get("op") == "route":
        return app.replays().signature_checks(str(request.get("hash", "")))
    if not isinstance(request, dict) or request.get("op") != "link" or online is None:
        return []
    candidate = online.find(request.get("link"))
    message = request.get("text")
    if candidate is None:
        return []
    return online.session.signature_checks(message)


def link_checks(app: Signs, request: dict[str, Any]) -> list[Any] | None:
    """Play by link's signatures to check first: a link opened, an invite joined, and at
    the start every game by link kept here (None: the request is not one of those)."""
    hash_ = str(request.get("hash", ""))
    op, region = request.get("op"), request.get("region")
    if op == "start":
        local = request.get("local")
        from_storage = isinstance(local, dict) and any(
            isinstance(k, str) and k.startswith(LINK_SAVE) for k in local
        )
        return app.links().saved_checks(local) if from_storage and isinstance(local, dict) else None
    data = request.get("data")
    if op == "click" and region == "online" and isinstance(data, dict):
        online = app.online
        if online is None or data.get("cmd") not in ("carry-on", "carry-join"):
            return None
        from parlour.match.by_link.live import carry_checks, host_checks  # on first use

        if data["cmd"] == "carry-on":
            return host_checks(online.session)  # the live proofs of the moves it carries
        fields = data.get("fields")
        pasted = fields.get("carry-link") if isinstance(fields, dict) else None
        return carry_checks(online.session, str(pasted or "").split())
    opening = hash_.startswith(("#pl=", "#bylink"))
    if (op == "route" and opening) or (op == "click" and region == "bylink"):
        return app.links().checks(request)
    return None


def pending_signatures(app: Signs) -> tuple[Signer | None, list[tuple[Signed, bytes]]]:
    """What this device's online game (or game by link) waits to sign, with the exact
    bytes of each, and the key pair it signs with."""
    links = app.made_links()
    if links is not None:
        signer, pending = links.pending()
        if pending:
            return signer, pending
    session = app.online.session if app.online is not None else None
    if session is None or session.crypto is None:
        return None, []
    return session.crypto.signer, session.pending_signatures()


def after_signing(app: Signs) -> str:
    """After the page signed what waited: the same call's effects, now with the messages
    that waited for their signatures, and the save that has them."""
    try:
        if app.online is not None:
            app.online.after(signed=True)
        links = app.made_links()
        if links is not None:
            links.after_signing()
        out = app.effects.to_json()
    except Exception:
        out = {**app.effects.to_json(), "error": traceback.format_exc()}
    return json.dumps(out)
