"""shell.page under MicroPython: events become the right requests, and what needs no worker is
done on the spot (Enter in a set-up field, arrows along a row, which games can be resumed)."""

from fakes import Document, Element, Event, Input, Window, install

from shell.page import Page, mark_resumable, roving


class Recorder:
    def __init__(self, ready=True):
        self.requests = []
        self.ready = ready

    def request(self, data):
        self.requests.append(data)


def build(hash_="#play-esp", local=None):
    body = Element("body")
    setup = body.append(Element("section", {"id": "new-esp", "class": "screen setup"}))
    setup.append(
        Input({"data-seat-name": "0", "placeholder": "Light", "maxlength": "24"}, value="Ada")
    )
    setup.append(Element("p", {"data-role": "name-limit"}))
    play = body.append(Element("section", {"id": "play-esp"}))
    root = play.append(Element("div", {"class": "play-root"}))
    root.append(Input({"data-field": "guess"}, value="12"))
    board = root.append(Element("svg"))
    board.append(Element("g", {"data-cell": "0,0"}))
    board.append(Element("g", {"data-cell": "1,0"}))
    root.append(Element("button", {"data-cmd": "undo", "disabled": ""}))
    hand = root.append(Element("div", {"data-roving": ""}))
    for card in ("a", "b", "c"):
        hand.append(Element("button", {"data-cmd": "play", "data-card": card}))
    links = body.append(Element("nav"))
    links.append(Element("a", {"data-resume-key": "psi-parlour:esp:pass-and-play"}))
    links.append(Element("a", {"data-resume-last": "psi-parlour:online:last"}))
    document = Document(body)
    window = Window(document, local=local, hash_=hash_)
    install(document, window)
    return document, window, root


def test_a_click_on_a_play_screen_is_a_request_with_the_screens_fields():
    _document, _, root = build()
    bridge = Recorder()
    cell = root.querySelector("[data-cell='1,0']")
    Page(bridge).on_click(Event(target=cell))
    assert bridge.requests == [
        {"op": "click", "region": "play:esp", "data": {"cell": "1,0", "fields": {"guess": "12"}}}
    ]


def test_a_disabled_control_or_a_click_elsewhere_asks_nothing():
    document, _, root = build()
    bridge = Recorder()
    Page(bridge).on_click(Event(target=root.querySelector("[data-cmd=undo]")))
    Page(bridge).on_click(Event(target=document.body))
    assert bridge.requests == []


def test_a_click_before_the_engines_are_ready_is_kept_and_shows_warming_up():
    _document, _, root = build()
    bridge = Recorder(ready=False)
    cell = root.querySelector("[data-cell='0,0']")
    Page(bridge).on_click(Event(target=cell))
    assert cell.classList.contains("warming")
    assert len(bridge.requests) == 1


def test_the_address_goes_with_its_set_up_form():
    _, window, _ = build("#start-esp")
    request = Page(Recorder()).route_request()
    assert request["op"] == "route" and request["hash"] == "#start-esp"
    assert request["form"][0]["value"] == "Ada"
    window.location.hash = "#rules-esp"
    assert "form" not in Page(Recorder()).route_request()


def test_keys_on_a_play_screen():
    document, window, root = build()
    bridge = Recorder()
    page = Page(bridge)
    page.on_key(Event(key="7", target=document.body))
    enter = Event(key="Enter", target=root.querySelector("[data-cell='0,0']"))
    page.on_key(enter)
    arrow = Event(key="ArrowRight", target=root.querySelector("[data-cell='0,0']"))
    page.on_key(arrow)
    assert bridge.requests[0] == {"op": "key", "region": "play:esp", "key": "7"}
    assert bridge.requests[1] == {"op": "key", "region": "play:esp", "key": "Enter", "cell": "0,0"}
    assert bridge.requests[2]["cells"] == ["0,0", "1,0"] and enter.prevented
    page.on_key(Event(key="5", target=root.querySelector("[data-field=guess]")))  # typing
    assert len(bridge.requests) == 3
    window.location.hash = "#rules-esp"
    page.on_key(Event(key="7", target=document.body))
    assert len(bridge.requests) == 3


def test_enter_in_a_set_up_field_starts_the_game():
    document, window, _ = build("#new-esp")
    event = Event(key="Enter", target=document.querySelector("[data-seat-name='0']"))
    Page(Recorder()).on_key(event)
    assert window.location.hash == "#start-esp" and event.prevented


def test_arrows_move_along_a_row_of_cards():
    _, _, root = build()
    a, b, c = root.querySelectorAll("[data-roving] button")
    assert roving(a, 1) and b.focused and b.getAttribute("tabindex") == "0"
    assert roving(c, 1)  # the end of the row: handled, nothing moves
    assert not roving(root.querySelector("[data-cell='0,0']"), 1)


