"""Online: a move until the other peer's board shows it, and an answer pasted until connected.

Two isolated browser contexts on loopback. The baseline, measured in the same run, is the bare
transport: two blank pages connected by a plain RTCDataChannel (the same browser, the same
signalling done by hand), one sending a timestamp and the other writing it into its page. The
app's figures are a real Psi Squad game made through the invite and answer codes: a guess typed
on one device until the row appears in the other device's history, each way; and the Connect
click until the host shows the seat connected. Times are the machine clock (`Date.now()`), shared
by both contexts.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field

from e2e.harness import READY, READY_TIMEOUT_MS, UI_READY

SAMPLES = 20
CONNECTS = 4

BARE_OFFER = """async () => {
  window.pc = new RTCPeerConnection({iceServers: []});
  window.dc = pc.createDataChannel('bench');
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise(r => { const t = setTimeout(r, 3000);
    pc.onicegatheringstatechange = () =>
      pc.iceGatheringState === 'complete' && (clearTimeout(t), r()); });
  return pc.localDescription.sdp;
}"""
BARE_ANSWER = """async (offer) => {
  window.pc = new RTCPeerConnection({iceServers: []});
  window.seen = [];
  pc.ondatachannel = e => { e.channel.onmessage = m => {
    const p = document.createElement('p'); p.textContent = m.data; document.body.appendChild(p);
    seen.push(Date.now() - Number(m.data)); }; };
  await pc.setRemoteDescription({type: 'offer', sdp: offer});
  await pc.setLocalDescription(await pc.createAnswer());
  await new Promise(r => { const t = setTimeout(r, 3000);
    pc.onicegatheringstatechange = () =>
      pc.iceGatheringState === 'complete' && (clearTimeout(t), r()); });
  return pc.localDescription.sdp;
}"""
BARE_CONNECT = """async (answer) => {
  const t0 = Date.now();
  await pc.setRemoteDescription({type: 'answer', sdp: answer});
  if (dc.readyState !== 'open') await new Promise(r => dc.onopen = r);
  return Date.now() - t0;
}"""

# On a device: note when a new row reaches the history of guesses.
WATCH_HISTORY = """() => {
  window.rows = [];
  new MutationObserver(() => {
    const n = document.querySelectorAll('#online [data-role=history] tr').length;
    if (n > (window.lastRows || 0)) { window.lastRows = n; window.rows.push(Date.now()); }
  }).observe(document.body, {subtree: true, childList: true});
}"""


# Every message a page's data channels send, kept for the bytes per message.
SENT = """
window.__sent = [];
const send = RTCDataChannel.prototype.send;
RTCDataChannel.prototype.send = function (data) {
  window.__sent.push(String(data));
  return send.call(this, data);
};
"""
# In every worker of a page: the WebCrypto calls py/ui/webcrypto.py timed (`parlour-sign`,
# `parlour-verify`), in ms; `clear` forgets those made so far.
WORKER_TIMES = """(clear) => {
  const got = {};
  const names = performance.getEntriesByType('measure').map(e => e.name);
  for (const name of new Set(names.filter(n => n.startsWith('parlour-')))) {
    got[name] = performance.getEntriesByName(name).map(e => e.duration);
    if (clear) performance.clearMeasures(name);
  }
  return got;
}"""
# What signing adds to a message: its device, its number and its signature (docs/online.md).
SIGNED_FIELDS = ("d", "q", "s")


def _pair(browser):
    a, b = browser.new_context(), browser.new_context()
    for context in (a, b):
        context.add_init_script(SENT)
    return a, b, a.new_page(), b.new_page()


def _worker_times(page, clear: bool = False) -> dict[str, list[float]]:
    """The timed WebCrypto calls of a page's workers (none on a page that does not sign)."""
    got: dict[str, list[float]] = {"parlour-sign": [], "parlour-verify": []}
    for worker in page.workers:
        try:
            times = worker.evaluate(WORKER_TIMES, clear)
        except Exception:
            continue  # a worker gone, or not ours
        for name, values in times.items():
            got[name] = got.get(name, []) + values
    return got


def _added_bytes(text: str) -> int:
    """The bytes a message carries for its signature: its `d`, `q` and `s` fields."""
    message = json.loads(text)
    if not isinstance(message, dict) or "s" not in message:
        return 0
    bare = {k: v for k, v in message.items() if k not in SIGNED_FIELDS}
    return len(text.encode()) - len(json.dumps(bare, separators=(",", ":")).encode())


