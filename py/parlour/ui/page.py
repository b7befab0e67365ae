"""What the worker asks the page to do, as data (pure): the one shape that crosses back.

The engines, sessions and screens run in a worker, which has no DOM, no storage and no data
channels. Every call from the page's main thread returns one `Effects`: HTML for regions of the
page, storage writes, an address to go to, texts to send over links, link operations to run.
The main thread applies them in order and does nothing else (docs/two-threads.md).
"""

from __future__ import annotations

from typing import Any

from parlour.errors import MalformedInput
from parlour.fair.encoding import Json, parse_json
from parlour.ui.redraw import Drawn
from parlour.ui.tree import Node, to_html

ANNOUNCER = "#announcer"  # the page's one live region, outside every redrawn region
DAMAGED = ":damaged"  # after a key: the text that stood there and could not be read, kept
LISTS = (
    "render",
    "local",
    "session",
    "send",
    "links",
    "attrs",
    "text",
    "later",
    "download",
    "patch",
)


def within(root: str, selector: str) -> str:
    """`selector` (a list, "a, b") looked for inside `root` only: where focus may go. A comma
    inside [brackets] (a cell's "1,0") is not a list's."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(selector):
        depth += (c == "[") - (c == "]")
        if c == "," and depth == 0:
            parts.append(selector[start:i])
            start = i + 1
    parts.append(selector[start:])
    return ", ".join(f"{root} {part.strip()}" for part in parts)


class Effects:
    """The effects of one call, in the JSON form the main thread reads."""

    def __init__(self, drawn: Drawn | None = None, lean: bool = False) -> None:
        self.render: list[list[str]] = []  # [selector, html]: the region's new content
        # selector -> [stamp, base stamp, patches]: the same content by its changed parts
        # (parlour.ui.redraw), where the page keeps the drawings (`drawn`)
        self.patch: dict[str, list[object]] = {}
        self.drawn = drawn
        # `lean`: a region sent by its changes goes without its whole HTML (the page asks for
        # it, op "whole", in the rare case the changes do not fit what it holds)
        self.lean = lean
        self._before: dict[str, tuple[int, Node] | None] = {}  # each region's drawing at start
        self.local: dict[str, str | None] = {}  # localStorage writes (None removes)
        self.session: dict[str, str | None] = {}  # sessionStorage writes
        self.go: str | None = None  # replace the address's #fragment
        self.send: list[list[str]] = []  # [link id, text]
        self.links: list[dict[str, Any]] = []  # link operations (make an offer, close, ...)
        self.focus: str | None = None  # a selector to give the keyboard focus to
        self.attrs: dict[str, str | None] = {}  # <html data-*> values (None removes)
        self.ticking: bool | None = None  # whether the main thread should tick twice a second
        self.text: list[list[str]] = []  # [selector, text]: a plain text to set
        self.later: list[list[Any]] = []  # [milliseconds, request]: ask again after a pause
        self.download: list[list[str]] = []  # [file name, text]: a file for the browser to save
        # the page to its top: a game began on the screen shown (no route: the online host's
        # game opened mid-page, where the invites had been scrolled to)
        self.top: bool | None = None

    def draw(self, selector: str, tree: Node) -> None:
        """Replace a region's content; a later draw of the same region wins."""
        html = to_html(tree)
        self.render = [r for r in self.render if r[0] != selector] + [[selector, html]]
        if self.drawn is not None:
            if selector not in self._before:
                self._before[selector] = self.drawn.trees.get(selector)
            self.patch[selector] = self.drawn.draw(selector, tree, self._before[selector])

    def whole(self, selector: str) -> None:
        """The region's last drawing whole, for a page that could not make its changes (it
        holds another drawing): drawn as it is, with its stamp."""
        kept = self.drawn.trees.get(selector) if self.drawn is not None else None
        if kept is not None:
            self.render = [r for r in self.render if r[0] != selector] + [
                [selector, to_html(kept[1])]
            ]
            self.patch[selector] = [kept[0], None, ""]

    def announce(self, said: str) -> None:
        """Have the page's live region (#announcer) say `said`: each move in a sentence."""
        if said:
            self.text = [t for t in self.text if t[0] != ANNOUNCER] + [[ANNOUNCER, said]]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for name in LISTS:
            if getattr(self, name):
                data[name] = getattr(self, name)
        if self.lean and self.render:
            data["render"] = [
                [selector, None if self.patch.get(selector, [0, None])[1] is not None else html]
                for selector, html in self.render
            ]
        for name in ("go", "focus", "ticking", "top"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        return data


class Storage:
    """The worker's copy of the page's storage, kept in step with the real one: the page sends
    it all at start (and every change another tab makes), the worker's writes go back as
    effects. `local` is the browser's localStorage, `tab` this tab's sessionStorage.

    The copy holds what the worker wants kept; the page says which writes the browser refused
    (`unsaved`, and `why`: "full" or "refused"), so the player is told the game is not saved
    rather than finding it gone after a reload. Every read of stored data goes through `read`,
    the one parser with limits; what it cannot read is moved aside (`set_aside`), never lost,
    and `damaged` keeps a sentence for the player naming it."""

    def __init__(self, local: dict[str, str], tab: dict[str, str]) -> None:
        self.values = {"local": dict(local), "session": dict(tab)}
        self.effects = Effects()
        self.unsaved: list[str] = []  # keys whose last write the browser refused
        self.why = ""  # "full", "refused", or "" while every write lands
        self.damaged: list[str] = []  # sentences: what could not be read and was set aside

    def get(self, key: str, area: str = "local") -> str | None:
        return self.values[area].get(key)

    def set(self, key: str, value: str | None, area: str = "local") -> None:
        if value is None:
            self.values[area].pop(key, None)
        else:
            self.values[area][key] = value
        writes = self.effects.local if area == "local" else self.effects.session
        writes[key] = value

    def remove(self, key: str, area: str = "local") -> None:
        self.set(key, None, area)

    def read(self, key: str, what: str, area: str = "local") -> Json:
        """The JSON stored at `key` (None when there is none). Text that is not JSON, nests too
        deep or holds a character that is not one is moved aside and read as None."""
        raw = self.get(key, area)
        if raw is None:
            return None
        try:
            return parse_json(raw, what)
        except MalformedInput:
            self.set_aside(key, what, area)
            return None

    def set_aside(self, key: str, what: str, area: str = "local") -> None:
        """Move what `key` holds to `key:damaged` (or `:damaged:2`..., never over an earlier
        one), so the page goes on without it and nothing is deleted; tell the player."""
        raw = self.get(key, area)
        if raw is None:
            return
        aside, n = key + DAMAGED, 2
        while self.get(aside, area) is not None:
            aside, n = f"{key}{DAMAGED}:{n}", n + 1
        self.set(aside, raw, area)
        self.remove(key, area)
        self.damaged.append(
            f"{what} could not be read, so it was set aside (kept in this browser, not deleted)"
            " and the page goes on without it."
        )

    def changed_elsewhere(self, key: str, value: str | None) -> None:
        """Another tab wrote localStorage (the page's `storage` event): no effect to send."""
        if value is None:
            self.values["local"].pop(key, None)
        else:
            self.values["local"][key] = value
