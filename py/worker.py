"""The worker's entry point (Pyodide): the whole app, exported as one function, `call`.

The page's main thread awaits `call(request JSON)` and applies the effects it returns. If the
package cannot even be imported, every call says so, and the page shows why it cannot start.
"""

import json
import sys
import traceback

sys.path.insert(0, "parlour.zip")  # zipimport: the package is read from the zip as it is

try:
    from parlour.ui.app import App

    app = App()
    FAULT = None
except Exception:
    FAULT = traceback.format_exc()


def call(text):
    if FAULT is not None:
        return json.dumps({"error": FAULT})
    return app.call(text)


__export__ = ["call"]
