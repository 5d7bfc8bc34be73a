#!/usr/bin/env python3
"""Render the PWA icons in web/icons/ from web/icon.svg (run by hand after
changing the icon; the PNGs are committed, so the site build needs no browser).

    python scripts/make_icons.py

Uses the e2e tests' headless Chromium (Playwright). Writes icon-192.png,
icon-512.png and maskable-512.png; the maskable one fills the whole square
with the felt and keeps the card inside the central safe zone (80 %).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from browser import launch


def maskable(svg: str) -> str:
    """Full-bleed background, the rest scaled to 80 % around the centre."""
    inner = re.sub(r'^<svg[^>]*>|</svg>$', "", svg.strip())
    bg = re.search(r'<rect width="64" height="64"[^>]*fill="([^"]+)"/>', inner)
    fill = bg.group(1) if bg else "#0d5c3a"
    inner = inner.replace(bg.group(0), "") if bg else inner
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
            f'<rect width="64" height="64" fill="{fill}"/>'
            f'<g transform="translate(6.4 6.4) scale(0.8)">{inner}</g></svg>')


def main() -> int:
    from playwright.sync_api import sync_playwright
    svg = (ROOT / "web" / "icon.svg").read_text()
    out = ROOT / "web" / "icons"
    out.mkdir(exist_ok=True)
    jobs = [("icon-192.png", svg, 192), ("icon-512.png", svg, 512), ("maskable-512.png", maskable(svg), 512)]
    with sync_playwright() as p:
        browser = launch(p)
        for name, source, size in jobs:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = source.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f'<html><body style="margin:0;background:transparent">{sized}</body></html>')
            page.screenshot(path=str(out / name), omit_background=True,
                            clip={"x": 0, "y": 0, "width": size, "height": size})
            page.close()
            print(f"wrote {(out / name).relative_to(ROOT)}")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
