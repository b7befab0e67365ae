"""shell.dom under MicroPython: reading elements and forms, drawing regions with focus kept."""

import json

from fakes import Document, Element, Input, Select, Window, install

from shell import dom


def page():
    body = Element("body")
    document = Document(body)
    install(document, Window(document))
    return document, body


def test_focus_key_names_a_control_by_its_data():
    button = Element("button", {"data-cmd": "tray", "data-symbol": 'st"ar'})
    assert dom.focus_key(button) == '[data-symbol="st\\"ar"][data-cmd="tray"]'
    assert dom.focus_key(Element("p")) is None
    assert dom.focus_key(None) is None


def test_data_of_reads_every_data_attribute_without_its_prefix():
    cell = Element("g", {"data-cell": "0,1", "class": "x", "data-cmd": "flip"})
    assert dom.data_of(cell) == {"cell": "0,1", "cmd": "flip"}


def test_form_fields_reads_inputs_and_selects_as_records():
    form = Element("section", {"id": "new-esp"})
    form.append(Input({"name": "esp-seats", "value": "2"}, value="2", checked=True, kind="radio"))
    form.append(Input({"data-seat-name": "0", "placeholder": "Light"}, value="Ada"))
    form.append(Select({"data-deck-seat": "0", "data-default": "starter:a"}, value="starter:b"))
    records = dom.form_fields(form)
    assert records[0]["checked"] is True and records[0]["name"] == "esp-seats"
    ada = records[1]
    assert (ada["tag"], ada["type"], ada["value"], ada["checked"]) == (
        "input",
        "text",
        "Ada",
        False,
    )
    assert ada["placeholder"] == "Light" and ada["data"] == {"seat-name": "0"}
    assert records[2]["checked"] is False and records[2]["value"] == "starter:b"
    assert records[2]["data"] == {"deck-seat": "0", "default": "starter:a"}
    assert dom.form_fields(None) == []


def test_render_keeps_the_focus_on_the_same_control_and_scrolls_the_log():
    _document, body = page()
    region = body.append(Element("div", {"class": "play-root"}))
    old = region.append(Element("button", {"data-cmd": "undo"}))
    old.focus()
    new = Element("button", {"data-cmd": "undo"})
    log = Element("ol", {"data-role": "log"})
    region.parse = lambda html: [new, log]  # stands in for the browser's HTML parser
    dom.render(region, "<button data-cmd=undo></button><ol data-role=log></ol>")
    assert region.innerHTML.startswith("<button")
    assert new.focused
    assert log.scrollTop == log.scrollHeight


def test_render_focuses_an_autofocus_control_when_nothing_was_focused():
    _document, body = page()
    region = body.append(Element("div"))
    button = Element("button", {"data-autofocus": ""})
    region.parse = lambda html: [button]
    dom.render(region, "<button data-autofocus></button>")
    assert button.focused


def test_fields_of_reads_a_screens_own_fields():
    root = Element("div")
    root.append(Input({"data-field": "invite"}, value="abc"))
    root.append(Select({"data-field": "espeers-deck"}, value="starter:x"))
    assert dom.fields_of(root) == {"invite": "abc", "espeers-deck": "starter:x"}


def test_render_never_pulls_the_focus_from_elsewhere_on_the_page():
    _document, body = page()
    link = body.append(Element("a", {"href": "#rules-esp"}))
    link.focus()
    region = body.append(Element("div"))
    button = Element("button", {"data-autofocus": ""})
    region.parse = lambda html: [button]
    dom.render(region, "<button data-autofocus></button>")  # a bot's move redrew the board
    assert not button.focused and link.focused


def test_render_gives_the_focus_to_the_heading_when_the_control_pressed_went():
    _document, body = page()
    region = body.append(Element("div"))
    card = region.append(Element("button", {"data-cmd": "play", "data-card": "7"}))
    card.focus()
    heading = Element("h2", {"data-role": "status", "tabindex": "-1"})
    region.parse = lambda html: [heading]
    dom.render(region, "<h2 data-role=status tabindex=-1></h2>")  # the card was played
    assert heading.focused


def test_in_a_frame_on_another_site_the_focus_moves_only_while_the_reader_is_in_it():
    # a blog's embed: the hand-off's button takes the focus after the reader's own click in the
    # frame, never while the reader is on the blog (a bot's move must not pull them into it)
    for reader_in_frame in (False, True):
        document, body = page()
        document.documentElement.setAttribute("data-frame", "cross-origin")
        document.focused = reader_in_frame
        region = body.append(Element("div"))
        button = Element("button", {"data-autofocus": ""})
        region.parse = lambda html, button=button: [button]
        dom.render(region, "<button data-autofocus></button>")
        assert button.focused is reader_in_frame
    document, body = page()
    document.documentElement.setAttribute("data-frame", "same-origin")  # the Embed page's preview
    document.focused = False
    assert dom.may_take_focus()


