import json
from pyscript import document, window, workers
import shellmod
document.getElementById("out").textContent = shellmod.hello()
document.documentElement.dataset.ready = "true"

async def go():
    w = await workers["engine"]
    document.documentElement.dataset.engine = "ready"
    t0 = window.performance.now()
    r = await w.call(json.dumps({"op": "ping", "n": 3}))
    t1 = window.performance.now()
    document.getElementById("out").textContent = str(r) + " " + str(t1 - t0)
import asyncio
asyncio.create_task(go())
