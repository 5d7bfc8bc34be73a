"""The installable app in the player's language: web/manifest-ar.webmanifest
and web/manifest-fr.webmanifest beside the default web/manifest.webmanifest
(which names the app in both scripts). web/i18n/i18n.js points the page's
<link rel="manifest"> at the one of the page's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
ARABIC = re.compile("[\u0600-\u06ff]")
SAME = ("id", "start_url", "scope", "display", "orientation", "background_color", "theme_color", "categories", "icons")


def manifest(name: str) -> dict[str, object]:
    data = json.loads((WEB / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_one_app_in_three_languages() -> None:
    default, ar, fr = manifest("manifest.webmanifest"), manifest("manifest-ar.webmanifest"), manifest("manifest-fr.webmanifest")
    for m in (ar, fr):
        assert {k: m[k] for k in SAME} == {k: default[k] for k in SAME}   # the same app, whatever the language
    assert ar["lang"] == "ar" and ar["dir"] == "rtl"
    assert fr["lang"] == "fr" and fr["dir"] == "ltr"
    for key in ("name", "short_name", "description"):
        assert ARABIC.search(str(ar[key])), key
        assert not ARABIC.search(str(fr[key])), key
    # an Arabic phone that reads the default manifest still sees the name in Arabic script
    assert ARABIC.search(str(default["name"])) and "Chkobba" in str(default["name"])


def test_the_page_picks_the_manifest_of_its_language() -> None:
    js = (WEB / "i18n" / "i18n.js").read_text(encoding="utf-8")
    table = re.search(r"MANIFESTS = \{([^}]*)\}", js)
    assert table
    named = dict(re.findall(r'(\w+): "([^"]+)"', table.group(1)))
    assert named == {"ar": "manifest-ar.webmanifest", "fr": "manifest-fr.webmanifest", "en": "manifest.webmanifest"}
    for name in named.values():
        assert (WEB / name).is_file(), name
