"""Draw the app's PNG icons (for the web app manifest and home screens) from the site's emblem.

Run once when the emblem changes: `.venv/bin/python -m scripts.icons`; the PNGs are committed.
Chromium draws them (the same browser the tests use); Pillow then keeps 64 colours, which
makes them a third of the size (every visitor's offline copy holds them). The maskable icon
keeps the emblem inside the central 80% circle that any launcher's mask leaves visible, on a
background that runs to the edges.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

from e2e.harness import chromium_launch_args

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "assets" / "icons"
EMBLEM = ROOT / "assets" / "icon.svg"
BACKGROUND = "#2b2148"  # the emblem's own ground
# name: (size in px, the emblem's share of the side, a full-bleed ground)
DRAWN = {
    "icon-192.png": (192, 1.0, False),
    "icon-512.png": (512, 1.0, False),
    "maskable-512.png": (512, 0.72, True),
    "apple-touch-icon.png": (180, 0.86, True),
}


def page_for(size: int, share: float, bleed: bool) -> str:
    svg = EMBLEM.read_text().replace("<svg ", '<svg width="100%" height="100%" ', 1)
    inner = round(size * share)
    ground = BACKGROUND if bleed else "transparent"
    return (
        "<!doctype html><html><body style='margin:0'>"
        f"<div style='width:{size}px;height:{size}px;display:grid;place-items:center;"
        f"background:{ground}'><div style='width:{inner}px;height:{inner}px'>"
        f"{svg}</div></div>"
        "</body></html>"
    )


def shrink(path: Path) -> None:
    """Keep 64 colours (with alpha), which the emblem's few flat colours and their soft edges
    need no more than."""
    image = Image.open(path).convert("RGBA")
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(**chromium_launch_args())
        for name, (size, share, bleed) in DRAWN.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(size, share, bleed))
            page.screenshot(path=str(ICONS / name), omit_background=not bleed)
            page.close()
            shrink(ICONS / name)
            print(f"drew {name}")
        browser.close()


if __name__ == "__main__":
    main()
