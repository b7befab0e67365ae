"""Reading the DOM into plain data, and writing the worker's HTML into regions."""

from shell import env

FOCUS_ATTRS = ("data-cell", "data-symbol", "data-cmd", "data-slot", "data-card", "data-name")
FOCUS_ATTRS += ("data-help",)  # a "?" keeps its focus through a redraw


NO_SCROLL = '{"preventScroll": true}'

# A card that opens at its top (a hand-off, a result): marked by the worker with its name
CARD = "data-opens-at-top"
CARD_MARGIN = 16  # px left above a card scrolled to its top


# While a set of effects is applied (shell.bridge), what lays the page out waits here until
# every write is made: the focus given back and the log scrolled to its newest force the
# browser to lay the page out, and a write after them (the next region, a text, <html>'s
# attributes) made it lay it out again in the same task (issue 39: two to four layouts a
# redraw, half of a long task at 4x). Outside a set (None), they are made at once.
_after_writes = None
# The control a region drawn earlier in the set is to focus, once the writes are done: a region
# drawn after it sees it as the focus (its own [data-autofocus] does not take the focus from it,
# as it did not when that focus was given at once).
_planned = None


def after_writes(read):
    """Run `read` (a callable that lays the page out) once the writes being made are done."""
    if _after_writes is None:
        read()
    else:
        _after_writes.append(read)


def begin_writes():
    """A set of effects starts: reads wait for `writes_done`."""
    global _after_writes, _planned
    _after_writes, _planned = [], None


def _end_writes():
    """The set's reads, taken out: none wait any longer, and no focus is planned."""
    global _after_writes, _planned
    reads, _after_writes, _planned = _after_writes or [], None, None
    return reads


def writes_done():
    """Every write of the set is made: the reads that waited, in their order."""
    for read in _end_writes():
        read()


def writes_failed():
    """A write of the set failed: the reads that waited are dropped (run on a half-written page,
    one failing too would hide the first fault)."""
    _end_writes()


def focused():
    """The focused element, or the one a region drawn earlier in this set is to focus."""
    return _planned or value(env.document.activeElement)


def _focus_later(container, target, card, log_changed):
    """A region's reads after its redraw, once the writes are done (`_settle`)."""
    global _planned
    if target is not None and _after_writes is not None and may_take_focus():
        _planned = target
    after_writes(lambda: _settle(container, target, card, log_changed))


def to_top():
    """A screen opens at its top (issue 28: the Embed page opened 169 px down, the online
    host's game mid-page)."""
    env.window.scrollTo(0, 0)


def value(x):
    """A JS result as Python: null and undefined become None."""
    if x is None or type(x).__name__ == "JsUndefined" or repr(x) == "<undefined>":
        return None
    return x


def may_take_focus():
    """Whether the page may move the keyboard focus by itself. At the top level, always (a
    hand-off's button, a screen's heading: the focus follows the game). In a frame on another
    site (a blog's embed: <html data-frame="cross-origin">, assets/early.js) only while the
    reader is in the frame, so a bot's move never pulls the focus off the blog's own page.
    (The worker marks the control to focus with data-autofocus, never the browser's autofocus,
    which a frame on another site refuses with a console error on every hand-off.)"""
    root = env.document.documentElement
    if value(root.getAttribute("data-frame")) != "cross-origin":
        return True
    return bool(env.document.hasFocus())


def embedded():
    """In a blog's frame (?embed=1: <html data-embed>, assets/early.js)."""
    return value(env.document.documentElement.getAttribute("data-embed")) is not None


def quote(text):
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


def focus_key(element):
    """A stable name for the focused control, to give focus back after a re-render."""
    if value(element) is None or not hasattr(element, "getAttribute"):
        return None
    parts = []
    for attr in FOCUS_ATTRS:
        found = value(element.getAttribute(attr))
        if found:
            parts.append("[" + attr + '="' + quote(found) + '"]')
    return "".join(parts) or None


def cards(container):
    """The names of the cards that open at their top in a region."""
    return [str(card.getAttribute(CARD)) for card in container.querySelectorAll("[" + CARD + "]")]


