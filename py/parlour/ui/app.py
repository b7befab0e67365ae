"""The app in the page (browser only): routes, one delegated listener per play screen, storage.

Everything it does is: read the event into plain strings, hand them to the pure session, draw
the tree the session returns, save. The home screen, rules and set-up forms are plain HTML and
work before this runs; a "#start-<game>" link clicked early just waits until Python is here.
"""

from __future__ import annotations

import json
from importlib import import_module
from typing import TYPE_CHECKING

from pyscript import document, window
from pyscript.ffi import create_proxy

from parlour.ui import dom
from parlour.ui.dom import value

if TYPE_CHECKING:
    from parlour.match.table import Table
    from parlour.ui.play import PlaySession

# The games' engines and screens are imported on first use, not at start-up: the home screen
# needs none of them, and every module imported before data-ready delays it.
SCREENS = {
    "esp": "parlour.ui.esp_screen:EspScreen",
    "espeers": "parlour.ui.espeers_screen:EspeersScreen",
    "psi-squad": "parlour.ui.psi_screen:PsiScreen",
    "telepathic": "parlour.ui.tele_screen:TeleScreen",
}
TYPED_KEYS = {"Backspace", "Enter", *"0123456789"}
STORAGE = "psi-parlour:{game}:pass-and-play"
DECKS_STORAGE = "psi-parlour:espeers:decks"
ARROW_KEYS = {"ArrowLeft": -1, "ArrowUp": -1, "ArrowRight": 1, "ArrowDown": 1}
sessions: dict[str, PlaySession] = {}
_proxies: list = []  # keep every proxy handed to JS alive


def start() -> None:
    """Take over the page. Kept light: nothing heavy runs at start-up."""
    listen(window, "hashchange", lambda _event: route())
    listen(document, "keydown", on_document_key)
    for game_id in SCREENS:
        root = _root(game_id)
        listen(root, "click", lambda event, g=game_id: on_click(g, event))
        form = document.getElementById(f"new-{game_id}")
        listen(form, "keydown", lambda event, g=game_id: on_setup_key(g, event))
        listen(form, "input", on_setup_input)
        listen(
            document.getElementById(f"start-{game_id}"),
            "click",
            lambda event, g=game_id: on_start_click(g, event),
        )
        _mark_resumable(game_id)
    listen(_builder_root(), "click", on_builder_click)
    listen(document.querySelector("#online .online-root"), "click", _online_click)
    mark_online_resumable()
    route()
    document.documentElement.dataset.ready = "true"


def listen(target, name: str, handler) -> None:
    proxy = create_proxy(handler)
    _proxies.append(proxy)
    target.addEventListener(name, proxy)


def _root(game_id: str):
    return document.querySelector(f"#play-{game_id} .play-root")


# -- routes -------------------------------------------------------------------------------


def route() -> None:
    hash_ = str(window.location.hash)
    document.documentElement.removeAttribute("data-joining")
    if hash_.startswith("#join="):
        _online().guest_new(hash_[1:])
        return
    if hash_ == "#online":
        _online().show()
        return
    if hash_.startswith("#host-") and hash_[6:] in SCREENS:
        _online().host_new(hash_[6:])
        return
    if hash_ == "#decks-espeers":
        draw_builder()
        return
    if hash_ == "#new-espeers":
        fill_deck_choices()
        return
    for game_id in SCREENS:
        if hash_ == f"#start-{game_id}":
            start_new(game_id)
            return
        if hash_ == f"#play-{game_id}":
            if game_id not in sessions and not resume(game_id):
                go(f"#new-{game_id}")
                return
            draw(game_id)
            return


def go(hash_: str) -> None:
    """Replace the current screen's address (so Back skips it); `:target` and hashchange follow."""
    window.location.replace(hash_)


def screen_for(game_id: str):
    module, name = SCREENS[game_id].split(":")
    return getattr(import_module(module), name)()


def _session(table: Table, game_id: str) -> PlaySession:
    from parlour.ui.play import PlaySession

    return PlaySession(table, screen_for(game_id))


