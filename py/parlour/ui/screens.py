"""What a table needs whoever runs it, pass-and-play (app.py) or online (online/app.py).

Each game's screen, made on first use (the home screen needs none of the engines), the pause
before a bot's move, and the clock. Both app.py and online/app.py import these from here, so
neither imports the other: the app loads online play on first use, and online play never loads
the app.
"""

from __future__ import annotations

import time
from typing import Any

from parlour.games.catalog import CATALOG, load

# The games' engines and screens are imported on first use: the home screen needs none of them.
SCREENS = {entry.id: entry.screen for entry in CATALOG}
# The pause before a bot's move is asked for, so a person sees each move land before the next.
BOT_PAUSE_MS = 600


def screen_for(game_id: str) -> Any:
    return load(SCREENS[game_id])()


def now() -> float:
    return time.monotonic()
