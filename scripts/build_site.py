#!/usr/bin/env python3
"""Build the deployable static site into build/site/ (standard library only).

    python scripts/build_site.py [--out build/site] [--no-precompile] [--no-brotli] [--build-id ID] [--strict]

The folder holds everything the page loads, all from its own origin:

    index.html, *.css, *.js, ai.py     from web/
    pyodide/<hash>/                    the Pyodide files the page needs, with the
                                       standard library precompiled to .pyc; the
                                       folder is named by a hash of its content
    chkobba-HASH.zip                   the repo's chkobba/ package (+ .pyc cache),
                                       unpacked by web/shell/py.js
    snapshot-HASH.bin                  a memory snapshot of the interpreter after
                                       importing the package (docs/boot.md)
    manifest.webmanifest, icons/       the installable app (PWA)
    pyscript/<version>/, page/         PyScript for writers' pages, on the same
                                       Pyodide (scripts/pyscript_site.py)
    sw.js                              the service worker, with the list of
                                       every file above filled in (offline)
    _headers                           caching rules: files whose URL changes
                                       with their content may be cached for good
                                       (scripts/serve.py reads it; so do static
                                       hosts such as Netlify or Cloudflare Pages)
    build-info.json                    build id, versions and sizes

Precompiling runs the shipped Pyodide under Node (scripts/precompile_pyc.mjs),
so the bytecode matches the browser's CPython exactly. Its results are cached
in build/cache/ by content hash. If Node or the compile step fails (twice),
the build falls back to the plain source files and says so (a warning, also
in build-info.json); with --strict it then exits 1. One build at a time uses
build/cache/ (a lock).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

try:
    import fcntl
except ImportError:   # (Windows: builds are not run side by side there)
    fcntl = None  # type: ignore[assignment]

sys.path.insert(0, str(Path(__file__).resolve().parent))
import catalogs  # noqa: E402
import pyscript_site  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
NODE_MODULES = ROOT / "node_modules"
PYODIDE_DIR = NODE_MODULES / "pyodide"
PACKAGE = ROOT / "chkobba"
CACHE = ROOT / "build" / "cache"

# Only what the page fetches: the ES module loader, the Emscripten module, the
# wasm binary and the standard library (the lock file's `info` is passed
# inline by web/shell/py.js).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")

# Standard-library parts that no code path of the site can reach (interactive
# tools, test frameworks, servers, process pools). Dropping them shrinks the
# download; everything else stays so an unforeseen import still works.
STDLIB_UNUSED = (
    "_pyrepl/", "unittest/", "multiprocessing/", "xmlrpc/", "wsgiref/", "idlelib/",
    "tkinter/", "turtledemo/", "lib2to3/", "ensurepip/", "venv/", "__phello__/",
    "pydoc_data/", "sqlite3/", "dbm/", "curses/",
    "pdb.py", "doctest.py", "pydoc.py", "imaplib.py", "mailbox.py", "smtplib.py",
    "poplib.py", "ftplib.py", "nntplib.py", "telnetlib.py", "turtle.py", "tabnanny.py",
    "trace.py", "cProfile.py", "profile.py", "pstats.py", "timeit.py", "this.py",
    "antigravity.py", "webbrowser.py", "mailcap.py", "cgi.py", "cgitb.py", "zipapp.py",
)

MIME_NOTE = "serve .wasm as application/wasm and .mjs as text/javascript (scripts/serve.py does)"


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


# What this build could not do (it went on without it); in build-info.json,
# and fatal with --strict (the test command builds so: a test of the snapshot
# then never meets a site built without one, docs/tests.md).
WARNINGS: list[str] = []


def warn(msg: str) -> None:
    WARNINGS.append(msg)
    log(f"WARNING: {msg}")


def run_node(script: str, args: list[str], timeout: int,
             show: Callable[[str], None] | None = None) -> str | None:
    """`node scripts/<script> ARGS...`: its output, or None (the reason
    logged as a warning) if Node is missing or the step fails twice. One
    retry: a step that died of a passing cause (memory, a killed process)
    costs seconds, a site without its snapshot or .pyc costs every visit.
    With `show`, each line of output is handed to it as it comes (the
    build's progress), not only at the end."""
    node = shutil.which("node")
    if node is None:
        warn(f"node not found: {script} not run")
        return None
    for attempt in (1, 2):
        lines: list[str] = []
        started = time.monotonic()
        try:
            with tempfile.TemporaryFile("w+") as err, subprocess.Popen(
                    [node, str(ROOT / "scripts" / script), *args], cwd=ROOT, text=True,
                    stdout=subprocess.PIPE, stderr=err) as proc:
                watchdog = threading.Timer(timeout, proc.kill)   # a step that hangs, silent or not
                watchdog.start()
                try:
                    assert proc.stdout is not None
                    for line in proc.stdout:
                        lines.append(line)
                        if show is not None:
                            show(line.rstrip("\n"))
                    code = proc.wait()
                finally:
                    watchdog.cancel()
                if code != 0 and time.monotonic() - started >= timeout:   # killed by the watchdog
                    raise subprocess.TimeoutExpired(script, timeout)
                err.seek(0)
                stderr = err.read()
        except (OSError, subprocess.TimeoutExpired) as exc:
            why = str(exc)
        else:
            if code == 0:
                return "".join(lines)
            why = " / ".join((stderr.strip().splitlines() or ["no output"])[-3:])[:600]
            why = f"exit {code}: {why}"
        if attempt == 1:
            log(f"{script} failed ({why}); once more")
    warn(f"{script} failed ({why})")
    return None


def run_node_jobs(script: str, jobs: list[dict[str, str]], timeout: int,
                  show: Callable[[str], None] | None = None) -> str | None:
    """run_node with a list of jobs, passed as a JSON file (brotli.mjs, precompile_pyc.mjs)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(jobs, fh)
    try:
        return run_node(script, [fh.name], timeout, show)
    finally:
        os.unlink(fh.name)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def package_version(pkg_dir: Path) -> str:
    return str(json.loads((pkg_dir / "package.json").read_text())["version"])


def zip_package(dest: Path) -> None:
    """Zip chkobba/ (only .py and data files, no caches) deterministically."""
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in sorted(PACKAGE.rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.is_dir() or "__pycache__" in rel or path.suffix in (".pyc", ".pyo"):
                continue
            info = zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())


def prune_stdlib(src: Path, dest: Path) -> tuple[int, int]:
    """Copy the stdlib zip without the parts listed in STDLIB_UNUSED."""
    dropped = kept = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for info in zin.infolist():
            if info.filename.startswith(STDLIB_UNUSED):
                dropped += 1
                continue
            zout.writestr(info, zin.read(info))
            kept += 1
    return kept, dropped


# What the page's interpreter needs from the standard library (issue 22): the
# modules that importing our package and Pyodide's own Python runs, found by
# following `import` statements: every one in our package (functions
# included, so lazy imports count) and the ones a stdlib or Pyodide module runs
# when it is imported (module level, `if`/`try`/`with` blocks and class bodies;
# not function bodies, which the page may never call; but all of Pyodide's own,
# which its boot calls from JS). Everything else goes to
# `python_stdlib_rest.zip`, which web/shell/py.js fetches only if an import
# needs it (never in the tests and benches run so far).
STDLIB_ROOTS = ("_pyodide", "pyodide", "encodings", "site", "sitecustomize", "traceback",
                "linecache", "tokenize", "codeop", "warnings", "_py_warnings",
                "pkgutil", "importlib")   # (the last two: scripts/make_snapshot.mjs)
STDLIB_WHOLE = ("_pyodide/", "pyodide/")   # looked up by name, from C or JS
# codecs are looked up by name when first used: the ones Python's start and
# the page use (the other ~100 are in the rest zip)
STDLIB_CODECS = ("__init__", "aliases", "utf_8", "utf_8_sig", "ascii", "latin_1", "utf_16", "utf_32", "cp437",
                 "raw_unicode_escape", "unicode_escape")


def _imports(tree: ast.AST, module: str, is_pkg: bool, deep: bool) -> set[str]:
    """Modules a module's code imports (``deep``: in functions too)."""
    out: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = module if is_pkg else module.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        pkg = pkg.rpartition(".")[0]
                    base = f"{pkg}.{base}" if base else pkg
                out.add(base)
                out.update(f"{base}.{a.name}" for a in node.names if a.name != "*")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if deep:
                    visit(node.body)
            elif isinstance(node, ast.ClassDef):
                visit(node.body)
            else:
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        visit([n for n in inner if isinstance(n, ast.stmt)]
                              + [m for h in inner if isinstance(h, (ast.ExceptHandler, ast.match_case))
                                 for m in h.body])
    visit(tree.body if isinstance(tree, ast.Module) else [])
    return out


_ANY_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import|import[ \t]+([\w., \t]+))", re.M)