def start_new(game_id: str, confirmed: bool = False) -> None:
    """The set-up form's "Start the game". A game in progress saved on this device is never
    lost without the player saying so: first ask, in the start screen."""
    if not confirmed:
        from parlour.ui.online_screen import GAME_NAMES
        from parlour.ui.play import replace_game_tree, saved_summary

        summary = saved_summary(_saved_json(game_id))
        if summary is not None:
            section = document.getElementById(f"start-{game_id}")
            dom.render(section, replace_game_tree(game_id, GAME_NAMES[game_id], summary))
            return
    names = setup_names(game_id)
    table = new_table(game_id, names, setup_variant(game_id))
    sessions[game_id] = _session(table, game_id)
    save(game_id)
    go(f"#play-{game_id}")


def setup_names(game_id: str) -> tuple[str, ...]:
    """Read the plain-HTML set-up form: the seat count and the names typed in."""
    from parlour.match.config import clean_name

    form = document.getElementById(f"new-{game_id}")
    # The seat count: a "-seats" radio, or the chosen option's data-seats (an arrangement).
    by_option = value(form.querySelector("input[data-seats]:checked"))
    checked = value(form.querySelector("input[name$='-seats']:checked"))
    if by_option is not None:
        count = int(by_option.getAttribute("data-seats"))
    else:
        count = int(checked.value) if checked is not None else 2
    names = []
    for seat in range(count):
        field = value(form.querySelector(f"[data-seat-name='{seat}']"))
        fallback = field.getAttribute("placeholder") if field is not None else f"Seat {seat + 1}"
        names.append(clean_name(field.value if field is not None else "", fallback))
    return tuple(names)


def setup_variant(game_id: str) -> dict:
    """The variant options of the set-up form: checked inputs carrying data-variant."""
    form = document.getElementById(f"new-{game_id}")
    variant = {}
    for field in form.querySelectorAll("input[data-variant]:checked"):
        text = str(field.value)
        variant[str(field.getAttribute("data-variant"))] = int(text) if text.isdigit() else text
    decks = form.querySelectorAll("select[data-deck-seat]")
    if decks.length:
        variant["decks"] = chosen_decks(decks)
    return variant


def new_table(game_id: str, names: tuple[str, ...], variant: dict | None = None) -> Table:
    from parlour.games import GAMES
    from parlour.match.config import MatchConfig
    from parlour.match.table import Table, new_match_id

    config = MatchConfig(game_id, new_match_id(), names, variant or {})
    import secrets  # here, not at start-up: it brings random, hmac and hashlib

    return Table.new(GAMES[game_id], config, secrets.token_bytes(32), range(len(names)))


# -- events -------------------------------------------------------------------------------


def event_data(element) -> dict:
    data = {}
    for attr in (
        "cmd",
        "cell",
        "symbol",
        "face",
        "accept",
        "digit",
        "seat",
        "note",
        "slot",
        "set",
        "name",
        "card",
        "amount",
    ):
        found = value(element.getAttribute(f"data-{attr}"))
        if found is not None:
            data[attr] = str(found)
    return data


def on_click(game_id: str, event) -> None:
    element = value(event.target.closest("[data-cmd],[data-cell]"))
    if element is None or element.hasAttribute("disabled"):
        return
    dispatch(game_id, {**event_data(element), "fields": fields_of(_root(game_id))})


def on_document_key(event) -> None:
    """Keys go to the game on screen, wherever the focus is (typing digits needs no aiming)."""
    hash_ = str(window.location.hash)
    if hash_ == "#online":
        from parlour.ui import online_app

        online_app.on_key(event)
        return
    for game_id in SCREENS:
        if hash_ == f"#play-{game_id}" and game_id in sessions:
            on_key(event, _root(game_id), lambda data, g=game_id: dispatch(g, data))
            return