def changes(marks=(), puts=(), splices=()):
    """A redraw's changes as the worker sends them (parlour.ui.redraw): JSON text."""
    return json.dumps([list(marks), list(puts), list(splices)])


def drawn_region(body):
    """A region holding the worker's drawing 4: a status, a focused control, a log."""
    region = body.append(Element("div", {dom.STAMP: "4"}))
    table = region.append(Element("div", {"class": "play"}))
    status = table.append(Element("h2", {"data-role": "status"}))
    button = table.append(Element("button", {"data-cmd": "undo"}))
    log = table.append(Element("ol", {"data-role": "log"}))
    return region, status, button, log


def test_a_patch_replaces_the_changed_element_alone_and_leaves_the_focus_untouched():
    _document, body = page()
    region, _status, button, log = drawn_region(body)
    button.focus()
    button.focused = False  # to see whether the redraw focuses it again
    new_log = Element("ol", {"data-role": "log"})
    region.children[0].parse = lambda html: [new_log]
    region.parse = lambda html: 1 / 0  # the whole HTML is not parsed
    card = dom.render(
        region, "<whole>", [5, 4, changes(puts=[[[0, 2], "ol", "<ol data-role=log></ol>"]])]
    )
    assert card is None and region.getAttribute(dom.STAMP) == "5"
    assert region.children[0].children[2] is new_log and log.parent is None
    assert region.children[0].children[1] is button and not button.focused  # not touched
    assert new_log.scrollTop == new_log.scrollHeight  # the log is scrolled to its newest


def test_a_patch_gives_back_a_focus_that_was_in_a_replaced_element():
    _document, body = page()
    region, _status, button, log = drawn_region(body)
    button.focus()
    again = Element("button", {"data-cmd": "undo", "disabled": ""})
    region.children[0].parse = lambda html: [again]
    dom.render(region, "<whole>", [5, 4, changes(puts=[[[0, 1], "button", "<button></button>"]])])
    assert again.focused and log.scrollTop == 0  # the log was not redrawn: not scrolled


def test_a_patch_for_another_drawing_or_another_tag_falls_back_to_the_whole():
    for stamp, path, tag in (("3", [0, 2], "ol"), ("4", [0, 2], "ul"), ("4", [0, 7], "ol")):
        _document, body = page()
        region, status, _button, log = drawn_region(body)
        region.setAttribute(dom.STAMP, stamp)
        whole = Element("div", {"class": "play"})
        region.parse = lambda html, whole=whole: [whole]
        dom.render(region, "<whole>", [5, 4, changes(puts=[[path, tag, "<x></x>"]])])
        assert region.children[0] is whole and region.getAttribute(dom.STAMP) == "5"
        assert log.parent is status.parent  # no part was replaced before the whole came
        # a patch for this drawing that did not fit is said in the page's log
        assert len(dom.env.window.console.warned) == (stamp == "4")


def test_a_whole_drawing_without_a_stamp_clears_the_regions_stamp():
    _document, body = page()
    region, _status, _button, _log = drawn_region(body)
    region.parse = lambda html: [Element("p")]
    dom.render(region, "<p></p>")
    assert region.getAttribute(dom.STAMP) is None


def test_a_splice_takes_out_and_puts_in_a_run_of_elements():
    # "Since your turn" comes in under the status; then a move's line goes from the log
    _document, body = page()
    region, status, button, log = drawn_region(body)
    table = region.children[0]
    since = Element("div", {"class": "since"})
    table.parse = lambda html: [since]
    splices = [[[0], "div", 1, 0, 1, "<div class=since></div>"]]
    dom.render(region, "<whole>", [5, 4, changes(splices=splices)])
    assert table.children == [status, since, button, log]
    log.append(Element("li"))
    splices = [[[0, 3], "ol", 0, 1, 0, ""], [[0], "div", 1, 1, 0, ""]]  # the deepest first
    dom.render(region, "<whole>", [6, 5, changes(splices=splices)])
    assert table.children == [status, button, log] and log.children == []
    assert region.getAttribute(dom.STAMP) == "6"
    # a splice whose parent is elsewhere than drawn: the whole, from the drawing before
    whole = Element("div", {"class": "play"})
    region.parse = lambda html: [whole]
    dom.render(region, "<whole>", [7, 6, changes(splices=[[[0, 9], "ol", 0, 1, 0, ""]])])
    assert region.children == [whole]


