"""The worker's entry point (Pyodide): the whole app, exported as one function, `call`.

The page's main thread awaits `call(request JSON)` and applies the effects it returns. If the
package cannot even be imported, every call says so, and the page shows why it cannot start.
Signed play (py/ui/webcrypto.py) checks and makes signatures with WebCrypto, which answers
later, so `call` is asynchronous, and calls run one at a time, in the order they came. A worker
where the glue cannot even be imported still plays: pass-and-play and bots as always, online
unsigned (version 1, as a browser without WebCrypto does: docs/online.md).
"""

import asyncio
import json
import sys
import traceback

sys.path.insert(0, "parlour.zip")  # zipimport: the package is read from the zip as it is

try:
    from parlour.ui.app import App

    app = App()
    app.lean = True  # a redraw's changes travel without its whole HTML (ui/page.py, Effects)
    FAULT = None
except Exception:
    FAULT = traceback.format_exc()

try:
    from ui.webcrypto import Keyring
    from ui.webcrypto import call as signed_call

    keyring = Keyring()
except Exception:
    keyring = None  # no signing here: everything else works, online plays unsigned


ONE_AT_A_TIME = asyncio.Lock()


async def call(text):
    if FAULT is not None:
        return json.dumps({"error": FAULT})
    async with ONE_AT_A_TIME:
        if keyring is None:
            return app.call(text)
        return await signed_call(app, keyring, text)


__export__ = ["call"]