@dataclass
class Traffic:
    """What one run's measured moves cost besides their latency."""

    moves: int = 0
    messages: int = 0
    sent_bytes: int = 0
    signed: int = 0
    added: list[int] = field(default_factory=list)
    sign_ms: list[float] = field(default_factory=list)
    verify_ms: list[float] = field(default_factory=list)
    parts: dict[str, list[float]] = field(default_factory=dict)  # a worker call's parts, ms

    def add(self, other: Traffic) -> None:
        for name in ("moves", "messages", "sent_bytes", "signed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.added += other.added
        self.sign_ms += other.sign_ms
        self.verify_ms += other.verify_ms
        for name, values in other.parts.items():
            self.parts[name] = self.parts.get(name, []) + values


def bare(browser) -> tuple[float, list[float]]:
    a, b, host, guest = _pair(browser)
    for page in (host, guest):
        page.goto("about:blank")
    answer = guest.evaluate(BARE_ANSWER, host.evaluate(BARE_OFFER))
    connect = host.evaluate(BARE_CONNECT, answer)
    for _ in range(SAMPLES):
        host.evaluate("dc.send(String(Date.now()))")
        host.wait_for_timeout(50)
    latencies = guest.evaluate("seen")
    a.close()
    b.close()
    return connect, latencies


def _open_game(browser, url: str, ready: str = READY):
    a, b, host, guest = _pair(browser)
    host.goto(url + "#new-psi-squad")
    host.wait_for_selector(ready, state="attached", timeout=READY_TIMEOUT_MS)
    host.check("input[name='psi-squad-seats'][value='2']")
    host.check("input[name='psi-squad-length'][value='3']")
    host.click("#new-psi-squad .online-setup summary")
    host.click("#new-psi-squad >> text=Make the invites")
    link = host.locator("[data-role=invite-1]")
    link.wait_for()
    guest.goto(link.get_attribute("value"))
    guest.wait_for_selector(ready, state="attached", timeout=READY_TIMEOUT_MS)
    answer = guest.locator("[data-role=answer]")
    answer.wait_for()
    host.fill("[data-field=answer-1]", answer.get_attribute("value"))
    started = host.evaluate("Date.now()")
    host.click("[data-cmd=accept-answer][data-seat='1']")
    host.wait_for_selector("#online .play", timeout=READY_TIMEOUT_MS)
    connect = host.evaluate("Date.now()") - started
    return a, b, host, guest, connect


def _type(page, digits: str, cmd: str) -> None:
    for d in digits:
        page.click(f"#online [data-cmd=digit][data-digit='{d}']")
    if cmd == "guess":
        page.evaluate(
            "window.t0 = Date.now(); document.querySelector('#online [data-cmd=guess]').click()"
        )
    else:
        page.click(f"#online [data-cmd={cmd}]")


def app(
    browser, url: str, ready: str = READY, connects_wanted: int = CONNECTS
) -> tuple[list[float], list[float], Traffic]:
    connects, latencies, traffic = [], [], Traffic()
    for attempt in range(connects_wanted):
        a, b, host, guest, connect = _open_game(browser, url, ready)
        connects.append(connect)
        if attempt:
            a.close()
            b.close()
            continue
        guest.locator("#online .play").wait_for()
        _type(host, "111", "seal-cypher")
        _type(guest, "222", "seal-cypher")
        for page in (host, guest):
            page.evaluate(WATCH_HISTORY)
            page.evaluate("window.__sent = []")
            _worker_times(page, clear=True)
        pages = {0: host, 1: guest}
        for _ in range(SAMPLES):
            mover = _whose_turn(pages)
            page, other = pages[mover], pages[1 - mover]
            before = other.evaluate("window.rows.length")
            own = page.evaluate("window.rows.length")
            page.click(f"#online [data-cmd=target][data-seat='{1 - mover}']")
            _type(page, "909", "guess")
            other.wait_for_function(f"window.rows.length > {before}")
            latencies.append(
                other.evaluate("window.rows[window.rows.length - 1]") - page.evaluate("t0")
            )
            # Not timed: the mover's own board shows its move too before the next turn is read
            # (the other board can show it first; a stale guess button is not a turn).
            page.wait_for_function(f"window.rows.length > {own}")
        host.wait_for_timeout(500)  # the last move's acknowledgements
        traffic.moves = SAMPLES
        for page in (host, guest):
            sent = page.evaluate("window.__sent")
            traffic.messages += len(sent)
            traffic.sent_bytes += sum(len(text.encode()) for text in sent)
            added = [n for n in map(_added_bytes, sent) if n]
            traffic.signed += len(added)
            traffic.added += added
            times = _worker_times(page)
            traffic.sign_ms += times.pop("parlour-sign")
            traffic.verify_ms += times.pop("parlour-verify")
            for name, values in times.items():
                traffic.parts[name] = traffic.parts.get(name, []) + values
        a.close()
        b.close()
    return connects, latencies, traffic


def _whose_turn(pages: dict) -> int:
    for _ in range(100):
        for seat, page in pages.items():
            if page.locator("#online [data-cmd=guess]").count():
                return seat
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody's turn to guess")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def run(browser, url: str, baseline_url: str | None = None) -> list[str]:
    bare_connect, bare_moves = bare(browser)
    traffic, old_traffic = Traffic(), Traffic()
    if baseline_url is None:
        connects, moves, traffic = app(browser, url)
    else:  # this code and the earlier code, interleaved: the machine's noise falls on both
        connects, moves, old_moves = [], [], []
        for _ in range(2):
            c, m, t = app(browser, url, connects_wanted=2)
            connects, moves = connects + c, moves + m
            traffic.add(t)
            _, m, t = app(browser, baseline_url, ready=UI_READY, connects_wanted=1)
            old_moves += m
            old_traffic.add(t)
    bare_median = max(1.0, statistics.median(bare_moves))
    app_median = statistics.median(moves)
    connect = statistics.median(connects)
    lines = [
        f"online (2 isolated contexts, WebRTC on loopback; {len(moves)} moves, "
        f"{len(connects)} connections)",
        f"  bare data channel: message to the other page, median {bare_median:5.1f} ms,"
        f" p95 {_p95(bare_moves):5.1f} ms; answer to open {bare_connect:5.0f} ms",
        f"  app: move to the other board, median {app_median:5.0f} ms, p95 {_p95(moves):5.0f} ms"
        f"   ratio to bare: {app_median / bare_median:5.1f}",
        f"  app: answer pasted to connected and playing, median {connect:5.0f} ms,"
        f" p95 {_p95(connects):5.0f} ms   ratio to bare: {connect / max(1, bare_connect):5.1f}",
    ]
    lines += _traffic_lines(traffic, "app")
    if baseline_url is not None:
        lines += _traffic_lines(old_traffic, "earlier code")
        old = statistics.median(old_moves)
        change = (app_median / bare_median) / (old / bare_median)
        lines.append(
            f"  earlier code, interleaved: move median {old:5.0f} ms, ratio to bare"
            f" {old / bare_median:5.1f}; this code / earlier: {change:4.2f}"
            f"   budget 1.25: {'ok' if change <= 1.25 else 'OVER'}"
        )
    return lines


def _traffic_lines(traffic: Traffic, who: str) -> list[str]:
    """Messages and bytes per move (both devices' sends), and the WebCrypto calls timed."""
    moves = max(1, traffic.moves)
    lines = [
        f"  {who}: per move {traffic.messages / moves:4.1f} messages,"
        f" {traffic.sent_bytes / moves:6.0f} bytes sent (both devices)"
    ]
    if traffic.added:
        lines.append(
            f"  {who}: signed messages {traffic.signed}/{traffic.messages}, bytes added per"
            f" signed message median {statistics.median(traffic.added):4.0f}"
            f" (its d, q and s fields)"
        )
    for name, times in (("sign", traffic.sign_ms), ("verify", traffic.verify_ms)):
        if times:
            lines.append(
                f"  {who}: WebCrypto {name} in the worker, {len(times) / moves:4.1f} per move,"
                f" median {statistics.median(times):5.2f} ms, p95 {_p95(times):5.2f} ms"
            )
    for name, times in sorted(traffic.parts.items()):
        part, median = name.removeprefix("parlour-call-"), statistics.median(times)
        lines.append(
            f"  {who}: worker call, {part}: {len(times) / moves:4.1f} per move,"
            f" {sum(times) / moves:6.1f} ms per move, median {median:5.2f} ms,"
            f" p95 {_p95(times):5.2f} ms"
        )
    return lines
