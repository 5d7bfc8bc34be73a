"""scripts/pyscript_site.py: PyScript in the built site (docs/pyscript.md):
its dist, a loader that names our own files, the table styles scoped."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import build_site  # noqa: E402
import pyscript_site  # noqa: E402


def test_scoped_css_keeps_every_rule_inside_the_tables_element() -> None:
    css = pyscript_site.scoped_css([
        ":root { --felt: green; } body { display: flex; min-height: 100dvh; }\n"
        "/* a comment { } */ html.failed .spinner { display: none; }\n"
        "@keyframes spin { to { transform: rotate(360deg); } }\n"
        "@media (max-width: 480px) { body.play .ck { gap: 0; } .card { content: \"}\"; } }\n"
        ".ck .body-text { color: red; }"], ".chkobba-page")
    top, _, scoped = css.partition("@scope (.chkobba-page) {")
    assert top.strip() == "@keyframes spin { to { transform: rotate(360deg); } }"
    assert scoped.rstrip().endswith("}")
    assert ":scope { --felt: green; }" in scoped and ":scope { display: flex;" in scoped
    assert ":scope.failed .spinner" in scoped and ":scope.play .ck" in scoped
    assert ".ck .body-text" in scoped                  # a class named like a tag is left alone
    assert "comment" not in css and "html" not in css.replace("body-text", "") and "body" not in \
        css.replace("body-text", "")


def test_css_that_does_not_parse_is_one_clear_error() -> None:
    with pytest.raises(SystemExit) as e:
        pyscript_site.css_blocks(".a { color: red; ")
    assert "unbalanced braces" in str(e.value)


PYODIDE_ZIP = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"


@pytest.mark.skipif(not PYODIDE_ZIP.exists(), reason="node_modules/ is missing: run `npm ci`")
def test_write_fills_the_loader_with_our_own_files(tmp_path: Path) -> None:
    out = tmp_path / "site"
    (out / "pyodide" / "abc123").mkdir(parents=True)
    (out / "page").mkdir()
    (out / "css").mkdir()
    for name in ("pyscript.js", "page.css"):
        (out / "page" / name).write_text((ROOT / "web" / "page" / name).read_text())
    for name in pyscript_site.TABLE_CSS:
        (out / "css" / name).write_text((ROOT / "web" / "css" / name).read_text())
    every = tmp_path / "stdlib.zip"
    with zipfile.ZipFile(PYODIDE_ZIP) as zin, zipfile.ZipFile(every, "w") as zout:
        for name in zin.namelist():
            zout.writestr(name, zin.read(name))
    said: list[str] = []
    paths = pyscript_site.write(out, "abc123", "chkobba-0123.zip", every, set(), build_site.stdlib_needed,
                                build_site.sha256, said.append)
    ver = pyscript_site.version()
    assert (out / "pyscript" / ver / "core.js").is_file() and not list((out / "pyscript").rglob("*.map"))
    loader = (out / "page" / "pyscript.js").read_text()
    assert pyscript_site.SITE_MARKER not in loader and "cdn" not in loader
    site = json.loads(loader.split("const SITE = ", 1)[1].split(";\n", 1)[0])
    assert site["interpreter"] == "pyodide/abc123/pyodide.mjs" and site["package"] == "chkobba-0123.zip"
    assert site["pyscript"] == f"pyscript/{ver}/core.js"
    with zipfile.ZipFile(out / site["stdlib"]) as z:
        assert "html/__init__.py" in z.namelist()
    lock = json.loads((out / "pyodide" / "abc123" / "pyodide-lock.json").read_text())
    assert lock["packages"] == {} and lock["info"]["python"]
    assert paths == [f"/pyscript/{ver}/*", f"/{site['stdlib']}"]
    assert pyscript_site.CSS_MARKER not in (out / "page" / "page.css").read_text()
    assert said and "html/__init__.py" in said[0]
