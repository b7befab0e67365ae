"""Small fakes of the browser objects the main thread uses, for its tests under MicroPython.

Elements with attributes, children and a selector matcher good for the selectors the page code
uses (tag, #id, .class, [attr], [attr=value], [attr="value"], descendants, commas); storage;
a window whose BroadcastChannels talk to each other; a worker that records what it is asked.
"""

import json


class Attribute:
    def __init__(self, name, value):
        self.name, self.value = name, value


class Attributes:
    def __init__(self, element):
        self.element = element

    @property
    def length(self):
        return len(self.element.attrs)

    def item(self, i):
        name = list(self.element.attrs)[i]
        return Attribute(name, self.element.attrs[name])


class ClassList:
    def __init__(self, element):
        self.element = element

    def _names(self):
        return self.element.attrs.get("class", "").split()

    def add(self, name):
        if name not in self._names():
            self.element.attrs["class"] = " ".join(self._names() + [name])

    def remove(self, name):
        self.element.attrs["class"] = " ".join(n for n in self._names() if n != name)

    def contains(self, name):
        return name in self._names()


def _compound(text):
    """'a#b.c[d=e]' -> (tag, id, classes, [(attr, value or None)])."""
    tag, ident, classes, attrs = "", "", [], []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "[":
            end = text.index("]", i)
            body = text[i + 1 : end]
            if "=" in body:
                name, value = body.split("=", 1)
                attrs.append((name, value.strip("'\"")))
            else:
                attrs.append((body, None))
            i = end + 1
            continue
        j = i + 1
        while j < len(text) and text[j] not in "#.[":
            j += 1
        part = text[i:j] if c not in "#." else text[i + 1 : j]
        if c == "#":
            ident = part
        elif c == ".":
            classes.append(part)
        else:
            tag = part
        i = j
    return tag, ident, classes, attrs


def _matches_compound(element, compound):
    tag, ident, classes, attrs = compound
    if tag and element.tagName.lower() != tag.lower():
        return False
    if ident and element.attrs.get("id") != ident:
        return False
    names = element.attrs.get("class", "").split()
    if any(c not in names for c in classes):
        return False
    for name, value in attrs:
        if name not in element.attrs or (value is not None and element.attrs[name] != value):
            return False
    return True


def _split(text, separator):
    """Split at `separator` outside [brackets] (an attribute value may hold commas, spaces)."""
    parts, depth, current = [], 0, ""
    for c in text:
        depth += (c == "[") - (c == "]")
        if c == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += c
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def matches(element, selector):
    for alternative in _split(selector, ","):
        parts = [_compound(p) for p in _split(alternative, " ")]
        if not parts or not _matches_compound(element, parts[-1]):
            continue
        node, wanted = element.parent, parts[:-1]
        while wanted and node is not None:
            if _matches_compound(node, wanted[-1]):
                wanted = wanted[:-1]
            node = node.parent
        if not wanted:
            return True
    return False


class Box:
    """An element's box in the window, as getBoundingClientRect gives it (top and height)."""

    def __init__(self, top, height):
        self.top, self.height, self.bottom = top, height, top + height


class Children(list):
    """An element's children, as the browser's HTMLCollection reads them (`item`)."""

    def item(self, i):
        return self[i] if 0 <= i < len(self) else None