def on_key(event, root, send) -> None:
    """A key on a play screen: arrows along a row or across the ESP board, Enter and Space on a
    cell, digits and Enter typed anywhere else (`send` takes the event for the session)."""
    key = str(event.key)
    element = event.target
    cell = value(element.getAttribute("data-cell")) if hasattr(element, "getAttribute") else None
    if key in ARROW_KEYS and _roving(element, ARROW_KEYS[key]):
        event.preventDefault()
        return
    if cell is None:
        typing = str(getattr(element, "tagName", "")) in ("INPUT", "TEXTAREA", "SELECT")
        if key in TYPED_KEYS and not typing:
            if key == "Enter" and str(element.tagName) in ("BUTTON", "A"):
                return  # Enter on a button or link is that control's own click
            event.preventDefault()
            send({"cmd": "key", "key": key})
        return
    if key in ("Enter", " "):
        event.preventDefault()
        send({"cell": str(cell)})
    elif key.startswith("Arrow"):
        from parlour.ui.esp_board import next_focus, parse_key

        event.preventDefault()
        cells = [
            parse_key(str(el.getAttribute("data-cell")))
            for el in root.querySelectorAll("[data-cell]")
        ]
        target = next_focus([c for c in cells if c], parse_key(str(cell)), key)
        if target is not None:
            found = value(root.querySelector(f'[data-cell="{target[0]},{target[1]}"]'))
            if found is not None:
                found.focus()


def on_setup_key(game_id: str, event) -> None:
    if str(event.key) == "Enter" and str(event.target.tagName) == "INPUT":
        event.preventDefault()
        start_new(game_id)


def on_setup_input(event) -> None:
    """Say so when a typed or pasted name reaches the length a name keeps (the field's
    maxlength cuts the rest without a word)."""
    field = event.target
    if value(field.getAttribute("data-seat-name")) is None:
        return
    form = field.closest("form, section")
    full = any(
        len(str(f.value)) >= int(f.getAttribute("maxlength") or 24)
        for f in form.querySelectorAll("[data-seat-name]")
    )
    note = value(form.querySelector("[data-role=name-limit]"))
    if note is not None:
        note.hidden = not full


def dispatch(game_id: str, data: dict) -> None:
    session = sessions.get(game_id)
    if session is None:
        return
    if data.get("cmd") == "rematch":
        config = session.table.match.config
        table = new_table(game_id, config.seats, dict(config.variant))
        sessions[game_id] = _session(table, game_id)
    else:
        session.handle(data)
    save(game_id)
    draw(game_id)


def draw(game_id: str) -> None:
    root = _root(game_id)
    dom.render(root, sessions[game_id].render())
    scroll_log(root)


def scroll_log(root) -> None:
    """Keep the newest move of the game log in sight (the log scrolls on its own)."""
    log = value(root.querySelector("[data-role=log]"))
    if log is not None:
        log.scrollTop = log.scrollHeight


# -- storage: a reload loses nothing ---------------------------------------------------------


def save(game_id: str) -> None:
    session = sessions[game_id]
    key = STORAGE.format(game=game_id)
    if session.table.match.result() is not None and not session.result_open:
        window.localStorage.removeItem(key)
    else:
        window.localStorage.setItem(key, json.dumps(session.to_json()))
    _mark_resumable(game_id)


def _saved_json(game_id: str) -> object:
    raw = value(window.localStorage.getItem(STORAGE.format(game=game_id)))
    try:
        return json.loads(str(raw)) if raw is not None else None
    except ValueError:
        return None


def on_start_click(game_id: str, event) -> None:
    element = value(event.target.closest("[data-cmd=replace-game]"))
    if element is not None:
        sessions.pop(game_id, None)
        start_new(game_id, confirmed=True)


def resume(game_id: str) -> bool:
    from parlour.errors import ParlourError
    from parlour.match.table import Table

    raw = value(window.localStorage.getItem(STORAGE.format(game=game_id)))
    if raw is None:
        return False
    try:
        saved = json.loads(str(raw))
        table = Table.from_json(saved["table"])
        notes = {int(k): v for k, v in saved.get("notes", {}).items() if isinstance(v, dict)}
    except (ParlourError, ValueError, TypeError, KeyError, AttributeError):
        window.localStorage.removeItem(STORAGE.format(game=game_id))
        return False
    session = _session(table, game_id)
    session.notes = notes
    sessions[game_id] = session
    return True


