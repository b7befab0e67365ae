"""The pure tests run on both cores (`make test`: pytest-xdist, `-n 2 --dist loadgroup`).

Most tests share nothing, but a few write the build's own output in the checkout (the app zip,
the trimmed standard library, runtime.json) while others read it: those run one after another
in one worker, so no test reads a file another is half way through writing.
"""

from __future__ import annotations

import pytest

# The test files that write or read the checkout's build output (assets/build/, sw.js).
WRITE_THE_BUILD = {
    "test_site.py",
    "test_stdlib.py",
    "test_deploy.py",
    "test_layers.py",
    "test_dev_dependencies.py",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in WRITE_THE_BUILD:
            item.add_marker(pytest.mark.xdist_group("build"))
