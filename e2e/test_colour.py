"""Colour: the home and each game's play screen as people with the two common red-green colour
vision deficiencies see them (issue 17).

The test injects an SVG feColorMatrix filter (Machado, Oliveira and Fernandes 2009, severity 1,
applied in linear RGB, which is feColorMatrix's default) and sets it on the page's root element
through the CSSOM, which the page's Content-Security-Policy allows (it refuses style attributes in
markup, not styles set by script). Screenshots go to e2e/screenshots/colour-*.png: a person looks
at them, as the issue asks; every distinction (seat colours, highlights, card kinds) must be
carried by a shape or a word too. What the test itself checks: the filter is on, it changes the
picture, and it makes a red and a green that differ plainly for most people nearly alike (so a
screenshot under it shows what such a person sees).
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from e2e import clicks
from e2e.games import driver
from e2e.harness import READY, READY_TIMEOUT_MS
from e2e.players import SoloPage
from parlour.games.catalog import ids
from parlour.games.declared import default_tables
from parlour.match import bot_seats

# Rows of the 3x3 matrix, each with 0 for alpha's part and 0 offset; alpha kept.
MATRICES = {
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
}
INJECT = """([name, values]) => {
  const ns = 'http://www.w3.org/2000/svg';
  let svg = document.getElementById('cvd-filters');
  if (!svg) {
    svg = document.createElementNS(ns, 'svg');
    svg.id = 'cvd-filters';
    svg.setAttribute('aria-hidden', 'true');
    svg.style.position = 'absolute'; svg.style.width = '0'; svg.style.height = '0';
    document.body.append(svg);
  }
  if (!document.getElementById('cvd-' + name)) {
    const filter = document.createElementNS(ns, 'filter');
    filter.id = 'cvd-' + name;
    const matrix = document.createElementNS(ns, 'feColorMatrix');
    matrix.setAttribute('type', 'matrix');
    matrix.setAttribute('values', values);
    filter.append(matrix);
    svg.append(filter);
  }
  document.documentElement.style.filter = name ? `url(#cvd-${name})` : '';
  return getComputedStyle(document.documentElement).filter;
}"""
# A red and a green swatch side by side, on top of everything, to measure the filter itself.
SWATCHES = """() => {
  const box = document.createElement('div');
  box.id = 'cvd-swatches';
  for (const c of ['rgb(213, 94, 0)', 'rgb(0, 158, 115)']) {
    const d = document.createElement('div');
    d.style.background = c; d.style.width = '40px'; d.style.height = '40px';
    d.style.display = 'inline-block';
    box.append(d);
  }
  box.style.position = 'fixed'; box.style.left = '0'; box.style.top = '0';
  box.style.zIndex = '99999';
  document.body.append(box);
}"""


def matrix_values(rows: tuple[tuple[float, float, float], ...]) -> str:
    return " ".join(" ".join(str(v) for v in (*row, 0, 0)) for row in rows) + " 0 0 0 1 0"


def simulate(page, name: str | None) -> str:
    """Show the page as seen with `name` (None: as it is); return the root's computed filter."""
    values = matrix_values(MATRICES[name]) if name else ""
    return page.evaluate(INJECT, [name or "", values])


def shoot(page, screenshots, stem: str) -> dict[str, bytes]:
    """The screen as it is, and under each simulated deficiency."""
    shots = {}
    for name in (None, *MATRICES):
        applied = simulate(page, name)
        if name:
            assert f"cvd-{name}" in applied, f"the {name} filter is not on: {applied!r}"
        label = name or "normal"
        shots[label] = page.screenshot(path=screenshots / f"colour-{stem}-{label}.png")
    simulate(page, None)
    return shots


def advance(page, solo: SoloPage, moves: int) -> None:
    """The person (seat 0) makes `moves` moves, chosen by the easy bot; the bots answer."""
    for _ in range(moves):
        table = solo.settle()
        if table.match.result() is not None:
            return
        choice = bot_seats.decide(table, 0, "easy").choice
        before = table.match.step
        clicks.CLICKS[solo.game](page, solo.root, table.state, choice)
        page.wait_for_function(
            f"JSON.parse(localStorage.getItem('{solo.storage}')).table.match.log.length > {before}"
        )
    solo.settle()


def pixel(png: bytes, x: int, y: int) -> tuple[int, int, int]:
    """One pixel of a screenshot, as (red, green, blue)."""
    with Image.open(io.BytesIO(png)) as image:
        r, g, b = image.convert("RGB").getpixel((x, y))  # type: ignore[misc]
    return r, g, b


def test_the_filters_make_red_and_green_alike(app):
    """The simulation is real: Okabe-Ito's vermillion and bluish green, far apart in hue, come
    out of either filter with much closer hues (lightness still tells them apart, as it should:
    that is why the palette is good)."""
    app.evaluate(SWATCHES)
    seen = {}
    for name in (None, *MATRICES):
        simulate(app, name)
        png = app.screenshot(clip={"x": 0, "y": 0, "width": 80, "height": 40})
        seen[name or "normal"] = (pixel(png, 20, 20), pixel(png, 60, 20))

    def red_green_gap(pair):
        (r1, g1, _), (r2, g2, _) = pair
        return abs((r1 - g1) - (r2 - g2))  # how differently red and green the two swatches are

    normal = red_green_gap(seen["normal"])
    assert normal > 200, seen
    for name in MATRICES:
        assert red_green_gap(seen[name]) < normal / 2, (name, seen)


# (game, seats, moves before the picture): each game's driver says (e2e/games/).
PLAYS = [(game, *driver(game).COLOUR_PICTURE) for game in ids()]
TABLES = dict(default_tables())  # a game's own number of players: its form's default


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_home_and_play_screens_under_simulated_colour_blindness(browser, site, screenshots, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    page.goto(site.url)
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    shots = shoot(page, screenshots, f"home-{scheme}")
    assert shots["normal"] != shots["deuteranopia"] != shots["protanopia"]
    for game, seats, moves in PLAYS:
        solo = SoloPage(page, game)
        radio = None if seats == TABLES[game] else f"input[name='{game}-seats'][value='{seats}']"
        solo.start(site.url, seats, "easy", radio)
        advance(page, solo, moves)
        if game == "esp":  # a tile chosen: the cells it may go to are marked
            page.click(f"{solo.root} [data-cmd=tray] >> nth=0")
        shoot(page, screenshots, f"{game}-{scheme}")
    context.close()
