"""The Embed page (#embed): the iframe code for a blog, from the choices on the page, with a
live preview. Done on the main thread: it needs no game and no engine.

`frame_address` and `frame_code` are plain functions of the choices (tested under CPython and
MicroPython); `EmbedPage` reads the form, writes the code and points the preview at it.
"""

import asyncio

from shell import dom, env
from shell.copying import copy_code

# After the preview loads, the scroll is held where it was for this many short steps: the
# frame's scroll to its screen comes in the frames just after its load event.
HOLD_FRAMES, FRAME_S = 6, 0.05
HEIGHT_MESSAGE = "psi-parlour:height"  # what assets/site.js sends from inside an embed
# The catalog's games (names), written by the build (scripts/pages.py) from the catalog
GAMES = {
    "": "Psi Parlour",
    "esp": "ESP",
    "espeers": "ESPEERS",
    "telepathic": "Telepathic",
    "psi-squad": "Psi Squad",
}
# end of the catalog's games
MODES = ("bots", "pass", "online")
THEMES = ("auto", "light", "dark")
WIDTHS = ("100%", "480", "720")
HEIGHTS = (320, 2000)  # the least and most a frame starts at, in pixels
DEFAULTS = {"game": "esp", "mode": "bots", "theme": "auto", "width": "100%", "height": "720"}
DEFAULTS["fit"] = "true"

RESIZER = """<script>
  // Psi Parlour: the frame takes the height of what it shows, and a new card (a hand-off, the
  // result) is scrolled into view when the frame grows or shrinks around it.
  addEventListener("message", (event) => {{
    if (event.origin !== "{origin}" || event.data?.type !== "{message}") return;
    for (const frame of document.querySelectorAll("iframe")) {{
      if (frame.contentWindow !== event.source) continue;
      frame.style.height = event.data.height + "px";
      const card = event.data.card;
      if (!card) continue;
      const top = frame.getBoundingClientRect().top + card.top;
      // in view and not at the window's edge: its top in the upper third, or scrolled there
      if (top < 0 || top > innerHeight / 3) scrollBy(0, top - 16);
    }}
  }});
</script>"""


def choices(raw):
    """The form's values, each one of the page's own or its default (a hand-edited field or an
    odd value never makes broken code)."""
    picked = dict(DEFAULTS)
    for key, allowed in (("game", GAMES), ("mode", MODES), ("theme", THEMES), ("width", WIDTHS)):
        if raw.get(key) in allowed:
            picked[key] = raw[key]
    try:
        height = int(str(raw.get("height", "")).strip())
    except ValueError:
        height = int(DEFAULTS["height"])
    picked["height"] = str(min(max(height, HEIGHTS[0]), HEIGHTS[1]))
    picked["fit"] = "false" if raw.get("fit") == "false" else "true"
    return picked


def frame_address(site, picked):
    """The embed's address: the site with ?embed=1 and the choices that differ from a plain
    visit (no game: the home screen; the device's colours: no theme)."""
    query = ["embed=1"]
    if picked["game"]:
        query.append("game=" + picked["game"])
        if picked["mode"] != "pass":
            query.append("mode=" + picked["mode"])
    if picked["theme"] != "auto":
        query.append("theme=" + picked["theme"])
    return site + "?" + "&".join(query)


def frame_code(site, origin, picked):
    """The HTML a blogger pastes: the iframe, and the resizing script when chosen."""
    width = picked["width"] if picked["width"].endswith("%") else picked["width"] + "px"
    title = "Psi Parlour" if not picked["game"] else "Psi Parlour: " + GAMES[picked["game"]]
    address = frame_address(site, picked).replace("&", "&amp;")
    code = (
        '<iframe src="' + address + '" title="' + title + '"'
        ' style="width: ' + width + "; max-width: 100%; height: " + picked["height"] + "px;"
        ' border: 0;" allow="clipboard-write" loading="lazy"></iframe>'
    )
    if picked["fit"] == "true":
        code += "\n" + RESIZER.format(origin=origin, message=HEIGHT_MESSAGE)
    return code


class EmbedPage:
    """The #embed screen's glue: form in, code and preview out."""

    def __init__(self):
        self.shown = None  # the preview's address, to reload it only when it changes
        self.scrolled = None  # the page's scroll when the preview was asked to load
        self.listening = None  # the preview's load listener (a proxy kept alive here)

    def copy(self, button):
        section = self.section()
        code = section.querySelector("[data-embed-code]")
        env.spawn(copy_code(button, str(code.value), code))

    def section(self):
        return dom.value(env.document.getElementById("embed"))

    def read(self, section):
        raw = {}
        for field in section.querySelectorAll("[data-embed]"):
            key = str(field.getAttribute("data-embed"))
            if str(getattr(field, "type", "")) == "checkbox":
                raw[key] = "true" if field.checked else "false"
            else:
                raw[key] = str(field.value)
        return choices(raw)

    def refresh(self):
        """Write the code for the choices on the page and show them in the preview."""
        section = self.section()
        if section is None:
            return
        location = env.window.location
        site = str(location.origin) + str(location.pathname)
        picked = self.read(section)
        section.querySelector("[data-embed-code]").value = frame_code(
            site, str(location.origin), picked
        )
        preview = section.querySelector("[data-embed-preview]")
        address = frame_address(str(location.pathname), picked)
        width = picked["width"] + ("" if picked["width"].endswith("%") else "px")
        preview.style.width = width
        if address != self.shown:
            self.shown = address
            preview.style.height = picked["height"] + "px"
            self.hold_scroll(preview)
            preview.src = address

    def hold_scroll(self, preview):
        """The preview is this site in a frame of the same origin: as it starts, it opens its
        screen by its #address, and the browser scrolls this page to show that screen (the
        Embed page opened 654 px down on a phone). The page's scroll goes back to where it
        was when the preview was asked to load, once, when it has loaded."""
        self.scrolled = float(env.window.scrollY)
        if self.listening is None:
            self.listening = env.proxy(self.loaded)
            preview.addEventListener("load", self.listening)

    def loaded(self, _event=None):
        env.spawn(self.restore())

    async def restore(self):
        """Put the scroll back after the frame's own scroll to its screen, which Chromium
        makes in the frames right after the load event (not before its listeners)."""
        for _ in range(HOLD_FRAMES):
            await asyncio.sleep(FRAME_S)
            if self.scrolled is not None and str(env.window.location.hash) == "#embed":
                env.window.scrollTo(0, self.scrolled)
        self.scrolled = None

    def on_message(self, event):
        """The preview, like a blog with the snippet, takes the height its frame tells."""
        section = self.section()
        data = dom.value(event.data)
        if section is None or data is None or str(event.origin) != str(env.window.location.origin):
            return
        if str(dom.value(getattr(data, "type", None))) != HEIGHT_MESSAGE:
            return
        preview = section.querySelector("[data-embed-preview]")
        fits = section.querySelector("[data-embed=fit]")
        same = getattr(env.window.Object, "is")  # Object.is: the same JS object
        if same(preview.contentWindow, event.source) and fits.checked:
            preview.style.height = str(int(data.height)) + "px"
