"""The main thread's side of the worker: requests out, effects in, nothing lost before it starts.

Every request is a plain dict, sent as JSON to the worker's one exported function `call`, which
answers with the effects as JSON. The page's JS reads that JSON first and keeps its bulk (a save,
a drawing, a redraw's changes, each named here by a short string: assets/answers.mjs), which
MicroPython was slow to read; `release` lets go of it once the answer is applied. Requests made
before the worker is ready (the engines take seconds to load; the page answers clicks in a
fraction of that) wait in order and go out the moment it is, each once. Effects are applied in
the order the requests were made.
"""

import asyncio
import json

from shell import dom, env

STORAGE_PREFIX = "psi-parlour:"


def focus_asked(target, cards):
    """The focus an answer asked for (a screen's heading, a control), once its writes are made:
    scrolled to unless a card opens, which is scrolled to after."""
    if not dom.may_take_focus():
        return
    if str(target.tagName) in ("H1", "H2", "H3") and not target.hasAttribute("tabindex"):
        target.setAttribute("tabindex", "-1")  # a heading takes the focus only so
    dom.focus(target, scroll=not cards or dom.embedded())


class Bridge:
    def __init__(self, links=None):
        self.worker = None
        self.waiting = []  # requests made before the worker was ready, in order
        self.links = links
        self.ticking = False
        self.on_error = None  # shows a fault the worker reported
        self.after_effects = []  # callables run after each set of effects (resume links...)
        self.in_flight = 0
        self.unsaved = {}  # key -> "full" or "refused": the keys whose last write failed
        self.after_route = None  # called with a route's request and effects once they are done

    @property
    def ready(self):
        return self.worker is not None

    def request(self, data):
        """Send `data` to the worker (or keep it until the worker is ready)."""
        self.pending(1)
        if self.worker is None:
            self.waiting.append(data)
            return
        env.spawn(self._call(data))

    def started(self, worker):
        """The worker is ready: send what waited, in order, each once."""
        self.worker = worker
        waiting, self.waiting = self.waiting, []
        for data in waiting:
            env.spawn(self._call(data))

    async def _call(self, data):
        try:
            answer = await self.worker.call(json.dumps(data))
            effects = json.loads(str(answer))
            try:
                self.apply(effects)
                if data.get("op") == "route" and self.after_route is not None:
                    self.after_route(data, effects)
            finally:
                release(effects)
        finally:
            self.pending(-1)

    async def _later(self, pause, data):
        """A request the worker asked to make after a pause (a bot's move)."""
        await asyncio.sleep(pause / 1000)
        self.request(data)

    def pending(self, change):
        """How many requests are on their way, as <html data-pending> (absent when none): the
        browser tests wait for it to go before they look at the page."""
        self.in_flight += change
        root = env.document.documentElement
        if self.in_flight > 0:
            root.setAttribute("data-pending", str(self.in_flight))
        else:
            root.removeAttribute("data-pending")

    def apply(self, effects):
        """Do what the worker asked, in a fixed order: storage first (a save must not wait on
        drawing), then links, drawing, the address, focus. A write the browser refuses stops
        nothing: the rest is done, and the worker hears of it (`report_storage`)."""
        before = dict(self.unsaved)
        for name in ("localStorage", "sessionStorage"):
            writes = effects.get("local" if name == "localStorage" else "session", {})
            if writes:
                self.note_writes(writes, storage_write(name, writes))
        if self.links is not None:
            for operation in effects.get("links", []):
                self.links.run(operation)
            for link_id, text in effects.get("send", []):
                self.links.send(link_id, text)
        cards = []  # hand-offs and results new in this redraw: each opens at its top
        dom.begin_writes()  # focus and scrolls wait until every write is made (shell.dom)
        try:
            self._draw(effects, cards)
        except Exception:
            dom.writes_failed()
            raise
        dom.writes_done()
        if cards:
            dom.show_top(cards[0])
        if effects.get("top"):
            dom.to_top()
        if effects.get("go"):
            env.window.location.replace(effects["go"])
        for pause, later in effects.get("later", []):
            env.spawn(self._later(pause, later))
        for name, text in effects.get("download", []):
            env.spawn(save_file(name, text))
        for hook in self.after_effects:
            hook()
        if self.unsaved != before:
            self.report_storage()
        if effects.get("error") and self.on_error is not None:
            self.on_error(effects["error"])

    def _draw(self, effects, cards):
        """The effects' writes to the page (regions, texts, <html>'s attributes) and the focus
        asked for, which waits with the regions' own reads (shell.dom.after_writes)."""
        document = env.document
        patches = effects.get("patch", {})
        for selector, html in effects.get("render", []):
            container = dom.value(document.querySelector(selector))
            if container is not None:
                card = dom.render(container, html, patches.get(selector))
                if card is dom.WHOLE:  # its changes did not fit: the whole drawing, asked for
                    self.request({"op": "whole", "selector": selector})
                elif card is not None:
                    cards.append(card)
        for selector, text in effects.get("text", []):
            element = dom.value(document.querySelector(selector))
            if element is not None:
                element.textContent = text
        root = document.documentElement
        for name, value in effects.get("attrs", {}).items():
            if value is None:
                root.removeAttribute("data-" + name)
            else:
                root.setAttribute("data-" + name, value)
        if "ticking" in effects:
            self.ticking = bool(effects["ticking"])
        if effects.get("focus"):
            target = dom.value(document.querySelector(effects["focus"]))
            if target is not None:
                dom.after_writes(lambda: focus_asked(target, cards))

    def note_writes(self, writes, failed):
        """Keep which keys the browser would not write, and why."""
        for key in writes:
            if key in failed:
                self.unsaved[key] = failed[key]
            else:
                self.unsaved.pop(key, None)

    def report_storage(self):
        """Tell the worker which writes failed (none: all land again), so it tells the player
        the game is not saved instead of believing it is."""
        whys = set(self.unsaved.values())
        why = "refused" if "refused" in whys else "full" if whys else ""
        self.request({"op": "unsaved", "keys": sorted(self.unsaved), "why": why})


