"""Helpers of the accessibility e2e tests: axe-core (from node_modules, put
into the page by the test: no request leaves the origin) and positions made
in CPython to load as saves."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

from chkobba import web
from chkobba.session import Session

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
sys.path.insert(0, str(ROOT / "scripts"))
import catalogs  # noqa: E402

LANGS = ("ar", "fr", "en")
# WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best practices; only serious and
# critical findings fail a test (the brief of issue 12).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
FAIL_ON = ("serious", "critical")


def inject_axe(page: Any) -> None:
    if page.evaluate("() => !!window.axe"):
        return
    csp = page.evaluate("() => !!document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]')")
    if csp:
        # A page whose policy forbids inline scripts (embed.html, learn.html)
        # allows eval: the same file, run by the test.
        page.evaluate("(src) => { (0, eval)(src); }", AXE.read_text(encoding="utf-8"))
    else:
        page.add_script_tag(path=str(AXE))
    assert page.evaluate("() => typeof window.axe === 'object'"), "axe-core did not load"


def axe(page: Any, screen: str, schemes: tuple[str, ...] = ("light", "dark")) -> list[str]:
    """Run axe on the page as it is (all rules in the light colour scheme,
    contrast again in the dark one); the serious and critical violations,
    each as one readable line."""
    inject_axe(page)
    out: list[str] = []
    for scheme in schemes:
        page.emulate_media(color_scheme=scheme)
        # Every rule in the light scheme; in the dark one only contrast can change.
        run_only = {"type": "tag", "values": TAGS} if scheme == "light" else {"type": "rule", "values": ["color-contrast"]}
        res = page.evaluate(
            """(only) => axe.run(document, {runOnly: only, resultTypes: ['violations']})
                 .then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
                   nodes: v.nodes.map((n) => ({target: JSON.stringify(n.target), html: n.html.slice(0, 160),
                                              why: (n.failureSummary || '').split('\\n').slice(1).join(' ').trim()}))})))""",
            run_only)
        for v in res:
            if v["impact"] not in FAIL_ON:
                continue
            for n in v["nodes"][:6]:
                out.append(f"[{screen} / {scheme}] {v['impact']} {v['id']} ({v['help']}): {n['target']} "
                           f"{n['html']} -- {n['why'][:300]}")
    page.emulate_media(color_scheme="light")
    return out


def catalog(lang: str) -> dict[str, Any]:
    """One language's catalog as the build merges it (web/i18n/<lang>/*.json)."""
    table = dict(catalogs.load("en"))
    table.update(catalogs.load(lang))
    return table


def template_regex(text: str) -> re.Pattern[str]:
    """A catalog text as a pattern: each {name} stands for any words."""
    parts = re.split(r"\{[a-z_][a-z0-9_]*\}", text, flags=re.I)
    return re.compile(".+?".join(re.escape(p) for p in parts), re.S)


def save_of(session: Session, players: int = 2, seats: list[dict[str, Any]] | None = None,
            level: str = "easy") -> dict[str, Any]:
    if seats is None:
        seats = [{"kind": "human"}] + [{"kind": "computer", "level": level}] * (players - 1)
    return {"v": web.SAVE_VERSION, "game": session.record()["game"], "record": session.record(), "seed": session.seed,
            "seats": seats, "coach": False}


def mid_round(game: str, options: dict[str, Any], seed: int, plies: int) -> Session:
    """A position some way into round 1 with seat 0 (the human) to play a card."""
    rng = random.Random(seed)
    s = Session.new(game, options, seed=seed)
    while s.to_act() is not None:
        if len(s.record()["rounds"][0]["actions"]) >= plies and s.to_act() == 0 and s.state.phase == "play":
            return s
        legal = [a for a in s.legal() if not a.startswith("claim") and a != "timeout"]
        words = [a for a in legal if a in ("keep", "pass", "refuse")]
        s.apply(words[0] if words and game == "chkobba" else rng.choice(legal))
    raise AssertionError("the round ended first")


def match_end(first_seed: int = 3) -> tuple[Session, str]:
    """A 1 v 1 game to 11 where the human's next card ends the game."""
    for seed in range(first_seed, first_seed + 40):
        rng = random.Random(seed)
        s = Session.new("chkobba", {"players": 2, "target": 11}, seed=seed)
        while s.to_act() is not None:
            legal = [a for a in s.legal() if not a.startswith("claim")]
            if s.to_act() == 0 and s.state.phase == "play":
                for a in legal:
                    trial = Session.from_record(s.record(), seed=s.seed)
                    trial.apply(a)
                    if trial.to_act() is None:
                        return s, a
            words = [a for a in legal if a in ("keep", "pass", "refuse")]
            s.apply(words[0] if words else rng.choice(legal))
    raise AssertionError("no game end found")


def load(page: Any, save: dict[str, Any]) -> None:
    page.evaluate("(s) => localStorage.setItem('chkobba.save.v1', s)", json.dumps(save))
    page.reload()
    page.wait_for_selector("html.ready")