def new_card(container, before):
    """The first card of the region not there before the redraw (`before`: their names)."""
    for card in container.querySelectorAll("[" + CARD + "]"):
        if str(card.getAttribute(CARD)) not in before:
            return card
    return None


def focus(target, scroll=True):
    """Give `target` the keyboard focus; with `scroll` False, leave the page where it is."""
    if scroll:
        target.focus()
    else:
        target.focus(env.window.JSON.parse(NO_SCROLL))


def show_top(card):
    """A new hand-off or result opens at its top, in view (issue 39: at 360 px they opened
    mid-page, their first words cut, as focusing their button scrolled only as far as the
    button). A card whose top is already in the upper third of the window stays put (beside
    the board on a wide screen); else the page scrolls to put its top near the window's."""
    if embedded():
        return  # embedded: the frame is as tall as its page, and the blog's snippet scrolls
    box = card.getBoundingClientRect()
    top = float(box.top)
    if float(box.height) == 0:
        return  # not drawn (a screen not shown)
    if CARD_MARGIN / 2 <= top <= float(env.window.innerHeight) / 3:
        return
    env.window.scrollTo(0, max(0.0, float(env.window.scrollY) + top - CARD_MARGIN))


STAMP = "data-drawn"  # on a region: the stamp of the worker's drawing it holds
WHOLE = "whole"  # `render`'s answer when it needs the region's whole drawing from the worker


def render(container, html, drawn=None):
    """Replace a region's content with the worker's HTML, keeping keyboard focus where it was
    (or moving it to a [data-autofocus] control), and the region's log scrolled to its newest.
    `drawn` ([stamp, base, changes], parlour.ui.redraw): when the region holds the drawing
    `base`, only the changed elements are replaced, and the focus is touched only if it
    was in one of them (giving it back forced the browser to lay out the whole screen at once).
    `html` is None when the worker sent the changes alone: if they do not fit, `WHOLE` (the
    caller asks the worker for the whole drawing). A long `html` or `drawn` changes come as the
    name of the string the page's JS keeps (assets/answers.mjs): only JS reads them. Else
    returns a card that opens at its top (`CARD`) new in this redraw, or None: the focus given
    here does not scroll when there is one, and the caller scrolls to it (`show_top`) once
    every focus is given."""
    based = drawn is not None and drawn[1] is not None
    if based and value(container.getAttribute(STAMP)) == str(drawn[1]):
        card = patch(container, drawn[2])
        if card is not False:
            container.setAttribute(STAMP, str(drawn[0]))
            return card
    if html is None:
        return WHOLE  # the changes came alone and do not fit: the caller asks for the whole
    active = focused()
    inside = active is not None and container.contains(active)
    key = focus_key(active) if inside else None
    before = cards(container)
    if not env.window.parlourHTML(container, html):  # (its drawing is kept by the page's JS)
        return WHOLE
    if drawn is None:
        container.removeAttribute(STAMP)
    else:
        container.setAttribute(STAMP, str(drawn[0]))
    card = new_card(container, before)
    target = value(container.querySelector(key)) if key else None
    # [data-autofocus] takes the focus from nowhere or from this region, never from elsewhere (a
    # bot's move must not pull a reader off the page's links)
    loose = active is None or inside or str(active.tagName) in ("BODY", "H1", "H2")
    if target is None and loose:
        target = value(container.querySelector("[data-autofocus]"))
    if target is None and inside:
        # the control pressed went with the redraw (a card played): the screen's heading
        # takes the focus rather than the top of the page
        target = value(container.querySelector("[data-role=status]"))
    _focus_later(container, target, card, True)
    return card


def _settle(container, target, card, log_changed):
    """A region's reads after its redraw: the focus given (scrolled to unless a card opens,
    which the caller scrolls to), its log scrolled to its newest, its rows' Tab stops."""
    if target is not None and may_take_focus():
        focus(target, scroll=card is None or embedded())
    if log_changed:
        scroll_log(container)
    mend_rows(container)


def scroll_log(container):
    log = value(container.querySelector("[data-role=log]"))
    if log is not None:
        log.scrollTop = log.scrollHeight


