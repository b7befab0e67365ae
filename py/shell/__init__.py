"""The page's main thread (MicroPython): the DOM, events, timers, storage and data channels.

It holds no rules and no game: it reads events into plain data, sends them to the worker
(`bridge`), and applies the effects the worker returns. Nothing here imports `pyscript` at
module level: `py/main.py` puts the browser's objects into `env`, so every module also imports
under MicroPython in Node, where the tests run it against small fakes (tests/shell/).
"""
