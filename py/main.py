"""The page's Python entry point: start the app, or show in the page why it could not start."""

import sys
import traceback

from pyscript import document

sys.path.insert(0, "parlour.zip")  # zipimport: the package is read from the zip as it is

try:
    from parlour.ui.app import start

    start()
except Exception:
    panel = document.getElementById("boot-error")
    panel.querySelector("pre").textContent = traceback.format_exc()
    panel.hidden = False
    document.documentElement.dataset.boot = "failed"
    raise
