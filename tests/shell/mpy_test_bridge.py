"""shell.bridge under MicroPython: nothing asked before the worker is ready is lost or doubled,
effects are applied in order, and <html data-pending> says when the page is still answering."""

import asyncio

from fakes import (
    Box,
    Bulk,
    Document,
    Element,
    FullStorage,
    RefusedWindow,
    Window,
    Worker,
    install,
)

from shell.bridge import Bridge, storage_refused, storage_snapshot


def page(refused=False):
    body = Element("body")
    body.append(Element("div", {"id": "play-esp"})).append(Element("div", {"class": "play-root"}))
    document = Document(body)
    if refused:  # cookies blocked: every read of the storage areas throws
        window = RefusedWindow(document)
    else:
        window = Window(document, local={"psi-parlour:x": "1", "other": "2"})
    install(document, window)
    return document, window


async def settle():
    for _ in range(10):
        await asyncio.sleep(0)


async def test_requests_made_before_the_worker_is_ready_go_out_in_order_once():
    document, _ = page()
    bridge = Bridge()
    bridge.request({"op": "route", "hash": "#new-esp"})
    bridge.request({"op": "route", "hash": "#start-esp"})
    assert document.documentElement.getAttribute("data-pending") == "2"
    worker = Worker()
    bridge.started(worker)
    await settle()
    assert [r["hash"] for r in worker.requests] == ["#new-esp", "#start-esp"]
    bridge.started(worker)  # a second start sends nothing again
    await settle()
    assert len(worker.requests) == 2
    assert not document.documentElement.hasAttribute("data-pending")


async def test_effects_are_applied_storage_links_drawing_address():
    document, window = page()
    sent = []

    class Links:
        def run(self, operation):
            sent.append(("run", operation["do"]))

        def send(self, link_id, text):
            sent.append(("send", link_id, text))

    bridge = Bridge(Links())
    answer = {
        "local": {"psi-parlour:x": None, "psi-parlour:y": "2"},
        "session": {"psi-parlour:t": "k"},
        "links": [{"do": "close", "link": "L1"}],
        "send": [["L2", "hello"]],
        "render": [["#play-esp .play-root", "<p>board</p>"]],
        "attrs": {"online-save": "k"},
        "go": "#play-esp",
        "ticking": True,
    }
    bridge.started(Worker(lambda request: answer))
    bridge.request({"op": "click"})
    await settle()
    assert window.localStorage.values == {"other": "2", "psi-parlour:y": "2"}
    assert window.sessionStorage.values == {"psi-parlour:t": "k"}
    assert sent == [("run", "close"), ("send", "L2", "hello")]
    assert document.querySelector("#play-esp .play-root").innerHTML == "<p>board</p>"
    assert document.documentElement.getAttribute("data-online-save") == "k"
    assert window.location.replaced == ["#play-esp"] and bridge.ticking


async def test_a_fault_in_the_worker_is_shown_not_swallowed():
    page()
    faults = []
    bridge = Bridge()
    bridge.on_error = faults.append
    bridge.started(Worker(lambda request: {"error": "Traceback: boom"}))
    bridge.request({"op": "click"})
    await settle()
    assert faults == ["Traceback: boom"]


def test_storage_snapshot_takes_this_sites_keys_only():
    page()
    assert storage_snapshot("localStorage") == {"psi-parlour:x": "1"}


async def test_a_file_to_save_goes_to_the_browser_through_a_blob_link():
    document, window = page()
    made, clicked = [], []

    class Blob:
        @staticmethod
        def new(parts, options):
            made.append((list(parts), options["type"]))
            return "blob-object"

    class Url:
        @staticmethod
        def createObjectURL(blob):
            return "blob:http://127.0.0.1:8000/1" if blob == "blob-object" else None

        @staticmethod
        def revokeObjectURL(url):
            pass

    class Json:
        @staticmethod
        def parse(text):
            import json

            return json.loads(text)

    class Link(Element):
        def click(self):
            clicked.append((self.href, self.download, self.parent is document.body))

        def remove(self):
            document.body.children.remove(self)
            self.parent = None

    window.Blob, window.URL, window.JSON = Blob, Url, Json
    document.createElement = lambda tag: Link(tag)
    document.body.appendChild = document.body.append
    bridge = Bridge()
    bridge.started(Worker(lambda request: {"download": [["game.json", '{"a": 1}']]}))
    bridge.request({"op": "click"})
    await settle()
    assert made == [(['{"a": 1}'], "application/json")]
    assert clicked == [("blob:http://127.0.0.1:8000/1", "game.json", True)]
    assert document.body.querySelector("a") is None  # the link is gone again


def bot_reply(request):
    """The worker's answer to a move against a bot: a save, the board, the bot's turn later."""
    if request["op"] != "click":
        return {}
    return {
        "local": {"psi-parlour:esp:pass-and-play": "{saved}"},
        "session": {"psi-parlour:online:tab": "k"},
        "render": [["#play-esp .play-root", "<p>the bot's move</p>"]],
        "later": [[0, {"op": "bot"}]],
    }