def test_a_mark_sets_and_removes_attributes_of_an_element_kept():
    _document, body = page()
    region, _status, button, _log = drawn_region(body)
    button.setAttribute("disabled", "")
    button.focus()
    marks = [[[0, 1], "button", {"disabled": None, "class": "ready"}]]
    dom.render(region, "<whole>", [5, 4, changes(marks=marks)])
    assert region.children[0].children[1] is button and button.focused
    assert button.getAttribute("class") == "ready" and not button.hasAttribute("disabled")
    assert region.getAttribute(dom.STAMP) == "5"


def test_changes_sent_alone_that_fit_need_no_whole_html():
    _document, body = page()
    region, _status, _button, _log = drawn_region(body)
    new_log = Element("ol", {"data-role": "log"})
    region.children[0].parse = lambda html: [new_log]
    card = dom.render(region, None, [5, 4, changes(puts=[[[0, 2], "ol", "<ol></ol>"]])])
    assert card is None and region.children[0].children[2] is new_log
    assert region.getAttribute(dom.STAMP) == "5"


def test_changes_sent_alone_that_do_not_fit_ask_for_the_whole_and_touch_nothing():
    for stamp in ("3", "4"):  # another drawing held; or this one, but a path that is not there
        _document, body = page()
        region, status, _button, log = drawn_region(body)
        region.setAttribute(dom.STAMP, stamp)
        region.parse = lambda html: 1 / 0  # nothing to parse: it came without its whole HTML
        answer = dom.render(region, None, [5, 4, changes(puts=[[[0, 7], "ol", "<x></x>"]])])
        assert answer is dom.WHOLE
        assert region.getAttribute(dom.STAMP) == stamp and log.parent is status.parent


def hand_region(body, stop):
    """A region holding the worker's drawing 4: a hand of three cards, a row that is one Tab
    stop (`data-roving`), whose stop the arrow keys moved to `stop` in the page alone."""
    region = body.append(Element("div", {dom.STAMP: "4"}))
    row = region.append(Element("div", {"data-roving": "hand"}))
    for slot in range(3):
        attrs = {"data-cmd": "card", "data-slot": str(slot), "tabindex": "-1"}
        row.append(Element("button", attrs))
    row.children[stop].setAttribute("tabindex", "0")
    return region, row


def stops(row):
    return [b.getAttribute("data-slot") for b in row.children if b.getAttribute("tabindex") == "0"]


def test_a_row_whose_stop_a_patch_took_out_keeps_one_stop():
    # an ESPEERS discard by keyboard: the last card picked held the stop, the discard took it
    # from the hand, and the card the worker marked as the stop had lost it to the arrow keys
    _document, body = page()
    region, row = hand_region(body, stop=2)
    dom.render(region, "<whole>", [5, 4, changes(splices=[[[0], "div", 2, 1, 0, ""]])])
    assert len(row.children) == 2 and stops(row) == ["0"]


def test_a_row_keeps_its_stop_on_the_focused_control_and_only_there():
    _document, body = page()
    region, row = hand_region(body, stop=1)
    row.children[0].setAttribute("tabindex", "0")  # the worker's stop, marked again
    row.children[1].focus()
    marks = [[[0, 1], "button", {"class": "chosen"}]]
    dom.render(region, "<whole>", [5, 4, changes(marks=marks)])
    assert stops(row) == ["1"] and row.children[1].focused
    # a row with one stop and no focus in it is left as it is
    _document, body = page()
    region, row = hand_region(body, stop=2)
    dom.render(region, "<whole>", [5, 4, changes(marks=[[[0, 0], "button", {"class": "x"}]])])
    assert stops(row) == ["2"]


def test_a_row_never_keeps_its_stop_on_a_disabled_control():
    # Tab passes over a disabled button: a row whose stop is one is out of reach
    _document, body = page()
    region, row = hand_region(body, stop=0)
    row.children[0].setAttribute("disabled", "")
    dom.render(region, "<whole>", [5, 4, changes(marks=[[[0, 2], "button", {"class": "x"}]])])
    assert stops(row) == ["1"]
    _document, body = page()  # no stop at all, the first control disabled
    region, row = hand_region(body, stop=0)
    row.children[0].setAttribute("tabindex", "-1")
    row.children[0].setAttribute("disabled", "")
    dom.render(region, "<whole>", [5, 4, changes(marks=[[[0, 2], "button", {"class": "x"}]])])
    assert stops(row) == ["1"]
