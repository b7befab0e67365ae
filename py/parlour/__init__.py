"""Psi Parlour: four ESP-themed tabletop games.

Layers, imports pointing down only:
    ui/     browser only: screens, SVG boards, input, hand-off screens
    net/    browser only: transports (WebRTC data channel, BroadcastChannel)
    match/  pure: a match as an ordered log of actions, replay, persistence, audit
    bots/   pure: AI players, using only what their seat may know
    games/  pure: one package per game: setup, legal actions, apply, views, result
    fair/   pure: commitments, joint randomness, deterministic RNG
Pure layers import only the standard library and the layers below them; they never import
`pyscript`, `js` or `pyodide`, so they run and are tested under plain CPython.
"""

PURE_LAYERS = ("fair", "games", "bots", "match")
BROWSER_LAYERS = ("net", "ui")
