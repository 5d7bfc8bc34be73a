"""PyScript for writers' pages (docs/pyscript.md), a step of scripts/build_site.py.

It puts into the built site:

    pyscript/<version>/        @pyscript/core's dist from node_modules (no
                               source maps), cached for good like Pyodide
    pyodide/<hash>/pyodide-lock.json
                               the lock file's ``info`` and no package: the
                               lock PyScript's start of Pyodide reads from
                               the Pyodide folder (web/shell/py.js passes
                               the same inline and never fetches it)
    page/stdlib-HASH.zip       the few standard-library modules PyScript's
                               own Python imports that the site's trimmed
                               standard library leaves out (``html``...),
                               unpacked next to the package
    page/pyscript.js           (from web/page/) with this build's file
                               names filled in: the writer's one include
    page/page.css              (from web/page/) with the site's table
                               styles, scoped to the tables' elements

Returns the site paths that may be cached for good (their URL changes with
their content).
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYSCRIPT_DIR = ROOT / "node_modules" / "@pyscript" / "core"
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
SITE_MARKER = "/* __PYSCRIPT_SITE__ */ {}"
# PyScript's optional parts that a writer's page never loads with our config
# (page/pyscript.js turns its plugins off, installs no package, reads no
# TOML, starts no MicroPython): shipped, for a writer who turns one on, but
# not precached by the service worker. Offline needs core*, error-*.
NOT_PRECACHED = r"pyscript/[^/]+/(?!core[-.]|error-)[^/]+$"


def version() -> str:
    return str(json.loads((PYSCRIPT_DIR / "package.json").read_text())["version"])


def write(out: Path, pyo_hash: str, pkg_name: str, every: Path, page_needs: set[str],
          stdlib_needed: Callable[[Path, Path], set[str]], sha256: Callable[[bytes], str],
          log: Callable[[str], None]) -> list[str]:
    """PyScript into the site ``out`` (see the module's doc); ``every``: the
    whole (pruned) standard library zip, ``page_needs``: the entries the
    site's own zip holds. Returns the paths cached for good."""
    if not (PYSCRIPT_DIR / "dist" / "core.js").exists():
        raise SystemExit("[build] missing node_modules/@pyscript/core: run `npm ci` first")
    ver = version()
    dist = out / "pyscript" / ver
    shutil.copytree(PYSCRIPT_DIR / "dist", dist, ignore=shutil.ignore_patterns("*.map"))

    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())
    (out / "pyodide" / pyo_hash / "pyodide-lock.json").write_text(
        json.dumps({"info": lock["info"], "packages": {}}) + "\n")

    extra = sorted(stdlib_needed(every, PYSCRIPT_DIR / "src" / "stdlib" / "pyscript") - page_needs)
    tmp = out / "page" / "stdlib.zip.tmp"
    with zipfile.ZipFile(every) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as zout:
        for name in extra:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            zout.writestr(info, zin.read(name))
    stdlib_name = f"stdlib-{sha256(tmp.read_bytes())[:12]}.zip"
    tmp.rename(out / "page" / stdlib_name)

    loader = out / "page" / "pyscript.js"
    text = loader.read_text()
    if SITE_MARKER not in text:
        raise SystemExit(f"[build] web/page/pyscript.js lacks its {SITE_MARKER} marker")
    site = {"pyscript": f"pyscript/{ver}/core.js", "interpreter": f"pyodide/{pyo_hash}/pyodide.mjs",
            "package": pkg_name, "stdlib": f"page/{stdlib_name}"}
    loader.write_text(text.replace(SITE_MARKER, json.dumps(site)))
    write_css(out)
    log(f"pyscript {ver}: {len(list(dist.iterdir()))} files; the standard library it adds: "
        f"{', '.join(extra) or 'none'}")
    return [f"/pyscript/{ver}/*", f"/page/{stdlib_name}"]


# The site's stylesheets a live table needs, in their order on the site's pages.
TABLE_CSS = ("theme.css", "layout.css", "table.css", "table-fit.css", "cards.css", "a11y.css")
CSS_MARKER = "/* __SITE_CSS__ */"
_OUTSIDE = ("@keyframes", "@font-face", "@property", "@import", "@charset", "@layer")
_ROOTS = re.compile(r"(?<![\w.#:-])(?::root|html|body)(?![\w-])")


def css_blocks(text: str) -> list[str]:
    """The top-level rules of a stylesheet (comments dropped)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out, depth, start, quote = [], 0, 0, ""
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote and text[i - 1] != "\\" else quote
        elif c in "\"'":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                out.append(text[start:i + 1].strip())
                start = i + 1
        elif c == ";" and depth == 0:
            out.append(text[start:i + 1].strip())
            start = i + 1
    if depth != 0 or text[start:].strip():
        raise SystemExit("[build] a stylesheet of the table does not parse: unbalanced braces")
    return [b for b in out if b]


def scoped_css(texts: list[str], scope: str) -> str:
    """The rules of ``texts`` applying inside ``scope`` only: each rule in
    ``@scope (scope) {...}``, its :root/html/body selectors on the scope's
    element itself; @keyframes and the like stay at the top."""
    top, inner = [], []
    for text in texts:
        for block in css_blocks(text):
            (top if block.startswith(_OUTSIDE) else inner).append(block)
    scoped = [_ROOTS.sub(":scope", b) for b in inner]   # (the sheets name html and body in selectors only)
    return "\n".join(top) + f"\n@scope ({scope}) {{\n" + "\n".join(scoped) + "\n}\n"


def write_css(out: Path) -> None:
    page = out / "page" / "page.css"
    text = page.read_text()
    if CSS_MARKER not in text:
        raise SystemExit(f"[build] web/page/page.css lacks its {CSS_MARKER} marker")
    site = [(out / "css" / name).read_text() for name in TABLE_CSS]
    page.write_text(text.replace(CSS_MARKER, scoped_css(site, ".chkobba-page")))
