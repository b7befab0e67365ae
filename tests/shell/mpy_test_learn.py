"""shell.page under MicroPython for the tutorials (#learn-<game>): a lesson's clicks and keys go
to its region, and a link to another screen is routed."""

from fakes import Document, Element, Event, Window, install

from shell.page import Page


class Recorder:
    def __init__(self, ready=True):
        self.requests = []
        self.ready = ready

    def request(self, data):
        self.requests.append(data)


def learn_page(hash_="#learn-esp"):
    body = Element("body")
    rules = body.append(Element("section", {"id": "rules-esp", "class": "screen rules"}))
    rules.append(Element("h2"))
    learn = body.append(Element("section", {"id": "learn-esp", "class": "screen play-screen"}))
    root = learn.append(Element("div", {"class": "learn-root"}))
    board = root.append(Element("svg"))
    board.append(Element("g", {"data-cell": "4,2", "class": "learn-next"}))
    root.append(Element("button", {"data-cmd": "lesson-next"}))
    document = Document(body)
    window = Window(document, hash_=hash_)
    install(document, window)
    return document, window, root


def test_a_lessons_clicks_and_keys_go_to_its_region():
    document, _, root = learn_page()
    bridge = Recorder()
    page = Page(bridge)
    page.on_click(Event(target=root.querySelector("[data-cmd=lesson-next]")))
    page.on_key(Event(key="Enter", target=root.querySelector("[data-cell='4,2']")))
    page.on_key(Event(key="7", target=document.body))
    assert bridge.requests[0]["region"] == "learn:esp"
    assert bridge.requests[0]["data"]["cmd"] == "lesson-next"
    assert bridge.requests[1] == {"op": "key", "region": "learn:esp", "key": "Enter", "cell": "4,2"}
    assert bridge.requests[2] == {"op": "key", "region": "learn:esp", "key": "7"}


def test_a_link_to_another_screen_is_routed_after_the_focus_goes_to_its_heading():
    # focus_heading once used str.isalnum, which MicroPython lacks: the route never went out
    _, window, _ = learn_page("#home")
    bridge = Recorder()
    window.location.hash = "#rules-esp"
    Page(bridge).on_hash(Event())
    window.location.hash = "#learn-esp"
    Page(bridge).on_hash(Event())
    assert [r["hash"] for r in bridge.requests] == ["#rules-esp", "#learn-esp"]
