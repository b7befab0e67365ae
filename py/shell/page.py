"""The page's listeners (main thread): events become requests, and a few things that need no
Python game code at all are done right here (copying a code, arrow keys along a row of cards,
the note on a name's length, which saved games can be resumed, reading a game file chosen to
replay)."""

from shell import dom, env
from shell.bridge import storage_get, storage_keys, storage_refused, storage_snapshot
from shell.copying import copy_code
from shell.embed import EmbedPage

# The catalog's games, written by the build (scripts/pages.py) from py/parlour/games/catalog.py
GAMES = (
    "esp",
    "espeers",
    "telepathic",
    "psi-squad",
)
# end of the catalog's games
TYPED_KEYS = ("Backspace", "Enter", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9")
ARROWS = {"ArrowLeft": -1, "ArrowUp": -1, "ArrowRight": 1, "ArrowDown": 1}
TYPING_TAGS = ("INPUT", "TEXTAREA", "SELECT")
REPLAY_KEYS = ("ArrowLeft", "ArrowRight", "Home", "End")  # step through a replay
MAX_FILE = 2000000  # bytes of a game file to replay: larger is refused unread
# The regions the worker draws into, and the name a click there goes by.
REGIONS = [("#online .online-root", "online"), ("#decks-espeers .builder-root", "builder")]
REGIONS += [("#replay .replay-root", "replay"), ("#bylink .bylink-root", "bylink")]
REGIONS += [("#play-" + g + " .play-root", "play:" + g) for g in GAMES]
REGIONS += [("#start-" + g, "start:" + g) for g in GAMES]
REGIONS += [("#solo-" + g, "solo:" + g) for g in GAMES]  # "Play vs computer"
REGIONS += [("#learn-" + g + " .learn-root", "learn:" + g) for g in GAMES]  # the tutorials
REGIONS += [("#home .link-games-root", "linkgames")]  # "Your games by link": Remove
REGIONS += [("#storage-note", "storage")]  # what the page says of its storage (full, damaged)


class Page:
    def __init__(self, bridge):
        self.bridge = bridge
        self.embed = EmbedPage()
        bridge.after_route = self.shown

    # -- routes ----------------------------------------------------------------------

    def route_request(self):
        """The address as a request: the set-up form of the screen goes with it, as it
        stands (a game started before the worker is ready starts with what was typed)."""
        hash_ = str(env.window.location.hash)
        request = {"op": "route", "hash": hash_, "href": str(env.window.location.href)}
        for prefix in ("#new-", "#start-", "#host-", "#link-"):
            if hash_.startswith(prefix):
                form = dom.value(env.document.getElementById("new-" + hash_[len(prefix) :]))
                request["form"] = dom.form_fields(form)
        return request

    def on_hash(self, _event=None):
        mark_replaying()
        self.bridge.request(self.route_request())  # first: nothing below may stop a route
        dom.to_top()  # the browser scrolled to the screen's section as if to an anchor
        if str(env.window.location.hash) == "#embed":
            self.embed.refresh()  # the Embed page needs no engine
        if _event is not None:
            focus_heading(str(env.window.location.hash))

    def shown(self, request, effects):
        """The worker drew the screen a route asked for: it opens at its top, once (its
        focus may have scrolled the page). Later answers (a bot's move) leave the scroll where
        the person put it; so does a route that drew nothing (a screen of plain HTML, at its
        top since the address changed, which the person may have scrolled while the engine
        loaded), and one the person has already left."""
        if effects.get("render") and request.get("hash") == str(env.window.location.hash):
            dom.to_top()

    # -- clicks ----------------------------------------------------------------------

    def region_of(self, element):
        for selector, name in REGIONS:
            root = dom.closest(element, selector)
            if root is not None:
                return root, name
        return None, None

    def on_click(self, event):
        target = event.target
        copy = dom.closest(target, "[data-embed-copy]")
        if copy is not None:
            self.embed.copy(copy)
            return
        share = dom.closest(target, "[data-share]")
        if share is not None:
            share_link(str(share.getAttribute("data-share")))
            return
        root, region = self.region_of(target)
        if root is None:
            return
        element = dom.closest(target, "[data-cmd],[data-cell]")
        if element is None or element.hasAttribute("disabled"):
            return
        copy = dom.value(element.getAttribute("data-copy"))
        if copy is not None:
            env.spawn(copy_code(element, str(copy)))
            return
        data = dom.data_of(element)
        data["fields"] = dom.fields_of(root)
        self.send({"op": "click", "region": region, "data": data}, element)

    def on_change(self, event):
        """A field a screen reads later (the guest's deck) changed: the worker keeps it. On a
        replay: the slider moved, or a game file was chosen (read here, sent as text)."""
        root, region = self.region_of(event.target)
        if root is not None and region == "replay":
            self.on_replay_change(event.target, root)
        if root is not None and region == "online":
            self.send(
                {
                    "op": "click",
                    "region": region,
                    "data": {"cmd": "change", "fields": dom.fields_of(root)},
                }
            )

    def on_replay_change(self, field, root):
        if field.hasAttribute("data-replay-file"):
            env.spawn(read_file(field, self.bridge))
        elif field.hasAttribute("data-cmd"):
            data = dom.data_of(field)
            data["fields"] = dom.fields_of(root)
            self.send({"op": "click", "region": "replay", "data": data})

    def send(self, request, element=None):
        """A request, with a visible "warming up" on what was clicked while the engines load."""
        if not self.bridge.ready and element is not None:
            element.classList.add("warming")
        self.bridge.request(request)

    # -- keys ------------------------------------------------------------------------

    def on_key(self, event):
        key, element = str(event.key), event.target
        form = dom.closest(element, "section.setup")
        if form is not None and key == "Enter" and str(element.tagName) == "INPUT":
            event.preventDefault()  # Enter in a set-up field starts the game
            env.window.location.hash = "#start-" + str(form.id)[4:]
            return
        if key in ARROWS and roving(element, ARROWS[key]):
            event.preventDefault()
            return
        tag = str(getattr(element, "tagName", ""))
        replaying = str(env.window.location.hash).startswith("#replay=")
        if replaying and key in REPLAY_KEYS and tag not in TYPING_TAGS and not modified(event):
            event.preventDefault()  # the arrows, Home and End step through the replay
            self.send({"op": "key", "region": "replay", "key": key})
            return
        region = self.key_region()
        if region is None:
            return
        cell = (
            dom.value(element.getAttribute("data-cell"))
            if hasattr(element, "getAttribute")
            else None
        )
        if cell is None:
            if key not in TYPED_KEYS or tag in TYPING_TAGS:
                return
            if key == "Enter" and tag in ("BUTTON", "A"):
                return  # Enter on a button or link is that control's own click
            event.preventDefault()
            self.send({"op": "key", "region": region, "key": key})
            return
        if key in ("Enter", " ") or key.startswith("Arrow"):
            event.preventDefault()
            request = {"op": "key", "region": region, "key": key, "cell": str(cell)}
            if key.startswith("Arrow"):
                root, _ = self.region_of(element)
                request["cells"] = [
                    str(el.getAttribute("data-cell")) for el in root.querySelectorAll("[data-cell]")
                ]
            self.send(request)

    def key_region(self):
        hash_ = str(env.window.location.hash)
        if hash_ == "#online":
            return "online"
        for game in GAMES:
            if hash_ == "#play-" + game:
                return "play:" + game
            if hash_ == "#learn-" + game:
                return "learn:" + game
        return None

    # -- things done here ------------------------------------------------------------

    def on_input(self, event):
        """Say so when a typed or pasted name reaches the length a name keeps (the field's
        maxlength cuts the rest without a word)."""
        field = event.target
        if dom.closest(field, "#embed") is not None:
            self.embed.refresh()
            return
        if dom.value(field.getAttribute("data-seat-name")) is None:
            return
        form = dom.closest(field, "section")
        full = False
        for f in form.querySelectorAll("[data-seat-name]"):
            if len(str(f.value)) >= int(str(f.getAttribute("maxlength") or "24")):
                full = True
        note = dom.value(form.querySelector("[data-role=name-limit]"))
        if note is not None:
            note.hidden = not full

    def on_storage(self, event):
        """Another tab changed this site's storage: the worker's copy follows."""
        key = dom.value(event.key)
        if key is not None and str(key).startswith("psi-parlour:"):
            value = dom.value(event.newValue)
            self.bridge.request(
                {"op": "storage", "key": str(key), "value": None if value is None else str(value)}
            )
        mark_resumable()

    def start_request(self):
        return {
            "op": "start",
            "local": storage_snapshot("localStorage"),
            "session": storage_snapshot("sessionStorage"),
            "refused": storage_refused(),
        }


def roving(element, step):
    """Arrow keys move the focus along a row of controls (`data-roving`), e.g. a hand of cards;
    Tab then leaves the row in one step."""
    group = dom.closest(element, "[data-roving]")
    if group is None:
        return False
    items = list(group.querySelectorAll("button"))
    index = None
    for i, item in enumerate(items):
        if item.isSameNode(element):
            index = i
    if index is None or not 0 <= index + step < len(items):
        return True
    items[index].setAttribute("tabindex", "-1")
    items[index + step].setAttribute("tabindex", "0")
    items[index + step].focus()
    return True


def focus_heading(hash_):
    """A new screen: the keyboard focus (and a screen reader) goes to its heading, not back to
    the top of the page. Screens the worker draws get their focus from the worker."""
    name = hash_[1:] or "home"
    if not all(c.isalpha() or c.isdigit() or c == "-" for c in name):
        return  # (MicroPython's str has no isalnum)
    section = dom.value(env.document.getElementById(name))
    if section is None or section.classList.contains("play-screen") or not dom.may_take_focus():
        return
    heading = dom.value(section.querySelector("h1, h2"))
    if heading is not None:
        heading.setAttribute("tabindex", "-1")
        # without scrolling: the screen's own rule shows the page's top, and a focus that
        # scrolled would move the page around a frame too (the Embed page's preview opened
        # 650 px down on a phone)
        heading.focus(env.window.JSON.parse(dom.NO_SCROLL))


def mark_resumable():
    """Show a Resume link only while there is a game saved to go back to: [data-resume-key]
    names the saved game's key; [data-resume-last] a key that names it. Only the keys are read
    (a saved game is a long text, and this runs after every answer of the worker)."""
    saved = storage_keys()
    for link in env.document.querySelectorAll("[data-resume-key]"):
        key = str(link.getAttribute("data-resume-key"))
        link.hidden = key not in saved or key + ":finished" in saved  # over: nothing to resume
    for link in env.document.querySelectorAll("[data-resume-last]"):
        last = storage_get(str(link.getAttribute("data-resume-last")))
        link.hidden = last is None or str(last) not in saved


def modified(event):
    """Alt, Ctrl or Meta held: the browser's own shortcut (Alt+← is Back), not the page's."""
    return any(bool(getattr(event, name, False)) for name in ("altKey", "ctrlKey", "metaKey"))


def mark_replaying():
    """<html data-replaying> while the address is a replay link (#replay=...), <html
    data-linking> while it is a link of a game by link (#pl=..., #bylink=...): each shows its
    screen, which no :target can match (assets/early.js does it before first paint)."""
    root = env.document.documentElement
    hash_ = str(env.window.location.hash)
    for name, prefixes in (("data-replaying", ("#replay=",)), ("data-linking", LINKING)):
        if any(hash_.startswith(p) for p in prefixes):
            root.setAttribute(name, "")
        else:
            root.removeAttribute(name)


LINKING = ("#pl=", "#bylink=")


def share_link(url):
    """A game by link's "Share": the system's share sheet (the Web Share API); where the browser
    has none the button stays hidden (`show_share`), and Copy does it."""
    share = dom.value(getattr(env.window.navigator, "share", None))
    if share is None:
        return
    try:
        data = env.window.Object.new()
        data.url = url
        env.window.navigator.share(data)
    except Exception:
        pass  # the player closed the sheet, or the browser refused: Copy is beside it


def show_share():
    """Show the Share buttons where the browser has the Web Share API."""
    if dom.value(getattr(env.window.navigator, "share", None)) is None:
        return
    for button in env.document.querySelectorAll("[data-share][hidden]"):
        button.hidden = False


async def read_file(field, bridge):
    """A game file chosen to replay, as text for the worker (too large: its size only)."""
    files = dom.value(field.files)
    chosen = dom.value(files.item(0)) if files is not None and int(files.length) else None
    if chosen is None:
        return
    size = int(chosen.size)
    text = str(await chosen.text()) if size <= MAX_FILE else None
    field.value = ""  # the same file chosen again is a change again
    bridge.request({"op": "replay-file", "text": text, "size": size})