async def a_move():
    """A move against a bot, on a bridge whose worker answers with `bot_reply`."""
    worker = Worker(bot_reply)
    bridge = Bridge()
    bridge.started(worker)
    bridge.request({"op": "click"})
    await settle()
    return worker, bridge


async def test_full_storage_stops_nothing_and_the_worker_hears_which_write_failed():
    document, window = page()
    window.localStorage = FullStorage({"psi-parlour:esp:pass-and-play": "{before}"})
    worker, bridge = await a_move()
    assert document.querySelector("#play-esp .play-root").innerHTML == "<p>the bot's move</p>"
    assert [r["op"] for r in worker.requests] == ["click", "unsaved", "bot"]
    unsaved = worker.requests[1]
    assert unsaved["keys"] == ["psi-parlour:esp:pass-and-play"] and unsaved["why"] == "full"
    assert window.localStorage.values == {"psi-parlour:esp:pass-and-play": "{before}"}
    assert window.sessionStorage.values == {"psi-parlour:online:tab": "k"}, "the rest is written"
    assert not document.documentElement.hasAttribute("data-pending")
    bridge.request({"op": "click"})
    await settle()
    assert [r["op"] for r in worker.requests][3:] == ["click", "bot"], "told once, not again"
    window.localStorage.room = True  # room made: the next write lands, and the worker hears it
    bridge.request({"op": "click"})
    await settle()
    assert [r["op"] for r in worker.requests][5:] == ["click", "unsaved", "bot"]
    assert worker.requests[6]["keys"] == [] and worker.requests[6]["why"] == ""


async def test_refused_storage_stops_nothing_and_the_worker_hears_why():
    document, _ = page(refused=True)
    assert storage_refused() and storage_snapshot("localStorage") == {}
    worker, _ = await a_move()
    assert document.querySelector("#play-esp .play-root").innerHTML == "<p>the bot's move</p>"
    unsaved = worker.requests[1]
    assert unsaved["op"] == "unsaved" and unsaved["why"] == "refused"
    assert unsaved["keys"] == ["psi-parlour:esp:pass-and-play", "psi-parlour:online:tab"]


async def test_a_new_hand_off_or_result_opens_at_its_top_and_its_focus_does_not_scroll_it_away():
    # issue 39: at 360 px a hand-off and a result opened mid-page, their first words cut, as
    # focusing their button (or heading) scrolled only as far as that
    document, window = page()
    region = document.querySelector("#play-esp .play-root")
    for kind, focus in (("handoff", None), ("result", "#result-title")):
        card = Element("div", {"data-opens-at-top": kind})
        control = card.append(Element("button", {"data-autofocus": ""}))
        title = card.append(Element("h2", {"id": "result-title"}))
        card.box = Box(-300, 500)  # drawn where the page was scrolled: its top above the window
        region.parse = lambda html, card=card: [card]
        window.scrollY, window.scrolled = 1200, []
        answer = {"render": [["#play-esp .play-root", "<div>card</div>"]], "focus": focus}
        bridge = Bridge()
        bridge.started(Worker(lambda request, answer=answer: answer))
        bridge.request({"op": "click"})
        await settle()
        target = title if focus else control
        assert target.focused and target.focus_options == {"preventScroll": True}, kind
        assert window.scrolled == [(0, 1200 - 300 - 16)], kind
        # drawn again (a bot's move, Share opened): the same card is not new, the page stays
        window.scrolled = []
        bridge.request({"op": "click"})
        await settle()
        assert window.scrolled == [], kind
    # a card whose top is already in the window's upper third (beside the board) stays put
    card = Element("div", {"data-opens-at-top": "result:2"})
    card.box = Box(120, 600)
    region.parse = lambda html: [card]
    window.scrolled = []
    bridge.request({"op": "click"})
    await settle()
    assert window.scrolled == []


async def test_changes_that_do_not_fit_ask_the_worker_for_the_whole_drawing_and_draw_it():
    document, _ = page()
    region = document.querySelector("#play-esp .play-root")
    region.setAttribute("data-drawn", "3")  # the page holds drawing 3; the changes start at 4

    def answer(request):
        if request["op"] == "whole":
            return {
                "render": [[request["selector"], "<p>the whole</p>"]],
                "patch": {request["selector"]: [5, None, ""]},
            }
        return {
            "render": [["#play-esp .play-root", None]],
            "patch": {"#play-esp .play-root": [5, 4, '[[],[[[0],"p","<p></p>"]],[]]']},
        }

    worker = Worker(answer)
    bridge = Bridge()
    bridge.started(worker)
    bridge.request({"op": "bot", "game": "esp", "step": 3})
    await settle()
    assert [r["op"] for r in worker.requests] == ["bot", "whole"]
    assert worker.requests[1]["selector"] == "#play-esp .play-root"
    assert region.innerHTML == "<p>the whole</p>" and region.getAttribute("data-drawn") == "5"
    assert not document.documentElement.hasAttribute("data-pending")


