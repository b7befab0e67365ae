"""What the site is made of: its root, the package's files the browser gets (and how it gets
them), and the files a deployment publishes.

The lowest of the scripts: the build (scripts/build.py), the service worker's list
(scripts/offline.py) and the trimmed standard library (scripts/stdlib.py) read it, and it
imports none of them, so none of them imports another in a circle (tests/test_layers.py).
"""

from __future__ import annotations

import io
import json
import tokenize
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "assets" / "build"


# Modules of the package that only developers run under CPython (the bots' arena and the tools
# built on it, the match simulator): left out of the browser's package (a test checks that
# nothing shipped imports them).
DEVELOPER_ONLY = (
    "parlour/bots/arena.py",
    "parlour/bots/espeers/balance.py",
    "parlour/bots/psi_squad/make_book.py",
    "parlour/match/simulate.py",
)


# The ui layer's browser glue in the engine worker (WebCrypto and IndexedDB), beside the pure
# package (py/parlour/ui/ is the layer's pure part), as the main thread's glue is py/shell/.
WORKER_GLUE = "ui"


def app_sources(root: Path = ROOT) -> list[Path]:
    """Every file of the parlour package that the browser needs, and the worker's glue."""
    py = root / "py"
    return sorted(
        [
            p
            for p in (py / "parlour").rglob("*")
            if p.is_file()
            and p.suffix in {".py", ".json"}
            and p.relative_to(py).as_posix() not in DEVELOPER_ONLY
        ]
        # the worker's browser glue, signing keys (a deploy, dist/, has none)
        + [glue for glue in (py / WORKER_GLUE).glob("*.py") if glue.is_file()]
    )


_STATEMENT_START = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}


def browser_source(source: str) -> str:
    """The module as the browser gets it: comments and docstrings left out, every line kept.

    Why: they are a third of the package's bytes, and every visitor downloads the package (once
    more for each blog that embeds the page). Lines stay where they were, so a traceback from
    the page points at the right line of the file in py/. A docstring becomes an empty string
    with the same line breaks; nothing in the package reads __doc__.
    """
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    kept: list[tokenize.TokenInfo] = []
    previous = tokenize.NEWLINE
    for index, token in enumerate(tokens):
        if token.type == tokenize.COMMENT:
            token = token._replace(string="")
        elif (
            token.type == tokenize.STRING
            and previous in _STATEMENT_START
            and tokens[index + 1].type == tokenize.NEWLINE
        ):
            breaks = token.string.count("\n")
            token = token._replace(string='"""' + "\n" * breaks + '"""' if breaks else '""')
        kept.append(token)
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
    return tokenize.untokenize(kept)


# The engine worker's configuration: people edit pyscript.toml (the design's name for it); the
# page loads pyscript.json, written from it by the build, because PyScript parses TOML in the page
# more slowly (docs/architecture.md, "The worker's configuration"). Both are committed, so a fresh
# clone's page and tests have the JSON before any build; a test keeps them equal.
WORKER_CONFIG = "pyscript.toml"
WORKER_JSON = "pyscript.json"


def worker_json(root: Path = ROOT) -> str:
    """pyscript.json's text as pyscript.toml says: the same table, as JSON (two-space indent)."""
    config = tomllib.loads((root / WORKER_CONFIG).read_text(encoding="utf-8"))
    return json.dumps(config, indent=2, ensure_ascii=False) + "\n"


def write_worker_json(root: Path = ROOT) -> bool:
    """Write pyscript.json from pyscript.toml; whether it changed."""
    text = worker_json(root)
    path = root / WORKER_JSON
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


# What a deployment publishes: the page, its config, the entry points, the service worker (built
# from scripts/sw.js) and the assets. `make serve` serves these and nothing else.
SITE_FILES = ("index.html", "pyscript.json", "mpy.json", "py/main.py", "py/worker.py", "sw.js")
SITE_DIRS = ("assets", "py/shell")  # the vendored runtime and the app; the main thread's modules


def published_files(root: Path = ROOT) -> list[str]:
    """Every file the site publishes, as paths from the site's root (sorted): what the deploy
    copies, what `make serve` answers for and what the service worker keeps for offline play."""
    files = [name for name in SITE_FILES if (root / name).is_file()]
    for name in SITE_DIRS:
        files += [
            p.relative_to(root).as_posix()
            for p in (root / name).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        ]
    return sorted(files)