def _mark_resumable(game_id: str) -> None:
    """Show "Resume" and "Back to your game" links while a saved game waits."""
    saved = value(window.localStorage.getItem(STORAGE.format(game=game_id))) is not None
    for link in document.querySelectorAll(f"[data-resume='{game_id}']"):
        link.hidden = not saved


def fields_of(root) -> dict:
    """What the player typed into the screen's own inputs (`data-field`), as plain strings."""
    return {
        str(el.getAttribute("data-field")): str(el.value)
        for el in root.querySelectorAll("[data-field]")
    }


def _roving(element, step: int) -> bool:
    """Arrow keys move the focus along a row of controls (`data-roving`), e.g. a hand of cards;
    Tab then leaves the row in one step."""
    if not hasattr(element, "closest"):
        return False
    group = value(element.closest("[data-roving]"))
    if group is None:
        return False
    items = list(group.querySelectorAll("button"))
    index = next((i for i, el in enumerate(items) if el.isSameNode(element)), None)
    if index is None or not 0 <= index + step < len(items):
        return True
    items[index].setAttribute("tabindex", "-1")
    items[index + step].setAttribute("tabindex", "0")
    items[index + step].focus()
    return True


# -- the ESPEERS deck builder and the decks of a new game -----------------------------------------


builder = None


def _builder_root():
    return document.querySelector("#decks-espeers .builder-root")


def saved_decks_raw() -> object:
    raw = value(window.localStorage.getItem(DECKS_STORAGE))
    try:
        return json.loads(str(raw)) if raw is not None else {}
    except ValueError:
        return {}


def _builder():
    global builder
    if builder is None:
        from parlour.ui.espeers_decks import DeckBuilder

        builder = DeckBuilder.from_json(saved_decks_raw())
    return builder


def draw_builder() -> None:
    dom.render(_builder_root(), _builder().render())


def on_builder_click(event) -> None:
    element = value(event.target.closest("[data-cmd]"))
    if element is None or element.hasAttribute("disabled"):
        return
    _builder().handle({**event_data(element), "fields": fields_of(_builder_root())})
    window.localStorage.setItem(DECKS_STORAGE, json.dumps(_builder().to_json()))
    draw_builder()


def fill_deck_choices() -> None:
    """Offer the decks saved in this browser next to the starter decks of the set-up form."""
    from parlour.ui.espeers_decks import deck_choices, saved_decks

    choices = deck_choices(saved_decks(saved_decks_raw()))
    for select in document.querySelectorAll("#new-espeers select[data-deck-seat]"):
        keep = str(select.value)
        select.replaceChildren()
        for option_value, label in choices:
            option = document.createElement("option")
            option.value = option_value
            option.textContent = label
            select.appendChild(option)
        values = [v for v, _ in choices]
        default = str(select.getAttribute("data-default"))
        select.value = keep if keep in values else default


def chosen_decks(selects) -> list:
    """The set-up form's deck choices, in seat order, as the game's variant wants them."""
    from parlour.ui.espeers_decks import resolve_choice, saved_decks

    saved = saved_decks(saved_decks_raw())
    decks = []
    for select in sorted(selects, key=lambda el: str(el.getAttribute("data-deck-seat"))):
        choice = resolve_choice(str(select.value), saved)
        decks.append(
            choice
            if choice is not None
            else str(select.getAttribute("data-default")).partition(":")[2]
        )
    return decks


# -- online play: its module is imported on first use (it pulls in the engines) ------------------

ONLINE_SAVE = "psi-parlour:online"
ONLINE_LAST = ONLINE_SAVE + ":last"


def _online():
    from parlour.ui import online_app

    return online_app


def _online_click(event) -> None:
    _online().on_click(event)


def mark_online_resumable() -> None:
    last = value(window.localStorage.getItem(ONLINE_LAST))
    saved = last is not None and value(window.localStorage.getItem(str(last))) is not None
    for link in document.querySelectorAll("[data-resume='online']"):
        link.hidden = not saved
