"""The page's main thread (MicroPython): listeners up at once, the engines in a worker.

Clicks and keys become requests to the worker (`shell.bridge`); until the worker is ready they
wait in order, and the page meanwhile works as plain HTML and CSS. See docs/two-threads.md.
"""

import asyncio
import json

import js
from jsffi import create_proxy  # MicroPython's own

from shell import env

document, window = js.document, js.window
env.document, env.window, env.proxy = document, window, create_proxy


async def next_task():
    """Let the browser run its next task (asyncio.sleep(0) would resume in a microtask, still
    inside the same long task; a sleep of a millisecond is a timer, a task of its own)."""
    await asyncio.sleep(0.001)


# The interpreter's start was one task; each module is compiled from its source as it is first
# imported, so each is imported in a task of its own, those it imports first (shell.page's
# four took one 70-120 ms task; a click landing in it waited that long).
await next_task()  # noqa: F704
from shell import dom  # noqa: E402, F401

await next_task()  # noqa: F704
from shell.bridge import Bridge, release  # noqa: E402

await next_task()  # noqa: F704
from shell import copying  # noqa: E402, F401

await next_task()  # noqa: F704
from shell import embed  # noqa: E402, F401

await next_task()  # noqa: F704
from shell import page as page_module  # noqa: E402

await next_task()  # noqa: F704
from shell.links import Links  # noqa: E402

TICK_MS = 500
bridge = Bridge()
bridge.links = Links(lambda event: bridge.request(dict(op="link", **event)))
page = page_module.Page(bridge)
_kept = []  # every proxy given to JS stays alive


def listen(target, name, handler):
    proxy = create_proxy(handler)
    _kept.append(proxy)
    target.addEventListener(name, proxy)


def show_fault(trace, at_start=False):
    if at_start:
        window.parlourFault(trace)  # the loader's error panel (assets/main-thread.js)
    else:
        window.console.error(trace)


def tick():
    if bridge.ticking:
        bridge.request({"op": "tick"})


async def start_engine():
    try:
        worker = await window.parlourEngine  # assets/main-thread.js starts the worker
    except Exception:  # the loader has shown it in the error panel already
        return
    bridge.on_error = show_fault
    answer = await worker.call(json.dumps(page.start_request()))
    effects = json.loads(str(answer))
    try:
        if effects.get("error"):
            show_fault(effects["error"], at_start=True)
            return
        bridge.apply(effects)
    finally:
        release(effects)
    bridge.started(worker)
    for element in document.querySelectorAll(".warming"):
        element.classList.remove("warming")
    document.documentElement.dataset.engine = "ready"


listen(window, "hashchange", page.on_hash)
listen(window, "storage", page.on_storage)
listen(document, "click", page.on_click)
listen(document, "change", page.on_change)
listen(document, "keydown", page.on_key)
listen(document, "input", page.on_input)
window.setInterval(create_proxy(tick), TICK_MS)
bridge.after_effects.append(page_module.mark_resumable)
bridge.after_effects.append(page_module.show_share)
page_module.mark_resumable()
listen(window, "message", page.embed.on_message)
page.on_hash()  # the address the page opened at, first in line
document.documentElement.dataset.ready = "true"
env.spawn(start_engine())