def stdlib_needed(stdlib_zip: Path, package: Path) -> set[str]:
    """Entries of ``stdlib_zip`` the page's interpreter needs (see STDLIB_ROOTS)."""
    with zipfile.ZipFile(stdlib_zip) as z:
        files = {n: z.read(n) for n in z.namelist() if n.endswith(".py")}
    mods = {}
    for name in files:
        mod = name[:-3].replace("/", ".")
        mods[mod.removesuffix(".__init__")] = name
    roots: set[str] = (set(STDLIB_ROOTS) | {m for m, n in mods.items() if n.startswith(STDLIB_WHOLE)}
                       | {f"encodings.{c}" for c in STDLIB_CODECS})
    for path in package.rglob("*.py"):
        rel = path.relative_to(package.parent).with_suffix("").as_posix().replace("/", ".")
        if rel.startswith(("chkobba.cli", "chkobba.__main__")):
            continue
        roots |= _imports(ast.parse(path.read_text(encoding="utf-8")), rel.removesuffix(".__init__"),
                          path.name == "__init__.py", deep=True)
    seen: set[str] = set()
    todo = sorted(roots)
    while todo:
        parts = todo.pop().split(".")
        for i in range(1, len(parts) + 1):
            mod = ".".join(parts[:i])
            if mod not in mods or mod in seen:
                continue
            seen.add(mod)
            name = mods[mod]
            try:
                found = _imports(ast.parse(files[name]), mod, name.endswith("__init__.py"),
                                 deep=mod.split(".")[0] in ("_pyodide", "pyodide"))
            except SyntaxError:   # newer syntax than this Python's: every import line counts
                text = files[name].decode("utf-8", "replace")
                found = {a or b.split(" as ")[0].strip() for a, b in _ANY_IMPORT.findall(text)}
                found = {f for x in found for f in x.split(",")}
            todo.extend(sorted(f.strip() for f in found if f.strip()))
    # codecs are looked up by name when first used (encodings.utf_8, ...),
    # Pyodide's own modules from its C and JS code
    return ({mods[m] for m in seen} | {n for n in files if n.startswith(STDLIB_WHOLE)}
            | {f"encodings/{c}.py" for c in STDLIB_CODECS if f"encodings/{c}.py" in files})