class Element:
    def __init__(self, tag, attrs=None, children=(), value=""):
        self.tagName = tag.upper()
        self.attrs = dict(attrs or {})
        self.children = Children()
        self.parent = None
        self.value = value
        self._html = ""
        self.parse = None  # a test's stand-in for the HTML parser: html -> new children
        self.textContent = ""
        self.hidden = False
        self.focused = False
        self.scrollTop = 0
        self.scrollHeight = 100
        self.selected = False
        self.box = Box(0, 0)  # where the element is drawn in the window (a test may set it)
        self.attributes = Attributes(self)
        self.classList = ClassList(self)
        for child in children:
            self.append(child)

    @property
    def innerHTML(self):
        return self._html

    @innerHTML.setter
    def innerHTML(self, html):
        self._html = html
        if self.parse is not None:
            self.children = Children()
            for child in self.parse(html):
                self.append(child)

    def remove(self):
        self.parent.children.remove(self)
        self.parent = None

    def insertAdjacentHTML(self, where, html):
        """Before this element ("beforebegin") or as its last children ("beforeend"), what the
        parent's (or its own) `parse` makes of `html`."""
        parent = self.parent if where == "beforebegin" else self
        at = parent.children.index(self) if where == "beforebegin" else len(parent.children)
        for offset, new in enumerate(parent.parse(html)):
            new.parent = parent
            parent.children.insert(at + offset, new)

    @property
    def outerHTML(self):
        return self._html

    @outerHTML.setter
    def outerHTML(self, html):
        """In place of this element, what the parent's `parse` makes of `html` (one element)."""
        parent = self.parent
        index = parent.children.index(self)
        (new,) = parent.parse(html)
        new.parent = parent
        parent.children[index] = new
        self.parent = None

    def append(self, child):
        child.parent = self
        self.children.append(child)
        return child

    @property
    def id(self):
        return self.attrs.get("id", "")

    def getAttribute(self, name):
        return self.attrs.get(name)

    def setAttribute(self, name, value):
        self.attrs[name] = value

    def removeAttribute(self, name):
        self.attrs.pop(name, None)

    def hasAttribute(self, name):
        return name in self.attrs

    def walk(self):
        for child in self.children:
            yield child
            yield from child.walk()

    def querySelectorAll(self, selector):
        return [e for e in self.walk() if matches(e, selector)]

    def querySelector(self, selector):
        found = self.querySelectorAll(selector)
        return found[0] if found else None

    def closest(self, selector):
        node = self
        while node is not None:
            if matches(node, selector):
                return node
            node = node.parent
        return None

    def contains(self, other):
        node = other
        while node is not None:
            if node is self:
                return True
            node = node.parent
        return False

    def isSameNode(self, other):
        return self is other

    def focus(self, options=None):
        self.focused = True
        self.focus_options = options
        DOCUMENT_STATE["active"] = self

    def blur(self):
        self.focused = False
        if DOCUMENT_STATE.get("active") is self:
            DOCUMENT_STATE["active"] = None

    def select(self):
        self.selected = True

    def getBoundingClientRect(self):  # the browser's name
        return self.box

    @property
    def parentElement(self):
        return self.parent


class Input(Element):
    def __init__(self, attrs=None, value="", checked=False, kind="text"):
        super().__init__("input", attrs, (), value)
        self.checked = checked
        self.type = kind
        self.name = (attrs or {}).get("name", "")


class Select(Element):
    """A <select> has a value but no `checked` (reading it raises, as in MicroPython's proxy)."""

    def __init__(self, attrs=None, value=""):
        super().__init__("select", attrs, (), value)
        self.type = "select-one"
        self.name = ""


DOCUMENT_STATE = {"active": None}


class Document:
    def __init__(self, body):
        self.documentElement = Element("html", {}, [body])
        self.body = body
        self.focused = True  # document.hasFocus(): the reader is in this page (or frame)

    def hasFocus(self):  # the browser's name
        return self.focused

    @property
    def activeElement(self):
        return DOCUMENT_STATE["active"]

    def querySelector(self, selector):
        return self.documentElement.querySelector(selector)

    def querySelectorAll(self, selector):
        return self.documentElement.querySelectorAll(selector)

    def getElementById(self, ident):
        return self.querySelector("#" + ident)


class Storage:
    def __init__(self, values=None):
        self.values = dict(values or {})

    @property
    def length(self):
        return len(self.values)

    def key(self, i):
        return list(self.values)[i]

    def getItem(self, key):
        return self.values.get(key)

    def setItem(self, key, value):
        self.values[key] = value

    def removeItem(self, key):
        self.values.pop(key, None)


class FullStorage(Storage):
    """Storage with no room left: every new or longer value throws, as QuotaExceededError
    does; removing works (and makes room, once `room` is set)."""

    def __init__(self, values=None):
        super().__init__(values)
        self.room = False

    def setItem(self, key, value):
        if not self.room:
            raise RuntimeError("QuotaExceededError: the quota has been exceeded")
        self.values[key] = value


class RefusedWindowStorage:
    """A property that throws when read, as `window.localStorage` does with cookies blocked."""

    def __get__(self, obj, owner=None):
        raise RuntimeError("SecurityError: Access is denied for this document")


class Location:
    def __init__(self, hash_="#home"):
        self.hash = hash_
        self.href = "http://127.0.0.1:8000/" + hash_
        self.replaced = []

    def replace(self, hash_):
        self.replaced.append(hash_)
        self.hash = hash_


class Bus:
    """BroadcastChannels of one browser: every channel of a name hears every other."""

    def __init__(self):
        self.channels = []
        self.queue = []

    def deliver(self):
        while self.queue:
            sender, name, data = self.queue.pop(0)
            for channel in self.channels:
                if channel is not sender and channel.name == name and channel.onmessage:
                    channel.onmessage(Event(data=data))


