"""What the player is told about the browser's storage (pure): one sentence each, above every
screen, so a game that is not being saved, or a save that could not be read, never goes by in
silence.

Full storage also offers a way out the player controls: a list of this site's other saves
(games of the other games, online games, copies set aside as damaged, the ESPEERS decks), each
with its own Remove button. The game being played is never listed, and nothing is removed but
what the player picks.
"""

from __future__ import annotations

from typing import Any

from parlour.ui.online.screen import GAME_NAMES
from parlour.ui.page import DAMAGED, Effects, Storage
from parlour.ui.tree import Node, fragment, h, to_html

ROOT = "#storage-note .storage-root"
PREFIX = "psi-parlour:"
ONLINE = PREFIX + "online:"
OWNER = ":owner"
FINISHED = ":finished"  # ui/app.py's mark beside a pass-and-play save whose game is over
DECKS = PREFIX + "espeers:decks"
SENTENCES = {
    "full": "This browser's storage is full: the game goes on but is not saved.",
    "refused": "This browser blocks this page's storage: the game goes on but is not saved.",
}
SAVED_AGAIN = "There is room again: the game is saved."


def label(key: str) -> str | None:
    """What a stored key is, in the player's words; None for the small keys the page needs
    (the list of online games, which one is latest, a STUN setting, a tab's owner mark)."""
    if DAMAGED in key:
        base = label(key.partition(DAMAGED)[0])
        return f"A damaged copy of {base[0].lower() + base[1:]}" if base else None
    if key == DECKS:
        return "Your ESPEERS decks"
    for game_id, name in GAME_NAMES.items():
        if key == f"{PREFIX}{game_id}:pass-and-play":
            return f"Your {name} game on this device"
    parts = key.removeprefix(ONLINE).split(":")
    if key.startswith(ONLINE) and len(parts) == 3 and not key.endswith(OWNER):
        return "An online game"
    return None


def old_saves(storage: Storage, keep: set[str]) -> list[tuple[str, str, int]]:
    """This site's saves the player may remove to make room, largest first: (key, what it is,
    size in KB). `keep` (the game being played) is never among them."""
    found = []
    for key, value in storage.values["local"].items():
        what = label(key)
        if what is not None and key not in keep:
            found.append((key, what, -(-len(value) * 2 // 1024)))  # UTF-16: two bytes a char
    return sorted(found, key=lambda item: (-item[2], item[0]))


def remove_save(storage: Storage, key: str, keep: set[str]) -> bool:
    """The player's Remove on one listed save (with its tab's owner mark, or its mark of a
    finished game). Only a key the list could show, and never one in `keep`."""
    if key in keep or label(key) is None or storage.get(key) is None:
        return False
    storage.remove(key)
    for mark in (OWNER, FINISHED):
        if storage.get(key + mark) is not None:
            storage.remove(key + mark)
    return True


def retry(storage: Storage) -> None:
    """Write again what the browser refused (after room was made): the page says if it fails."""
    for key in storage.unsaved:
        for area in ("local", "session"):
            if key in storage.values[area]:
                storage.set(key, storage.get(key, area), area)


def note_tree(storage: Storage, listing: bool, keep: set[str], said: str = "") -> Node:
    """Everything the player is told about storage now (empty when there is nothing to say)."""
    parts: list[object] = []
    if storage.why in SENTENCES:
        parts.append(
            h(
                "p",
                {"class": "storage-note", "data-role": "storage-" + storage.why},
                SENTENCES[storage.why],
                " ",
                storage.why == "full"
                and not listing
                and button("Clear old saves", cmd="storage-list"),
            )
        )
        if storage.why == "full" and listing:
            parts.append(saves_list(old_saves(storage, keep)))
    elif said:
        parts.append(h("p", {"class": "storage-note", "data-role": "storage-saved"}, said))
    for index, sentence in enumerate(storage.damaged):
        parts.append(
            h(
                "p",
                {"class": "storage-note", "data-role": "storage-damaged"},
                sentence,
                " ",
                button("OK", cmd="storage-dismiss", index=str(index)),
            )
        )
    return fragment(*parts)


def saves_list(saves: list[tuple[str, str, int]]) -> Node:
    if not saves:
        return h(
            "p",
            {"class": "storage-note", "data-role": "storage-none"},
            "No other saves of Psi Parlour are kept in this browser: the rest of its storage "
            "is other data of this site's address, which the browser's settings can clear.",
        )
    return h(
        "div",
        {"class": "storage-note", "data-role": "storage-list"},
        h("p", {}, "Other saves kept in this browser; remove any you no longer need:"),
        h(
            "ul",
            {},
            [
                h(
                    "li",
                    {},
                    h("span", {}, f"{what} ({size} KB)"),
                    button("Remove", cmd="storage-remove", key=key, aria_label=f"Remove {what}"),
                )
                for key, what, size in saves
            ],
        ),
        button("Close", cmd="storage-close"),
    )


def button(text: str, cmd: str, aria_label: str | None = None, **data: str) -> Node:
    attrs: dict[str, object] = {"type": "button", "class": "button small", "data-cmd": cmd}
    attrs.update({f"data-{name}": value for name, value in data.items()})
    attrs["aria-label"] = aria_label
    return h("button", attrs, text)


class StorageNote:
    """The note as the app keeps it between calls: what it shows now (so an unchanged note is
    not drawn again), whether its list of old saves is open, and a passing word ("saved
    again"). `keep` is always the saves of what is being played now, never offered."""

    def __init__(self) -> None:
        self.html = ""  # what the storage note (#storage-note) shows now
        self.listing = False  # the list of old saves is open
        self.said = ""  # a passing word in the note ("saved again")

    def draw(self, storage: Storage, effects: Effects, keep: set[str]) -> None:
        """Draw the note when what it says changed (most calls: nothing to say)."""
        if not (storage.why or storage.damaged or self.html or self.said):
            return
        tree = note_tree(storage, self.listing, keep, self.said)
        if to_html(tree) != self.html:
            effects.draw(ROOT, tree)
            self.html = to_html(tree)

    def unsaved(self, request: dict[str, Any], storage: Storage) -> None:
        """The page's word on storage: the keys whose last write the browser refused (none:
        every write lands again), and why ("full" or "refused")."""
        keys, why = request.get("keys"), request.get("why")
        storage.unsaved = [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []
        was = storage.why
        storage.why = str(why) if storage.unsaved and why in ("full", "refused") else ""
        if not storage.why:
            self.listing = False
            self.said = SAVED_AGAIN if was == "full" else ""

    def click(
        self, data: dict[str, Any], storage: Storage, effects: Effects, keep: set[str]
    ) -> None:
        cmd = data.get("cmd")
        self.said = ""
        if cmd == "storage-list":
            self.listing = True
            effects.focus = "#storage-note [data-role=storage-list] button"
        elif cmd == "storage-close":
            self.listing = False
        elif cmd == "storage-remove":
            if remove_save(storage, str(data.get("key")), keep):
                retry(storage)
            effects.focus = "#storage-note [data-role=storage-list] button"
        elif cmd == "storage-dismiss":
            index = data.get("index")
            damaged = storage.damaged
            if isinstance(index, str) and index.isdigit() and int(index) < len(damaged):
                damaged.pop(int(index))
