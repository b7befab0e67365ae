"""Psi Parlour: four ESP-themed tabletop games.

The whole package runs in the page's worker (Pyodide) and under plain CPython; none of it
touches a browser. The page's main thread runs MicroPython code of its own (py/shell/), which
holds no game (docs/two-threads.md).

Layers, imports pointing down only:
    ui/     the app: routes, play sessions, screens and SVG boards as pure trees, online play
    net/    invite and answer codes (sdp), the tests' in-memory transport
    match/  a match as an ordered log of actions, replay, persistence, audit, online sessions
    bots/   AI players, using only what their seat may know
    games/  one package per game: setup, legal actions, apply, views, result
    fair/   commitments, joint randomness, deterministic RNG, shared deals
Pure layers import only the standard library and the layers below them; they never import
`pyscript`, `js` or `pyodide`, so they run and are tested under plain CPython.
"""
