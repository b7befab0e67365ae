"""shell.links under MicroPython: tab links between two tabs of a browser greet each other once,
carry texts both ways and say goodbye; every event reaches the worker as plain data."""

from fakes import Document, Element, Window, install

from shell.links import Links


def test_two_tabs_meet_talk_and_part():
    document = Document(Element("body"))
    window = Window(document)
    install(document, window)
    host_events, guest_events = [], []
    host, guest = Links(host_events.append), Links(guest_events.append)
    host.run({"do": "tab", "link": "H1", "room": "r1", "hosting": True})
    guest.run({"do": "tab", "link": "G1", "room": "r1", "hosting": False})
    window.BroadcastChannel.bus.deliver()
    assert host_events == [{"event": "opened", "link": "H1"}]
    assert guest_events == [{"event": "opened", "link": "G1"}]
    guest.send("G1", "hello host")
    host.send("H1", "hello guest")
    window.BroadcastChannel.bus.deliver()
    assert host_events[-1] == {"event": "received", "link": "H1", "text": "hello host"}
    assert guest_events[-1] == {"event": "received", "link": "G1", "text": "hello guest"}
    third = Links([].append)
    third.run({"do": "tab", "link": "T1", "room": "r1", "hosting": False})
    window.BroadcastChannel.bus.deliver()  # a third tab opening the same invite is ignored
    assert len(host_events) == 2
    guest.run({"do": "close", "link": "G1"})
    window.BroadcastChannel.bus.deliver()
    assert host_events[-1] == {"event": "closed", "link": "H1"}
    guest.send("G1", "gone")  # a closed link sends nothing, and does not fail


async def test_a_link_the_browser_refuses_is_said_and_never_ends_the_page():
    """WebRTC off, or a frame denied BroadcastChannel: window.parlourLinks answers null (a JS
    throw would end main.py: that half is e2e/test_online.py's, with a real browser), the
    worker hears "failed" for WebRTC and for a tab link, the host's (whose WebRTC invite goes
    on: tests/ui/test_online_app.py) and a guest's."""
    import asyncio

    document = Document(Element("body"))
    window = Window(document)
    install(document, window)
    window.parlourLinks.refuse = True
    events = []
    links = Links(events.append)
    links.run({"do": "tab", "link": "T1", "room": "r1", "hosting": True})
    assert "T1" not in links.links
    assert events == [{"event": "failed", "link": "T1", "stage": "tab"}]
    links.send("T1", "nobody hears this")  # and nothing fails
    links.run({"do": "rtc-offer", "link": "R1", "stun": []})
    for _ in range(5):
        await asyncio.sleep(0)
    assert events[-1] == {"event": "failed", "link": "R1", "stage": "offer"}
    links.run({"do": "tab", "link": "G1", "room": "r2", "hosting": False})
    assert "G1" not in links.links
    assert events[-1] == {"event": "failed", "link": "G1", "stage": "tab"}
