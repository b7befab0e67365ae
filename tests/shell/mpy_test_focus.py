"""shell.page under MicroPython: a new screen's heading takes the keyboard focus, without
scrolling (the screen's own rule shows the page's top, and a focus that scrolls moves the page
around a frame too)."""

from fakes import Document, Element, Event, Window, install

from shell.page import Page


class Recorder:
    def __init__(self):
        self.requests = []
        self.ready = True

    def request(self, data):
        self.requests.append(data)


def test_a_new_screen_puts_the_focus_on_its_heading_without_scrolling():
    body = Element("body")
    section = body.append(Element("section", {"id": "rules-esp", "class": "screen rules"}))
    heading = section.append(Element("h2"))
    document = Document(body)
    window = Window(document, hash_="#home")
    install(document, window)
    page = Page(Recorder())
    window.location.hash = "#rules-esp"
    page.on_hash(Event(target=body))
    assert heading.focused and heading.getAttribute("tabindex") == "-1"
    assert heading.focus_options == {"preventScroll": True}