async def test_a_long_save_drawing_and_changes_reach_the_page_by_name_and_are_let_go():
    """The page's JS keeps an answer's bulk (assets/answers.mjs): the shell reads names, hands
    them to the page's functions, and lets the answer's bulk go once it is applied."""
    document, window = page()
    region = document.querySelector("#play-esp .play-root")
    save = '{"log": "' + "m" * 2000 + '"}'
    whole = "<p>" + "b" * 2000 + "</p>"
    changes = '[[[[],"div",{"data-note":"' + "c" * 600 + '"}]],[],[]]'
    answers = [
        {
            "local": {"psi-parlour:save": save},
            "render": [["#play-esp .play-root", whole]],
            "patch": {"#play-esp .play-root": [4, None, ""]},
        },
        {
            "local": {"psi-parlour:save": save + " "},
            "render": [["#play-esp .play-root", None]],
            "patch": {"#play-esp .play-root": [5, 4, changes]},
        },
    ]
    worker = Worker(lambda request: answers[0 if request["op"] == "route" else 1])
    lightened = Bulk.lighten(__import__("json").dumps(answers[0]))
    assert len(lightened) < 300 and save not in lightened and whole not in lightened
    Bulk.release(__import__("json").loads(lightened)["bulk"])
    bridge = Bridge()
    bridge.started(worker)
    bridge.request({"op": "route", "hash": "#play-esp"})
    await settle()
    assert window.localStorage.values["psi-parlour:save"] == save
    assert region.innerHTML == whole and region.getAttribute("data-drawn") == "4"
    bridge.request({"op": "bot", "game": "esp", "step": 3})
    await settle()
    assert window.localStorage.values["psi-parlour:save"] == save + " "
    assert region.getAttribute("data-note") == "c" * 600
    assert region.innerHTML == whole and region.getAttribute("data-drawn") == "5"
    assert Bulk.kept == {}  # every answer's bulk let go
    assert [r["op"] for r in worker.requests] == ["route", "bot"]


class Watched(Element):
    """An element whose focus and scroll height, when read, note what the page held then."""

    def __init__(self, tag, attrs, seen, document):
        super().__init__(tag, attrs)
        self.seen, self.document = seen, document

    def now(self):
        root = self.document.documentElement
        return (root.getAttribute("data-bot-due"), self.document.querySelector("#note").textContent)

    def focus(self, options=None):
        self.seen.append(("focus", self.now()))
        super().focus(options)

    @property
    def scrollHeight(self):
        self.seen.append(("scroll", self.now()))
        return 100

    @scrollHeight.setter
    def scrollHeight(self, value):
        pass


async def test_the_focus_and_the_log_s_scroll_wait_until_every_write_is_made():
    # issue 39: each made the browser lay the page out, and the writes after them (<html>'s
    # attributes, a text) made it lay it out again in the same task
    document, _window = page()
    document.body.append(Element("p", {"id": "note"}))
    region = document.querySelector("#play-esp .play-root")
    seen = []
    control = Watched("button", {"data-autofocus": ""}, seen, document)
    log = Watched("ol", {"data-role": "log"}, seen, document)
    region.parse = lambda html: [control, log]
    answer = {
        "render": [["#play-esp .play-root", "<button></button><ol></ol>"]],
        "text": [["#note", "Bo moves"]],
        "attrs": {"bot-due": "1"},
    }
    bridge = Bridge()
    bridge.started(Worker(lambda request: answer))
    bridge.request({"op": "click"})
    await settle()
    assert control.focused and log.scrollTop == 100
    assert seen == [("focus", ("1", "Bo moves")), ("scroll", ("1", "Bo moves"))], seen


async def test_a_region_drawn_later_in_an_answer_leaves_the_focus_an_earlier_one_gives():
    # the focus waits until the writes are made (shell.dom.after_writes): a region drawn after
    # another sees the focus that one is to give, as it saw it when it was given at once
    document, _window = page()
    first = document.querySelector("#play-esp .play-root")
    second = document.body.append(Element("div", {"id": "note-root"}))
    pressed = first.append(Element("button", {"data-cmd": "flip"}))
    pressed.focus()
    mine = Element("button", {"data-autofocus": ""})
    theirs = Element("button", {"data-autofocus": ""})
    first.parse = lambda html: (pressed.blur(), [mine])[1]  # the focused control goes
    second.parse = lambda html: [theirs]
    answer = {"render": [["#play-esp .play-root", "<button>"], ["#note-root", "<button>"]]}
    bridge = Bridge()
    bridge.started(Worker(lambda request: answer))
    bridge.request({"op": "click"})
    await settle()
    assert mine.focused and not theirs.focused