def release(effects):
    """An answer applied: the page's JS lets go of its bulk (assets/answers.mjs: the saves,
    drawings and changes it kept, which reach MicroPython only by name)."""
    if effects.get("bulk") is not None:
        env.window.parlourRelease(effects["bulk"])


def storage():
    """The page's storage functions (assets/main-thread.js): each answers, none throws. The
    browser's storage throws where it is refused or full, and MicroPython cannot catch an
    exception thrown by a JS call or property: it would end main.py."""
    return env.window.parlourStorage


def storage_refused(name="localStorage"):
    """The browser lets the page keep nothing (cookies blocked, a frame denied storage)."""
    return bool(storage().refused(name))


def storage_write(name, writes):
    """Write each key of `name` (None removes it); the keys the browser would not write, each
    with why: "full" (QuotaExceededError) or "refused" (no storage at all)."""
    failed = {}
    for key, value in writes.items():
        why = str(storage().write(name, key, value))
        if why:
            failed[key] = why
    return failed


def storage_snapshot(name):
    """This site's keys of a storage area, for the worker's copy (none where it is refused)."""
    return json.loads(str(storage().snapshot(name, STORAGE_PREFIX)))


def storage_keys(name="localStorage"):
    return set(json.loads(str(storage().keys(name))))


def storage_get(key, name="localStorage"):
    return dom.value(storage().get(name, key))


async def save_file(name, text):
    """Hand the browser a file to save (a finished game), through a link to a Blob: the text
    never sits in the page."""
    window, document = env.window, env.document
    parts = window.JSON.parse(json.dumps([text]))
    blob = window.Blob.new(parts, window.JSON.parse('{"type": "application/json"}'))
    url = window.URL.createObjectURL(blob)
    link = document.createElement("a")
    link.href, link.download = url, name
    document.body.appendChild(link)
    link.click()
    link.remove()
    await asyncio.sleep(1)
    window.URL.revokeObjectURL(url)
