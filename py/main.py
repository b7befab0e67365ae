"""The page's Python entry point: start the app, or show in the page why it could not start."""

import traceback

from pyscript import document

try:
    from parlour.ui.app import start

    start()
except Exception:
    panel = document.getElementById("boot-error")
    panel.querySelector("pre").textContent = traceback.format_exc()
    panel.hidden = False
    document.documentElement.dataset.boot = "failed"
    raise
