"""The Zener symbols come from the sprite in the page itself (index.html), never from a file:
a `<use>` of another file made the browser fetch it from its cache each time one was parsed,
about 5 ms of every ESPEERS redraw at a phone's speed (issue 39)."""

from __future__ import annotations

import re
from pathlib import Path

from parlour.games.catalog import ids
from parlour.ui.tree import to_html
from parlour.ui.zener_art import SPRITE, symbol_icon, symbol_use
from tests.test_conformance import SETUPS
from tests.ui.test_tree_html import screens_of_a_game

ROOT = Path(__file__).resolve().parents[2]
USE = re.compile(r"<use\b[^>]*\bhref=\"([^\"]*)\"")
SYMBOLS = ("circle", "cross", "waves", "square", "star")


def sprite_ids() -> set[str]:
    """The ids of the symbols in index.html's sprite."""
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    sprite = re.search(r'<svg class="sprite".*?</svg>', page, re.S)
    assert sprite is not None, "index.html holds the Zener symbols' sprite"
    return set(re.findall(r'<symbol id="([^"]+)"', sprite.group(0)))


def test_the_page_holds_every_symbol_once():
    assert sprite_ids() == {f"zener-{name}" for name in SYMBOLS}
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    assert all(page.count(f'id="zener-{name}"') == 1 for name in SYMBOLS)


def test_a_symbol_drawn_by_a_game_is_one_of_the_page_s_own():
    for name in SYMBOLS:
        for node in (symbol_use(name, 0, 0, 10, "x"), symbol_icon(name)):
            assert USE.findall(to_html(node)) == [f"{SPRITE}{name}"] == [f"#zener-{name}"]


def test_every_screen_of_every_game_uses_the_page_s_sprite_alone():
    known = {f"#{found}" for found in sprite_ids()}
    seen: set[str] = set()
    for game_id, names, variant in SETUPS:
        for tree in screens_of_a_game(game_id, names, variant, f"{game_id}-sprite".encode()):
            seen.update(USE.findall(to_html(tree)))
    assert seen and seen <= known, seen - known


def test_the_home_page_and_its_game_cards_use_the_page_s_sprite():
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    card = (ROOT / "scripts/templates/game-card.html").read_text(encoding="utf-8")
    used = USE.findall(page)
    assert len(used) >= 5 + len(ids()), used  # the hero's row and each game's emblem
    assert all(href.startswith("#zener-") for href in used + USE.findall(card))
    assert not (ROOT / "assets/zener.svg").exists()
