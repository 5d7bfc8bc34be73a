"""The package's shape (issue 8): no import cycle anywhere in chkobba/, a
protocol module that imports no game, a registry that imports every game,
each game in its own package, only the facade touching the browser."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "chkobba"
GAME_MODULES = ("options", "constants", "state", "observation", "determinize", "view", "game")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PKG.rglob("*.py")}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str) -> set[str]:
    """Every chkobba module ``name`` imports at run time: at the top, inside
    functions and methods, anywhere, except under ``if TYPE_CHECKING:``
    (annotations only, never executed). ``from pkg import sub`` counts as
    importing ``pkg.sub`` when ``sub`` is a module."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for inner in node.body:
                skip.update(id(n) for n in ast.walk(inner))
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in MODULES else mod for a in node.names]
        for t in targets:
            while t and t not in MODULES:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


GRAPH = {name: imports_of(name) for name in MODULES}


def find_cycle() -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(GRAPH[n]):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(GRAPH):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_no_import_cycle_anywhere() -> None:
    cycle = find_cycle()
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_cycles() -> None:
    """The check can fail: a lazy import of the state from its observation
    module (the cycle issue 8 found) is caught."""
    saved = dict(GRAPH)
    try:
        GRAPH["chkobba.games.chkobba.observation"] = GRAPH["chkobba.games.chkobba.observation"] | {
            "chkobba.games.chkobba.state"}
        assert find_cycle() is not None
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def test_imports_in_functions_are_seen() -> None:
    # chkobba/__main__.py imports the command-line modules inside main()
    assert {"chkobba.cli.arena", "chkobba.cli.terminal"} <= GRAPH["chkobba.__main__"]


def reachable(name: str) -> set[str]:
    seen: set[str] = set()
    todo = [name]
    while todo:
        n = todo.pop()
        for m in GRAPH[n]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def test_protocol_imports_no_game_and_registry_imports_every_game() -> None:
    assert not any(m.startswith("chkobba.games") for m in reachable("chkobba.protocol"))
    games = {p.name for p in (PKG / "games").iterdir() if (p / "__init__.py").exists()}
    assert games == {"chkobba", "seven_diamonds"}
    for g in games:   # through the game's declaration, which names its state and determinize
        assert f"chkobba.games.{g}.game" in GRAPH["chkobba.registry"]
        assert f"chkobba.games.{g}.state" in GRAPH[f"chkobba.games.{g}.game"]
        assert f"chkobba.games.{g}.determinize" in GRAPH[f"chkobba.games.{g}.game"]


@pytest.mark.parametrize("game", ["chkobba", "seven_diamonds"])
def test_each_game_package_owns_its_parts(game: str) -> None:
    for part in GAME_MODULES:
        assert f"chkobba.games.{game}.{part}" in MODULES
    # a game never imports another game
    other = {"chkobba": "seven_diamonds", "seven_diamonds": "chkobba"}[game]
    for name in MODULES:
        if name.startswith(f"chkobba.games.{game}."):
            assert not any(m.startswith(f"chkobba.games.{other}") for m in GRAPH[name]), name


def test_protocol_signatures_have_no_any() -> None:
    tree = ast.parse((PKG / "protocol.py").read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert "Any" not in names


def test_only_the_facade_knows_the_browser() -> None:
    browser = {"js", "pyodide", "pyscript"}
    for name in MODULES:
        if name != "chkobba.web":
            text = MODULES[name].read_text(encoding="utf-8")
            tree = ast.parse(text)
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    assert not {a.name.split(".")[0] for a in node.names} & browser, name
                if isinstance(node, ast.ImportFrom) and not node.level:
                    assert (node.module or "").split(".")[0] not in browser, name