def patch(container, changes):
    """Make a region's changes since its last drawing (`changes`: JSON text, made in one call
    by window.parlourPatch, assets/main-thread.js), then give back a focus that was in a part
    taken out, or to a new [data-autofocus] control; False when a part is not where the worker
    drew it (the caller then draws the whole, and the page's log says so)."""
    active = focused()
    inside = active is not None and container.contains(active)
    key = focus_key(active) if inside else None
    before = cards(container)
    done = value(env.window.parlourPatch(container, changes))
    if done is None:
        env.window.console.warn("A redraw's changes did not fit the page: drawn whole.")
        return False
    lost = inside and bool(done.lost)
    fresh = [done.fresh.at(i) for i in range(int(done.fresh.length))]
    card = new_card(container, before)
    target = None
    if lost:
        target = value(container.querySelector(key)) if key else None
    if target is None and (lost or active is None or str(active.tagName) in ("BODY", "H1", "H2")):
        # a new [data-autofocus] control takes a focus that was lost or loose (never one the
        # redraw did not touch: an unchanged control keeps its focus)
        found = value(container.querySelector("[data-autofocus]"))
        if found is not None and any(n.contains(found) for n in fresh):
            target = found
    if target is None and lost:
        target = value(container.querySelector("[data-role=status]"))
    log = value(container.querySelector("[data-role=log]"))
    log_changed = log is not None and any(n.contains(log) or log.contains(n) for n in fresh)
    _focus_later(container, target, card, log_changed)
    return card


def mend_rows(container):
    """Each row of choices that is one Tab stop (`data-roving`) keeps exactly one control in
    the Tab order after a redraw. The arrow keys move that stop in the page alone
    (shell.page.roving), so a patch that replaced part of a row could leave it with no stop,
    out of reach of Tab (an ESPEERS discard of two cards by keyboard), or with two. The stop
    is the focused control of the row, else the first enabled one the row marks, else its
    first enabled one (Tab passes over a disabled control: a stop there is no stop)."""
    active = value(env.document.activeElement)
    for row in container.querySelectorAll("[data-roving]"):
        items = list(row.querySelectorAll("button"))
        usable = [item for item in items if not item.hasAttribute("disabled")] or items
        stops = [item for item in usable if value(item.getAttribute("tabindex")) == "0"]
        keep = None
        if active is not None and row.contains(active):
            for item in items:
                if item.isSameNode(active):
                    keep = item
        marked = sum(1 for item in items if value(item.getAttribute("tabindex")) == "0")
        if not items or (keep is None and len(stops) == 1 and marked == 1):
            continue
        if keep is None:
            keep = stops[0] if stops else usable[0]
        for item in items:
            wanted = "0" if item.isSameNode(keep) else "-1"
            if value(item.getAttribute("tabindex")) != wanted:
                item.setAttribute("tabindex", wanted)


def data_of(element):
    """Every data-* attribute of an element, without the prefix ("data-cell" -> "cell")."""
    data = {}
    attributes = element.attributes
    for i in range(int(attributes.length)):
        attribute = attributes.item(i)
        name = str(attribute.name)
        if name.startswith("data-"):
            data[name[5:]] = str(attribute.value)
    return data


def fields_of(root):
    """What the player typed or chose in a screen's own fields (`data-field`)."""
    fields = {}
    for el in root.querySelectorAll("[data-field]"):
        fields[str(el.getAttribute("data-field"))] = str(getattr(el, "value", ""))
    return fields


def form_fields(form):
    """A set-up form as plain records, for the worker to read seats, names and variant from."""
    records = []
    if form is None:
        return records
    for el in form.querySelectorAll("input, select, textarea"):
        records.append(
            {
                "tag": str(el.tagName).lower(),
                "type": str(getattr(el, "type", "") or ""),
                "name": str(getattr(el, "name", "") or ""),
                "value": str(getattr(el, "value", "")),
                "checked": bool(getattr(el, "checked", False)),
                "placeholder": str(value(el.getAttribute("placeholder")) or ""),
                "data": data_of(el),
            }
        )
    return records


def closest(element, selector):
    if element is None or not hasattr(element, "closest"):
        return None
    return value(element.closest(selector))
