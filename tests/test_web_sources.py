"""The page's code stays code a checker reads: no Python source inside a
JavaScript string under web/ (Python lives in the package, under mypy, and
the pages reach it through a checked edge: chkobba.web, chkobba.online.page),
no file of the online page over 600 lines, and no code or page file under web/
over 600 lines either; and no game named outside its renderer: the page
learns each game's facts from the facade's `describe`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chkobba import web

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
MAX_LINES = 600

# A JavaScript string literal: backquoted (a template), or quoted on one line.
STRING = re.compile(r"`(?:\\.|[^`\\])*`|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
# A line of Python: an import, a def, a class (at a line's start, or after an escaped newline).
PYTHON = re.compile(r"(?:^|\\n|\n)[ \t]*(?:import [A-Za-z_][\w.]*(?:,|\s|\\n|$)|from [A-Za-z_][\w.]* import |"
                    r"def [A-Za-z_]\w*\(|class [A-Za-z_]\w*[(:])")

# Python the browser's shell still runs as a string: its start-up (the
# standard library's fallback finder, the snapshot's imports, the hub's
# set-up), none of it the online page's. Listed so that the list can only
# shrink: each entry must still hold Python (the test below says when not).
SHELL_PYTHON = {"web/shell/py.js", "web/shell/snapshot.js", "web/embed/hub.js"}


def python_in_strings(text: str) -> list[str]:
    """The string literals of ``text`` (JavaScript) that hold Python source."""
    code = re.sub(r"^\s*//[^\n]*", "", text, flags=re.M)   # whole-line comments say what is where, in words
    return [m.group(0)[:80] for m in STRING.finditer(code) if PYTHON.search(m.group(0)[1:-1])]


def js_files() -> list[Path]:
    return sorted(p for p in WEB.rglob("*.js") if "node_modules" not in p.parts)


def test_the_check_finds_python_in_a_string() -> None:
    assert python_in_strings("const PY = `\nimport json\nfrom js import performance\n`;")
    assert python_in_strings('run("import chkobba.web\\nchkobba.web.allow_tables(3)")')
    assert python_in_strings("const X = `\nclass _Page:\n    pass\n`;")
    assert python_in_strings("py.runPython(`def f(x):\n  return x`)")
    assert not python_in_strings('import { Peer } from "./peer.js";\nconst s = `a ${b} import`;')
    assert not python_in_strings('t("online.import_note"); const d = "define";')


@pytest.mark.parametrize("path", js_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_python_source_in_a_javascript_string(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    found = python_in_strings(path.read_text(encoding="utf-8"))
    if rel in SHELL_PYTHON:
        assert found, f"{rel} holds no Python string any more: take it off SHELL_PYTHON"
    else:
        assert not found, f"{rel} holds Python in a JavaScript string (move it into the package): {found}"


def test_the_online_page_python_is_in_the_package() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in (WEB / "online").glob("*.js"))
    assert "runPython" not in text
    assert "chkobba.online.page" in text   # reached through its edge


@pytest.mark.parametrize("path", sorted((WEB / "online").iterdir()), ids=lambda p: p.name)
def test_no_file_of_the_online_page_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"web/online/{path.name} has {lines} lines (at most {MAX_LINES}): split it by concern"


# Every .js, .html, .css and .py file under web/ (scripts/build_site.py's
# copies under build/ are not looked at) holds one job, in at most 600 lines.
def web_code_files() -> list[Path]:
    return sorted(p for p in WEB.rglob("*") if p.suffix in {".js", ".html", ".css", ".py"} and "node_modules" not in p.parts)


@pytest.mark.parametrize("path", web_code_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_code_file_under_web_is_over_600_lines(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{rel} has {lines} lines (at most {MAX_LINES}): split it by concern"


# ------------------------------------------------------------------ games by name

# The page learns what each game has (a daily deal, chkobbas counted, online
# timers, its options) from the facade's `describe`; a game's name is written
# only in its renderer (web/table/<game>.js) and in the one default game.
GAMES = [g["game"] for g in json.loads(web.call("describe", "{}"))["ok"]["games"]]
PROJECT = "chkobba"   # the package's name, the head of the page's keys: chkobba.stats.v1, chkobba.web
DEFAULT_MODULE = "web/table/core.js"
DEFAULT = re.compile(r'^export const DEFAULT_GAME = "(\w+)";', re.M)


def game_names_in(text: str, games: list[str]) -> list[str]:
    """The string literals of ``text`` (JavaScript, literals inside a
    template's ``${}`` too) that name a game: the name alone, or a dotted key
    with it as a segment (``daily.start.seven_diamonds``) other than the
    project's name at its head (``chkobba.stats.v1``). Words (a literal with a
    space in it) are not names."""
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    code = re.sub(r"(?:^|(?<=\s))//[^\n]*", "", code)
    found = []
    for m in STRING.finditer(code):
        body = m.group(0)[1:-1]
        if m.group(0).startswith("`"):
            found += game_names_in(body, games)
        if re.search(r"\s", body):
            continue
        segments = body.split(".")
        if any(s in games and (i or s != PROJECT or len(segments) == 1) for i, s in enumerate(segments)):
            found.append(m.group(0))
    return found


def shell_js_files() -> list[Path]:
    renderers = {WEB / "table" / f"{g}.js" for g in GAMES}
    return [p for p in js_files() if p not in renderers]


def test_the_check_finds_a_game_named() -> None:
    games = ["chkobba", "seven_diamonds"]
    assert game_names_in('const g = "seven_diamonds";', games)
    assert game_names_in("if (game === 'chkobba') go();", games)
    assert game_names_in('t("daily.start.chkobba"); t(`start.game.seven_diamonds`)', games)
    assert game_names_in("html = `<b>${t(x === \"chkobba\" ? a : b)}</b>`;", games)
    assert game_names_in('k = "seven_diamonds.x";', games)
    assert not game_names_in('localStorage.getItem("chkobba.stats.v1"); mark("chkobba:ready");', games)
    assert not game_names_in('import { chkobba } from "./chkobba.js"; t(`daily.start.${game}`);', games)
    assert not game_names_in('say("The chkobba package could not be unpacked"); // "seven_diamonds"', games)
    assert not game_names_in('el.setAttribute("data-chkobba-embed", "1");', games)


@pytest.mark.parametrize("path", shell_js_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_game_is_named_outside_its_renderer(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    text = path.read_text(encoding="utf-8")
    found = game_names_in(text, GAMES)
    if rel == DEFAULT_MODULE:
        default = DEFAULT.findall(text)
        assert len(default) == 1 and default[0] in GAMES, f"{rel} declares the default game once (DEFAULT_GAME)"
        assert found == [f'"{default[0]}"'], f"{rel} names a game besides the default: {found}"
    else:
        assert not found, f"{rel} names a game (learn it from describe, or move it to the game's renderer): {found}"