def test_resume_links_show_only_with_a_saved_game():
    document, window, _ = build(local={})
    mark_resumable()
    game, online = document.querySelectorAll("nav a")
    assert game.hidden and online.hidden
    window.localStorage.setItem("psi-parlour:esp:pass-and-play", "{}")
    window.localStorage.setItem("psi-parlour:online:last", "psi-parlour:online:m1")
    mark_resumable()
    assert not game.hidden and online.hidden  # the last online game's save is gone
    window.localStorage.setItem("psi-parlour:online:m1", "{}")
    mark_resumable()
    assert not online.hidden


def test_a_finished_game_is_not_offered_to_resume():
    document, window, _ = build(local={})
    window.localStorage.setItem("psi-parlour:esp:pass-and-play", "{}")
    window.localStorage.setItem("psi-parlour:esp:pass-and-play:finished", "1")
    mark_resumable()
    game, _ = document.querySelectorAll("nav a")
    assert game.hidden, "a game kept only for its result is not one to resume"


def test_a_name_at_its_limit_says_so():
    document, _, _ = build("#new-esp")
    field = document.querySelector("[data-seat-name='0']")
    note = document.querySelector("[data-role=name-limit]")
    field.value = "x" * 24
    Page(Recorder()).on_input(Event(target=field))
    assert not note.hidden
    field.value = "Ada"
    Page(Recorder()).on_input(Event(target=field))
    assert note.hidden


def replay_page(hash_="#replay=1.abc"):
    body = Element("body")
    section = body.append(Element("section", {"id": "replay"}))
    root = section.append(Element("div", {"class": "replay-root"}))
    bar = root.append(Element("div", {"class": "replay"}))
    bar.append(Element("button", {"data-cmd": "next"}))
    bar.append(Input({"type": "range", "data-cmd": "seek", "data-field": "position"}, value="4"))
    files = bar.append(Input({"data-replay-file": ""}, kind="file"))
    document = Document(body)
    window = Window(document, hash_=hash_)
    install(document, window)
    return document, window, root, files


def test_arrows_home_and_end_step_through_a_replay():
    document, _, root, _ = replay_page()
    bridge = Recorder()
    page = Page(bridge)
    for key in ("ArrowLeft", "ArrowRight", "Home", "End"):
        event = Event(key=key, target=document.body)
        page.on_key(event)
        assert event.prevented
    assert [r["key"] for r in bridge.requests] == ["ArrowLeft", "ArrowRight", "Home", "End"]
    assert all(r["op"] == "key" and r["region"] == "replay" for r in bridge.requests)
    page.on_key(Event(key="ArrowRight", target=root.querySelector("[data-cmd=seek]")))
    assert len(bridge.requests) == 4  # the slider moves itself, and says so when let go
    back = Event(key="ArrowLeft", target=document.body, altKey=True)
    page.on_key(back)
    assert len(bridge.requests) == 4 and not back.prevented  # Alt+← is the browser's Back


def test_the_slider_let_go_is_a_seek_with_its_value():
    _, _, root, _ = replay_page()
    bridge = Recorder()
    Page(bridge).on_change(Event(target=root.querySelector("[data-cmd=seek]")))
    (request,) = bridge.requests
    assert request["region"] == "replay" and request["data"]["cmd"] == "seek"
    assert request["data"]["fields"]["position"] == "4"


def test_a_replay_address_marks_the_page_before_the_worker_answers():
    document, window, _, _ = replay_page("#home")
    page = Page(Recorder())
    window.location.hash = "#replay=1.abc"
    page.on_hash()
    assert document.documentElement.hasAttribute("data-replaying")
    window.location.hash = "#home"
    page.on_hash()
    assert not document.documentElement.hasAttribute("data-replaying")


class File:
    def __init__(self, text, size=None):
        self._text = text
        self.size = len(text) if size is None else size

    async def text(self):
        return self._text


class Files:
    def __init__(self, *files):
        self.files = files
        self.length = len(files)

    def item(self, i):
        return self.files[i]


async def test_a_game_file_chosen_is_read_here_and_sent_as_text():
    import asyncio

    _, _, _, field = replay_page("#replay")
    bridge = Recorder()
    for chosen in (File('{"format": "x"}'), File("", size=10**9)):
        field.files = Files(chosen)
        Page(bridge).on_change(Event(target=field))
        for _ in range(10):
            await asyncio.sleep(0)
    assert bridge.requests == [
        {"op": "replay-file", "text": '{"format": "x"}', "size": 15},
        {"op": "replay-file", "text": None, "size": 10**9},
    ]


def test_a_new_screen_takes_the_focus_to_its_heading():
    document, window, _root = build(hash_="#rules-esp")
    rules = document.body.append(Element("section", {"id": "rules-esp", "class": "screen"}))
    heading = rules.append(Element("h2"))
    Page(Recorder()).on_hash(Event())
    assert heading.focused and heading.getAttribute("tabindex") == "-1"
    window.location.hash = "#play-esp"  # a screen the worker draws: its focus is the worker's
    document.getElementById("play-esp").classList.add("play-screen")
    play_heading = document.getElementById("play-esp").append(Element("h2"))
    Page(Recorder()).on_hash(Event())
    assert not play_heading.focused
