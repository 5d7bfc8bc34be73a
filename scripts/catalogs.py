"""The pages' catalogs: web/i18n/<lang>/*.json merged into one table per
language, with the English texts that live with the engine and the lessons.

- ``msg.<code>``: the English template of every message code
  (chkobba.messages.MESSAGES, with the web facade's codes registered);
- ``lesson.<id>.title`` and ``lesson.<id>.<step>.text|hint``: the English
  texts of lessons/*.json (they carry their own keys), card codes as the
  author wrote them (the tutorial page draws them as symbols).

Other languages translate these keys in their own web/i18n/<lang>/*.json.
``scripts/build_site.py`` writes each table as i18n/<lang>.js (a module that
exports it, loaded by web/i18n/i18n.js); tests/test_catalogs.py checks them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WEB_I18N = ROOT / "web" / "i18n"
LANGS = ("ar", "fr", "en")


def engine_english() -> dict[str, str]:
    sys.path.insert(0, str(ROOT))
    import chkobba.web  # noqa: F401  (registers the facade's codes)
    from chkobba.messages import MESSAGES
    return {f"msg.{code}": text for code, text in sorted(MESSAGES.items())}


class CatalogError(SystemExit):
    """A source the catalogs cannot be built from: ONE line on standard
    error and exit status 1 (no traceback) when it ends a build."""

    def __init__(self, text: str) -> None:
        super().__init__(f"catalogs: {text}")


def lesson_english() -> dict[str, str]:
    """The English texts of lessons/*.json, each file read strictly
    (chkobba.links.lessons.read: no key twice, no NaN, bounded size and
    depth); a bad file stops the build with one line naming it."""
    sys.path.insert(0, str(ROOT))
    from chkobba.errors import ChkobbaError
    from chkobba.links import lessons
    out: dict[str, str] = {}
    for path in sorted((ROOT / "lessons").glob("*.json")):
        try:
            data = lessons.read(path)
        except ChkobbaError as e:
            raise CatalogError(str(e)) from None
        if not isinstance(data, dict):
            raise CatalogError(f"lesson {path.name}: a lesson is a JSON object")
        texts = [data.get("title")] + [st.get(k) for st in data.get("steps", []) for k in ("text", "hint")]
        for t in texts:
            if isinstance(t, dict) and isinstance(t.get("key"), str) and isinstance(t.get("text"), str):
                out[t["key"]] = t["text"]
    return out


def source_files(lang: str) -> list[Path]:
    return sorted((WEB_I18N / lang).glob("*.json"))


def load(lang: str, generated: bool = True) -> dict[str, Any]:
    """One language's table; a key in two files is an error."""
    table: dict[str, Any] = {}
    where: dict[str, str] = {}
    parts: list[tuple[str, dict[str, Any]]] = []
    if lang == "en" and generated:
        parts += [("(engine messages)", engine_english()), ("(lessons)", lesson_english())]
    for path in source_files(lang):
        parts.append((str(path.relative_to(ROOT)), json.loads(path.read_text(encoding="utf-8"))))
    for name, part in parts:
        if not isinstance(part, dict):
            raise ValueError(f"{name}: a catalog is a JSON object")
        for key, value in part.items():
            if key in table:
                raise ValueError(f"{name}: key {key!r} is also in {where[key]}")
            table[key] = value
            where[key] = name
    return table


def write_modules(out_dir: Path) -> dict[str, int]:
    out_dir.mkdir(parents=True, exist_ok=True)
    counts = {}
    for lang in LANGS:
        table = load(lang)
        text = json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        (out_dir / f"{lang}.js").write_text(f"export default {text};\n", encoding="utf-8")
        counts[lang] = len(table)
    return counts
