"""The browser objects the main thread works with, set once by py/main.py (fakes in tests)."""

document = None
window = None


def proxy(function):
    """A Python callable for JavaScript to call back (py/main.py sets PyScript's create_proxy)."""
    return function


_tasks = set()  # running tasks, kept referenced until they finish


def spawn(coroutine):
    """Run a coroutine in the background, holding on to its task until it ends."""
    import asyncio

    async def run():
        try:
            await coroutine
        finally:
            _tasks.discard(task)

    task = asyncio.create_task(run())
    _tasks.add(task)
    return task