class Event:
    def __init__(self, **fields):
        for key, value in fields.items():
            setattr(self, key, value)
        self.prevented = False

    def preventDefault(self):
        self.prevented = True


class BroadcastChannel:
    bus = None

    def __init__(self, name):
        self.name = name
        self.onmessage = None
        self.closed = False
        BroadcastChannel.bus.channels.append(self)

    @classmethod
    def new(cls, name):
        return cls(name)

    def postMessage(self, data):
        BroadcastChannel.bus.queue.append((self, self.name, data))

    def close(self):
        self.closed = True
        BroadcastChannel.bus.channels.remove(self)


class LinkFunctions:
    """window.parlourLinks of assets/main-thread.js: null where the browser refuses a link
    (`refuse` set: WebRTC off, a frame denied BroadcastChannel), never a throw."""

    def __init__(self):
        self.refuse = False

    def connection(self, config):
        return None  # no fake WebRTC: only the refusal is tested here (e2e has the real one)

    def broadcast(self, name):
        return None if self.refuse else BroadcastChannel.new(name)

    def send(self, channel, text):
        if channel.closed:
            return False
        channel.postMessage(text)
        return True


class Crypto:
    def __init__(self):
        self.n = 0

    def randomUUID(self):
        self.n += 1
        return "uuid-" + str(self.n)


class FakeJSON:
    @staticmethod
    def parse(text):
        import json

        return json.loads(text)


class Bulk:
    """assets/answers.mjs over these fakes: the worker's answers reach the shell with each long
    save, drawing and changes kept aside under a name (`lighten`), which the page's functions
    take in its place (`unbulk`); `release` lets an answer's go."""

    NAME = "\x01bulk:"
    BULKY = 256
    kept = {}  # noqa: RUF012 - the one store of the page's JS, as answers.mjs's module state
    answers = 0

    @classmethod
    def lighten(cls, text):
        import json

        effects = json.loads(text)
        if not isinstance(effects, dict):
            return text
        cls.answers += 1
        number, strings = cls.answers, []

        def keep(value):
            if not isinstance(value, str) or len(value) < cls.BULKY:
                return value
            strings.append(value)
            return cls.NAME + str(number) + ":" + str(len(strings) - 1)

        for area in ("local", "session"):
            writes = effects.get(area)
            if isinstance(writes, dict):
                for key in writes:
                    writes[key] = keep(writes[key])
        for row in effects.get("render") or []:
            row[1] = keep(row[1])
        for drawn in (effects.get("patch") or {}).values():
            drawn[2] = keep(drawn[2])
        if not strings:
            return text
        cls.kept[number] = strings
        effects["bulk"] = number
        return json.dumps(effects)

    @classmethod
    def unbulk(cls, value):
        if not isinstance(value, str) or not value.startswith(cls.NAME):
            return value
        number, index = value[len(cls.NAME) :].split(":")
        return cls.kept[int(number)][int(index)]  # (a KeyError: not kept, as JS throws)

    @classmethod
    def release(cls, number):
        cls.kept.pop(int(number), None)


def parlour_html(region, html):
    """window.parlourHTML (assets/main-thread.js): a region's whole drawing, by its text or its
    name; False, the region untouched, when that is no longer kept."""
    try:
        region.innerHTML = Bulk.unbulk(html)
    except KeyError:
        return False
    return True


class StorageFunctions:
    """window.parlourStorage of assets/main-thread.js over the fake areas: each function answers
    ("full", "refused", "{}"...) where the browser's storage throws, and never throws itself."""

    def __init__(self, window):
        self.window = window

    def _area(self, name):
        try:
            return getattr(self.window, name)
        except RuntimeError:
            return None

    def refused(self, name):
        return self._area(name) is None

    def write(self, name, key, value):
        area = self._area(name)
        if area is None:
            return "refused"
        try:
            value = Bulk.unbulk(value)  # an answer's save, kept aside (assets/answers.mjs)
        except KeyError:
            return "refused"
        try:
            if value is None:
                area.removeItem(key)
            else:
                area.setItem(key, value)
        except RuntimeError:
            return "full"
        return ""

    def snapshot(self, name, prefix):
        import json

        area = self._area(name)
        values = area.values if area is not None else {}
        return json.dumps({k: v for k, v in values.items() if k.startswith(prefix)})

    def keys(self, name):
        import json

        area = self._area(name)
        return json.dumps(list(area.values) if area is not None else [])

    def get(self, name, key):
        area = self._area(name)
        return area.getItem(key) if area is not None else None


class Console:
    def __init__(self):
        self.warned = []

    def warn(self, text):
        self.warned.append(text)


