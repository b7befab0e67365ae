"""The pure tests run on both cores (`make test`: pytest-xdist, `-n 2`).

Most of them share nothing, but a few write the build's own output in the checkout (the app zip,
the trimmed standard library, runtime.json) while others read it: those are marked
`build_output` and take one lock, so only one of them runs at a time, whichever worker runs it,
and no test reads a file another is half way through writing. (A lock, not xdist's
`--dist loadgroup`: pytest-xdist 3.8 cannot rename the tests of a group under pytest 9.)
"""

from __future__ import annotations

import fcntl
import hashlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
# Outside the checkout (whose assets/build/ is published) and one per checkout.
LOCK = Path(tempfile.gettempdir()) / (
    "psi-parlour-build-" + hashlib.sha256(str(CHECKOUT).encode()).hexdigest()[:12] + ".lock"
)


@pytest.fixture(autouse=True)
def one_build_output_test_at_a_time(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("build_output") is None:
        yield
        return
    with LOCK.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