def split_stdlib(src: Path, keep: set[str], dest: Path, rest: Path) -> tuple[int, int]:
    """``src`` in two zips: the entries in ``keep`` (and every non-.py file of
    a kept folder) in ``dest``, the rest in ``rest``."""
    folders = {k.rpartition("/")[0] for k in keep}
    n_keep = n_rest = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zk, \
            zipfile.ZipFile(rest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zr:
        for info in zin.infolist():
            name = info.filename
            kept = name in keep or (not name.endswith(".py") and name.rpartition("/")[0] in folders)
            (zk if kept else zr).writestr(info, zin.read(info))
            if kept:
                n_keep += 1
            else:
                n_rest += 1
    return n_keep, n_rest


FIRST_WORDS_MARKER = "/* __FIRST_WORDS__ */ {}"


def write_first_words(script: Path) -> None:
    """Fill web/shell/first-paint.js's words: per language its direction, the
    brand, the page's title and what is happening (``boot.download`` at 0 %)."""
    text = script.read_text()
    if FIRST_WORDS_MARKER not in text:
        sys.exit(f"[build] {script.name} lacks its {FIRST_WORDS_MARKER} marker")
    words: dict[str, dict[str, str]] = {}
    for lang, direction in (("ar", "rtl"), ("fr", "ltr"), ("en", "ltr")):
        ui = json.loads((WEB / "i18n" / lang / "ui.json").read_text())
        words[lang] = {"dir": direction, "brand": ui["app.brand"], "title": ui["app.title"],
                       "label": ui["table.loading"], "text": ui["boot.download"].replace("{percent}", "0")}
    script.write_text(text.replace(FIRST_WORDS_MARKER, json.dumps(words, ensure_ascii=False)))


def store_zip(path: Path) -> None:
    """Rewrite a zip with every entry stored (no per-file compression), the
    entries and their order as they were."""
    tmp = path.with_name(path.name + ".stored")
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            info.compress_type = zipfile.ZIP_STORED
            zout.writestr(info, data)
    tmp.replace(path)


# What gets a brotli copy: what the pages download (not the standard
# library's rest, fetched only if an import needs it, nor the 13 MB snapshot,
# which no first visit downloads), from 1 kB up.
BROTLI_SUFFIXES = {".wasm", ".mjs", ".js", ".css", ".html", ".json", ".webmanifest", ".svg", ".py", ".zip"}
BROTLI_SKIP = re.compile(r"pyodide/[0-9a-f]+/python_stdlib_rest\.zip$|i18n/[a-z]{2}/[^/]+\.json$")


def brotli_groups(jobs: list[dict[str, str]], sizes: dict[str, int], n: int) -> list[list[dict[str, str]]]:
    """The jobs in at most n groups of about equal bytes (largest first, each
    to the lightest group): the 9.6 MB wasm takes one process, the rest share
    the others."""
    groups: list[list[dict[str, str]]] = [[] for _ in range(max(1, min(n, len(jobs))))]
    load = [0] * len(groups)
    for job in sorted(jobs, key=lambda j: -sizes[j["src"]]):
        i = load.index(min(load))
        groups[i].append(job)
        load[i] += sizes[job["src"]]
    return [g for g in groups if g]


def precompress(out: Path) -> int:
    """Write FILE.br next to each file of BROTLI_SUFFIXES (scripts/brotli.mjs,
    results kept in build/cache/ by content hash, made in one Node process a
    core); the number written. Without Node, or if it fails, the site has no
    .br files (hosts then compress it themselves, or send gzip) and the build
    says so."""
    script = ROOT / "scripts" / "brotli.mjs"
    salt = script.read_bytes()
    todo: list[tuple[Path, Path]] = []
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        if (not path.is_file() or path.suffix not in BROTLI_SUFFIXES or BROTLI_SKIP.match(rel)
                or path.stat().st_size < 1024):
            continue
        todo.append((path, CACHE / f"br.{sha256(salt + path.read_bytes())[:24]}.br"))
    jobs = [{"src": str(src), "dst": str(cached)} for src, cached in todo if not cached.exists()]
    if jobs:
        sizes = {j["src"]: Path(j["src"]).stat().st_size for j in jobs}
        groups = brotli_groups(jobs, sizes, os.cpu_count() or 1)
        log(f"brotli: compressing {len(jobs)} files ({sum(sizes.values()) / 1e6:.1f} MB) in "
            f"{len(groups)} process(es), once (kept in build/cache/); the wasm alone takes about "
            "45 s on a quiet core")

        def show(line: str) -> None:
            if " MB " in line and not line.split(" -> ")[0].endswith(" 0.00 MB"):
                log("  " + line)

        with ThreadPoolExecutor(len(groups)) as pool:
            results = list(pool.map(lambda g: run_node_jobs("brotli.mjs", g, timeout=900, show=show), groups))
        if all(r is None for r in results):
            log("no brotli copies (.br): hosts compress the files themselves, or send them as they are")
            return 0
    n = 0
    for src, cached in todo:
        if cached.exists():
            shutil.copy2(cached, src.with_name(src.name + ".br"))
            n += 1
    log(f"brotli: {n} .br copies")
    return n


def precompile(jobs: list[dict[str, str]]) -> bool:
    """Run scripts/precompile_pyc.mjs for all jobs at once; True on success."""
    out_text = run_node_jobs("precompile_pyc.mjs", jobs, timeout=300)
    if out_text is None:
        return False
    for line in out_text.splitlines():
        log("  " + line)
    missing = [j["dst"] for j in jobs if not Path(j["dst"]).is_file()]
    if missing:
        warn(f"precompile_pyc.mjs wrote no {', '.join(Path(m).name for m in missing)}")
    return not missing


def build(out: Path, want_precompile: bool, build_id: str | None = None,
          snapshot: bool | str = True, brotli: bool = True) -> dict[str, object]:
    """Build the site into a folder beside `out`, then put it in `out`'s
    place: a server already serving `out` (scripts/serve.py while a new
    version is built, or a page's update check) sees the old site or the new
    one whole, never a half-built one (say, web/sw.js's unfilled template).
    One build at a time uses build/cache/ (its intermediate files have fixed
    names): a second build started meanwhile, say by a test, waits."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        stage = out.with_name(f".{out.name}.building")
        if stage.exists():
            shutil.rmtree(stage)
        info = build_into(stage, want_precompile, build_id, snapshot, brotli)
        old = out.with_name(f".{out.name}.old")
        if old.exists():
            shutil.rmtree(old)
        if out.exists():
            out.rename(old)
        stage.rename(out)
        if old.exists():
            shutil.rmtree(old)
    log(f"site in {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return info


def build_into(out: Path, want_precompile: bool, build_id: str | None = None,
               snapshot: bool | str = True, brotli: bool = True) -> dict[str, object]:
    for needed in (PYODIDE_DIR / "pyodide.mjs",):
        if not needed.exists():
            sys.exit(f"[build] missing {needed.relative_to(ROOT)}: run `npm ci` first")
    if not (WEB / "index.html").exists():
        sys.exit("[build] missing web/index.html")
    t0 = time.monotonic()
    out.mkdir(parents=True)
    CACHE.mkdir(parents=True, exist_ok=True)

    # 1. web/ sources as they are.
    shutil.copytree(WEB, out, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*", "main.py"))

    # 1b. The tutorial's lessons (lessons/*.json) and their list, for learn.html.
    (out / "lessons").mkdir()
    lesson_files = sorted(p.name for p in (ROOT / "lessons").glob("*.json"))
    for name in lesson_files:
        shutil.copy2(ROOT / "lessons" / name, out / "lessons" / name)
    (out / "lessons" / "index.json").write_text(json.dumps({"lessons": lesson_files}) + "\n")

    # 1c. The catalogs (web/i18n/<lang>/*.json and the engine's and lessons'
    # English) as one module per language: i18n/<lang>.js (scripts/catalogs.py).
    counts = catalogs.write_modules(out / "i18n")
    log("catalogs: " + ", ".join(f"{k} {v} texts" for k, v in counts.items()))

    # 1d. The words of the first paint (web/shell/first-paint.js), from the catalogs.
    write_first_words(out / "shell" / "first-paint.js")

    # 2. The invite's QR encoder (npm qrcode-generator), next to web/online/invite.js.
    shutil.copy2(NODE_MODULES / "qrcode-generator" / "dist" / "qrcode.mjs", out / "online" / "qrcode.mjs")
    # 2a. The QR decoder of "Scan the answer" where the browser has no BarcodeDetector
    # (npm jsqr, a UMD file made an ES module), imported by web/online/scan.js only on a tap.
    umd = (NODE_MODULES / "jsqr" / "dist" / "jsQR.js").read_text()
    (out / "online" / "jsqr.mjs").write_text("const module = { exports: {} };\nconst exports = module.exports;\n"
                                             + umd + "\nexport default module.exports;\n")
    # 2b. The signing of Nostr relays' events (npm @noble/secp256k1), next to web/online/nostr.js.
    shutil.copy2(NODE_MODULES / "@noble" / "secp256k1" / "index.js", out / "online" / "secp256k1.js")

    # 3. Pyodide runtime files.
    # Written to a scratch folder, then named after a hash of its content so
    # that its URLs change whenever any byte does (cacheable for good).
    pyo = out / "pyodide" / "next"
    pyo.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE_DIR / name, pyo / name)

    # 4. Standard library (pruned) and our package, precompiled where possible.
    every = CACHE / "python_stdlib.pruned-all.zip"
    kept, dropped = prune_stdlib(PYODIDE_DIR / "python_stdlib.zip", every)
    log(f"stdlib: kept {kept} entries, dropped {dropped} unused")
    pruned = CACHE / "python_stdlib.pruned.zip"
    rest = CACHE / "python_stdlib_rest.zip"
    page_needs = stdlib_needed(every, PACKAGE)
    kept, moved = split_stdlib(every, page_needs, pruned, rest)
    log(f"stdlib: {kept} entries the page imports, {moved} in python_stdlib_rest.zip")
    pkg_src = CACHE / "chkobba.src.zip"
    zip_package(pkg_src)

    stdlib_key = sha256(pruned.read_bytes() + (ROOT / "scripts" / "precompile_pyc.mjs").read_bytes())[:16]
    pkg_key = sha256(pkg_src.read_bytes() + (ROOT / "scripts" / "precompile_pyc.mjs").read_bytes())[:16]
    stdlib_pyc = CACHE / f"python_stdlib.{stdlib_key}.pyc.zip"
    pkg_pyc = CACHE / f"chkobba.{pkg_key}.pyc.zip"
    jobs = []
    if want_precompile:
        if not stdlib_pyc.exists():
            jobs.append({"src": str(pruned), "dst": str(stdlib_pyc), "mode": "sourceless",
                         "prefix": "/lib/python314.zip/"})
        if not pkg_pyc.exists():
            jobs.append({"src": str(pkg_src), "dst": str(pkg_pyc), "mode": "cache",
                         "prefix": "/home/pyodide/"})
    precompiled = want_precompile and (not jobs or precompile(jobs))
    if precompiled:
        shutil.copy2(stdlib_pyc, pyo / "python_stdlib.zip")
        shutil.copy2(rest, pyo / "python_stdlib_rest.zip")
        shutil.copy2(pkg_pyc, out / "chkobba.zip.tmp")
    else:
        if want_precompile:
            log("falling back to source-only stdlib and package (no snapshot either)")
        shutil.copy2(pruned, pyo / "python_stdlib.zip")
        shutil.copy2(rest, pyo / "python_stdlib_rest.zip")
        shutil.copy2(pkg_src, out / "chkobba.zip.tmp")

    # 4b. Both zips the page downloads store their files uncompressed: the
    # transfer's compression then works across files (docs/boot.md: with
    # brotli 1.24 MB instead of 1.82 MB for the standard library, 0.38 MB
    # instead of 0.63 MB for the package; with gzip, smaller too).
    store_zip(pyo / "python_stdlib.zip")
    store_zip(out / "chkobba.zip.tmp")

    # 5. Names by content: the Pyodide folder and the package zip (unpacked
    # into the working directory, /home/pyodide, on sys.path).
    pyo_hash = sha256(b"".join(name.encode() + b"\0" + (pyo / name).read_bytes()
                               for name in sorted(os.listdir(pyo))))[:12]
    pyo = pyo.rename(out / "pyodide" / pyo_hash)
    pkg_hash = sha256((out / "chkobba.zip.tmp").read_bytes())[:12]
    pkg_name = f"chkobba-{pkg_hash}.zip"
    (out / "chkobba.zip.tmp").rename(out / pkg_name)
    snap_fmt = snapshot if isinstance(snapshot, str) else SNAPSHOT_FORMAT
    snap_name = make_snapshot(out, pyo_hash, pkg_name, snap_fmt) if snapshot and precompiled else None
    write_boot_hints(out, pyo_hash, pkg_name, snap_name, snap_fmt)
    # 5b. PyScript for writers' pages, on these files (scripts/pyscript_site.py, docs/pyscript.md).
    pyscript_paths = pyscript_site.write(out, pyo_hash, pkg_name, every, page_needs, stdlib_needed, sha256, log)

    # 6. Caching rules for the files named by their content.
    immutable = immutable_paths(out, pkg_name, pyo_hash) + pyscript_paths
    if snap_name:
        immutable.append(f"/{snap_name}")
    write_headers(out, immutable)

    # 7. Service worker: precache the whole site (every file written above,
    # build-info.json too) under a version that changes with any file or
    # with the build id.
    version = write_service_worker(out, immutable, build_id or "")

    sizes = {p.relative_to(out).as_posix(): p.stat().st_size
             for p in sorted(out.rglob("*")) if p.is_file()}
    info: dict[str, object] = {
        "build_id": build_id or version,
        "version": version,
        "pyodide_dir": f"pyodide/{pyo_hash}/",
        "pyodide": package_version(PYODIDE_DIR),
        "pyscript": pyscript_site.version(),
        "python": json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())["info"]["python"],
        "lock_info": json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())["info"],
        "precompiled": precompiled,
        "package_zip": pkg_name,
        "snapshot": snap_name,
        "brotli": brotli,
        "files": sizes,
        "warnings": WARNINGS,
    }
    (out / "build-info.json").write_text(json.dumps(info, indent=1) + "\n")
    # 8. Brotli copies (FILE.br) next to the files the pages download, for
    # hosts that serve them (scripts/serve.py does; README "Hosting"). Not
    # part of the site's file list: the same URL, another encoding.
    # Skipped with --no-brotli (scripts/serve.sh: a local server makes bytes
    # free, and on a fresh clone they are most of the build's time).
    warned = len(WARNINGS)
    if brotli:
        precompress(out)
    else:
        log("brotli: skipped (--no-brotli; a deploy's build makes them)")
    if len(WARNINGS) > warned:   # (no .br copy was made, of build-info.json neither)
        (out / "build-info.json").write_text(json.dumps(info, indent=1) + "\n")
    total = sum(sizes.values())
    log(f"site: {len(sizes)} files, {total / 1e6:.1f} MB, precompiled={precompiled}, "
        f"{time.monotonic() - t0:.1f}s; {MIME_NOTE}")
    return info


SNAPSHOT_FORMAT = "runs"  # or "gzip" (scripts/make_snapshot.mjs; docs/boot.md)
# Where web/shell/py.js takes the snapshot from (docs/boot.md, issue 22):
# "browser" = made in the browser after a first visit and kept for the next
# ones (the build's file is then not precached: no first visit downloads it);
# "cache" = the build's file, fetched by the offline copy; "network" = always.
SNAPSHOT_FROM = "browser"


def make_snapshot(out: Path, pyo_hash: str, pkg_name: str, fmt: str = SNAPSHOT_FORMAT) -> str | None:
    """A Pyodide memory snapshot taken after `import chkobba.web`
    (scripts/make_snapshot.mjs, the shipped Pyodide under Node), without its
    zero pages (or gzipped), as `snapshot-<hash>.bin`; the page restores it instead of starting CPython
    and importing the package (docs/boot.md). Cached in build/cache/ by the
    hash of its inputs (a snapshot is not byte-for-byte reproducible: it holds
    the interpreter's random state). None (the page then boots without one)
    if Node or the step fails."""
    pyo = out / "pyodide" / pyo_hash
    script = (ROOT / "scripts" / "make_snapshot.mjs").read_bytes()
    key = sha256(fmt.encode() + pyo_hash.encode() + (out / pkg_name).read_bytes() + script)[:16]
    cached = CACHE / f"snapshot.{key}.bin"
    if not cached.exists():
        tmp = Path(f"{cached}.{os.getpid()}.tmp")
        out_text = run_node("make_snapshot.mjs", [str(pyo), str(out / pkg_name), str(tmp), fmt], timeout=300)
        if out_text is None or not tmp.is_file():
            if out_text is not None:
                warn("make_snapshot.mjs wrote no snapshot")
            log("the page boots without a snapshot")
            return None
        log("  " + out_text.strip())
        tmp.replace(cached)
    name = f"snapshot-{sha256(cached.read_bytes())[:12]}.bin"
    shutil.copy2(cached, out / name)
    return name


def write_boot_hints(out: Path, pyo_hash: str, pkg_name: str, snapshot: str | None = None,
                     snapshot_format: str = SNAPSHOT_FORMAT) -> None:
    """Fill `<!-- boot-hints -->` in every page that has it: the names of the
    Pyodide folder and package zip for web/shell/py.js (no config request
    before Pyodide starts), preload hints for Pyodide's wasm and standard library,
    and modulepreload hints for its two modules, all fetched while the page loads (docs/boot.md)."""
    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())["info"]
    pyo = out / "pyodide" / pyo_hash
    with zipfile.ZipFile(pyo / "python_stdlib_rest.zip") as z:
        rest = sorted({n[:-3].replace("/", ".").removesuffix(".__init__") for n in z.namelist()
                       if n.endswith(".py")})
    sizes = {"wasm": (pyo / "pyodide.asm.wasm").stat().st_size,
             "stdlib": (pyo / "python_stdlib.zip").stat().st_size,
             "package": (out / pkg_name).stat().st_size}
    boot: dict[str, object] = {"pyodide": f"./pyodide/{pyo_hash}/", "package": f"./{pkg_name}",
                               "lock": lock, "sizes": sizes, "stdlibRest": rest}
    if snapshot:
        boot["snapshot"] = f"./{snapshot}"
        boot["snapshotFormat"] = snapshot_format
        boot["snapshotFrom"] = SNAPSHOT_FROM
    meta = f"<meta name=\"chkobba-boot\" content='{json.dumps(boot, separators=(',', ':'))}'>"
    hints = "\n".join([
        meta,
        # the runtime's two big files start downloading while the page is
        # parsed, not once web/shell/py.js runs (after the document and its
        # style sheet): loadPyodide's own fetch() takes these responses
        f'<link rel="preload" href="pyodide/{pyo_hash}/pyodide.asm.wasm" as="fetch" crossorigin>',
        f'<link rel="preload" href="pyodide/{pyo_hash}/python_stdlib.zip" as="fetch" crossorigin>',
        f'<link rel="modulepreload" href="pyodide/{pyo_hash}/pyodide.mjs">',
        f'<link rel="modulepreload" href="pyodide/{pyo_hash}/pyodide.asm.mjs">',
    ])
    # `boot-hints`: pages that start Python at once (the table); `boot-meta`:
    # pages that start it only when needed (embeds, the tutorial, the hub).
    for page in out.glob("*.html"):
        text = page.read_text()
        if "<!-- boot-hints -->" in text or "<!-- boot-meta -->" in text:
            page.write_text(text.replace("<!-- boot-hints -->", hints).replace("<!-- boot-meta -->", meta))


def immutable_paths(out: Path, pkg_name: str, pyo_hash: str) -> list[str]:
    """Site paths (from the site's root, "/...") whose URL changes whenever
    their content does, so a browser may keep them without asking again."""
    return [f"/pyodide/{pyo_hash}/*", f"/{pkg_name}"]


def write_headers(out: Path, immutable: list[str]) -> None:
    """`_headers` in the format of Netlify and Cloudflare Pages; every other
    file is revalidated (scripts/serve.py sends `no-cache` for it)."""
    lines = ["# Written by scripts/build_site.py: these URLs change with their content.", ""]
    # embed.html in a sandboxed iframe has an opaque origin: its module scripts
    # and fetches are cross-origin requests, which need this header.
    lines += ["/*", "  Access-Control-Allow-Origin: *"]
    for path in immutable:
        lines += [path, f"  Cache-Control: {IMMUTABLE_CACHE}"]
    (out / "_headers").write_text("\n".join(lines) + "\n")


IMMUTABLE_CACHE = "public, max-age=31536000, immutable"


def is_immutable(rel: str, immutable: list[str]) -> bool:
    path = "/" + rel
    return any(path.startswith(p[:-1]) if p.endswith("*") else path == p for p in immutable)


# Files of the site no page fetches: the catalogs' sources (the pages import
# i18n/<lang>.js, made from them; only the rules' HTML is fetched as it is),
# the standard library's rest (fetched only if an import needs it) and, when
# the browser makes its own, the build's snapshot; and the online play's
# test bench. The "play friends" page (online.html, online/*: ~100 KB, 25 KB
# gzip with its QR encoder) IS precached, so an installed app can host a
# table offline on one Wi-Fi; the table page never loads it (docs/online.md).
# Not the QR decoder (online/jsqr.mjs, 33 KB brotli): fetched on "Scan the answer" only.
# Not precached: the Nostr signing code (online/secp256k1.js, 16 KB brotli), fetched when play
# over a Nostr relay starts (of no use offline).
NOT_PRECACHED = re.compile(r"i18n/[a-z]{2}/[^/]+\.json$|pyodide/[0-9a-f]+/python_stdlib_rest\.zip$|online/test\.(html|js)$|online/jsqr\.mjs$|online/secp256k1\.js$"
                           + "|" + pyscript_site.NOT_PRECACHED
                           + (r"|snapshot-[0-9a-f]+\.bin$" if SNAPSHOT_FROM == "browser" else ""))


def write_service_worker(out: Path, immutable: list[str], build_id: str) -> str:
    """Fill web/sw.js's file list and version in the built copy.

    Each entry is [url, content hash, immutable?]: a new version copies the
    files whose hash did not change from the cache of the version before, and
    checks every downloaded file against its hash (never a mix of builds)."""
    sw = out / "sw.js"
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                   if p.is_file() and p.name not in ("sw.js", "_headers")
                   and not NOT_PRECACHED.match(p.relative_to(out).as_posix()))
    digest = hashlib.sha256(build_id.encode() + b"\0")
    entries: list[list[object]] = []
    for rel in files:
        data = (out / rel).read_bytes()
        digest.update(rel.encode() + b"\0" + data)
        entries.append([f"./{rel}", sha256(data)[:16], int(is_immutable(rel, immutable))])
    version = digest.hexdigest()[:16]
    # "./" is the page as a visitor opens it (index.html); build-info.json is
    # written next, so it has no hash here (always fetched anew).
    page = next(e for e in entries if e[0] == "./index.html")
    entries = [["./", page[1], 0]] + entries + [["./build-info.json", None, 0]]
    text = sw.read_text()
    for marker in ('"__BUILD_VERSION__"', "/* __PRECACHE_FILES__ */ []"):
        if marker not in text:
            sys.exit(f"[build] web/sw.js lacks its {marker} marker")
    text = text.replace('"__BUILD_VERSION__"', json.dumps(version))
    text = text.replace("/* __PRECACHE_FILES__ */ []",
                        "[\n" + ",\n".join(json.dumps(e) for e in entries) + "\n]")
    sw.write_text(text)
    log(f"service worker: {len(entries)} URLs precached, version {version}")
    return version


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "site")
    ap.add_argument("--no-precompile", action="store_true",
                    help="ship .py sources only (for comparison)")
    ap.add_argument("--build-id", help="a name for this build (default: a hash of its files); "
                    "a different id makes a new version of the site even with the same files")
    ap.add_argument("--no-snapshot", action="store_true",
                    help="no Pyodide memory snapshot (for comparison; docs/boot.md)")
    ap.add_argument("--snapshot-format", choices=("gzip", "runs"), default=SNAPSHOT_FORMAT,
                    help="how the snapshot is stored (docs/boot.md)")
    ap.add_argument("--no-brotli", action="store_true",
                    help="no precompressed .br copies (scripts/serve.sh: serving on this machine; "
                         "about a minute of a fresh clone's build, several on a busy machine)")
    ap.add_argument("--strict", action="store_true",
                    help="fail (exit 1) if a step could not be done: no .pyc, snapshot or brotli copies "
                         "(the site is still built; the test command builds so)")
    args = ap.parse_args(argv)
    build(args.out.resolve(), not args.no_precompile, args.build_id,
          snapshot=False if args.no_snapshot else args.snapshot_format, brotli=not args.no_brotli)
    if args.strict and WARNINGS:
        print("[build] failed (--strict): " + "; ".join(WARNINGS), file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