class JsArray(list):
    """A JavaScript array as MicroPython reads one (`length`, `at`)."""

    @property
    def length(self):
        return len(self)

    def at(self, i):
        return self[i]


class Patched:
    def __init__(self, lost, fresh):
        self.lost, self.fresh = lost, JsArray(fresh)


def _find(region, path, tag):
    node = region
    for i in path:
        node = node.children.item(i)
        if node is None:
            return None
    return node if node.tagName.lower() == tag.lower() else None


def parlour_patch(region, text):
    """window.parlourPatch (assets/main-thread.js) over these fakes: the same steps, each part
    found by its path, None when one is not there."""
    try:
        marks, puts, splices = json.loads(Bulk.unbulk(text))
    except KeyError:
        return None
    marked = [_find(region, p[0], p[1]) for p in marks]
    targets = [_find(region, p[0], p[1]) for p in puts]
    parents = [_find(region, p[0], p[1]) if p[0] else region for p in splices]
    if any(x is None for x in marked + targets + parents):
        return None
    active = DOCUMENT_STATE.get("active")
    lost, fresh = False, []
    going = list(targets)
    for parent, (_path, _tag, start, taken, _added, _html) in zip(parents, splices):  # noqa: B905
        going += [parent.children.item(start + n) for n in range(taken)]
    field = active is not None and active.tagName in ("INPUT", "TEXTAREA", "SELECT")
    held = active is not None and any(n is not None and n.contains(active) for n in going)
    if held and not field:
        active.blur()  # as the page does: the focus goes before the first write (not a field's)
    for node, (_path, _tag, attrs) in zip(marked, marks):  # noqa: B905 - MicroPython's zip
        for name, value in attrs.items():
            if value is None:
                node.removeAttribute(name)
            else:
                node.setAttribute(name, value)
    for node, (path, _tag, html) in zip(targets, puts):  # noqa: B905
        parent = node.parent
        lost = lost or node.contains(active)
        node.outerHTML = html
        fresh.append(parent.children.item(path[-1]))
    for parent, (_path, _tag, start, taken, added, html) in zip(parents, splices):  # noqa: B905
        for _ in range(taken):
            child = parent.children.item(start)
            if child is None:
                return None
            lost = lost or child.contains(active)
            child.remove()
        after = parent.children.item(start)
        if html and after is not None:
            after.insertAdjacentHTML("beforebegin", html)
        elif html:
            parent.insertAdjacentHTML("beforeend", html)
        for i in range(start, start + added):
            fresh.append(parent.children.item(i))
    return Patched(lost, [n for n in fresh if n is not None])


class Window:
    def __init__(self, document, local=None, session=None, hash_="#home"):
        self.document = document
        self.localStorage = Storage(local)
        self.sessionStorage = Storage(session)
        self.parlourStorage = StorageFunctions(self)
        self.location = Location(hash_)
        self.crypto = Crypto()
        self.JSON = FakeJSON
        BroadcastChannel.bus = Bus()
        self.BroadcastChannel = BroadcastChannel
        self.parlourLinks = LinkFunctions()
        self.parlourPatch = parlour_patch
        self.parlourHTML = parlour_html
        self.parlourRelease = Bulk.release
        self.console = Console()

    innerHeight = 740  # noqa: N815 - the browser's names; a phone's window
    scrollY = 0  # noqa: N815

    def scrollTo(self, x, y):
        """Where the page was scrolled to, in order (a screen opens at its top)."""
        if "scrolled" not in self.__dict__:
            self.scrolled = []
        self.scrolled.append((x, y))


class Worker:
    """The worker's one function, answering with canned effects and recording the requests."""

    def __init__(self, answer=None):
        self.requests = []
        self.answer = answer or (lambda request: {})

    async def call(self, text):
        import json

        request = json.loads(text)
        self.requests.append(request)
        return Bulk.lighten(json.dumps(self.answer(request)))  # as assets/main-thread.js does


class RefusedWindow(Window):
    """A window whose storage is refused (cookies blocked, a frame denied storage)."""

    localStorage = RefusedWindowStorage()  # noqa: N815 - the browser's names
    sessionStorage = RefusedWindowStorage()  # noqa: N815

    def __init__(self, document, hash_="#home"):
        self.document = document
        self.parlourStorage = StorageFunctions(self)
        self.location = Location(hash_)
        self.crypto = Crypto()
        self.JSON = FakeJSON
        self.parlourHTML = parlour_html
        self.parlourRelease = Bulk.release


def install(document, window):
    """Point the shell's env at fakes."""
    from shell import env

    env.document, env.window = document, window
    DOCUMENT_STATE["active"] = None
