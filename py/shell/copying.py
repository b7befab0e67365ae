"""Copying a code (an invite, an answer, the Embed page's iframe code) to the clipboard."""

import asyncio

from shell import dom, env

COPIED, SELECTED = "Copied \u2713", "Selected: copy it"


async def copy_code(button, text, box=None):
    """Copy a code and say so on its button for a moment. Where the page may not write to the
    clipboard (plain http on a LAN is no secure context), the code is left selected in its box
    (by default the field beside the button)."""
    if box is None:
        box = dom.value(button.parentElement.querySelector("input"))
    if box is not None:
        box.select()
    try:
        await env.window.navigator.clipboard.writeText(text)
        words = COPIED
    except Exception:
        words = SELECTED
    label = dom.value(button.getAttribute("data-label")) or str(button.textContent)
    button.setAttribute("data-label", label)  # a second click before the first is over
    button.textContent = words
    await asyncio.sleep(2.5)
    button.textContent = label
