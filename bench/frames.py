#!/usr/bin/env python3
"""The browser's work to draw each move, without the computer's thinking.

    python bench/frames.py [--players 4] [--size 1280x800] [--reps 3] [--cpu 1] [--css FILE ...] [--no-build]
    python bench/frames.py --game seven_diamonds --size 360x640 --top 5

Plays one round (seed 200, easy seats, instant pace) at ``--size`` and keeps
every state the page drew; then, in a fresh page, draws those states one
after another (``table.set``, two frames between them) under a Chromium
trace, and reports the main thread's rendering steps over the whole round
(style, layout, pre-paint, paint, layerize, commit, hit test: thread ms) and
the longest frames. The same states each time, and no search running, so
two builds (or a build with ``--css FILE`` added to every page) compare
closely; at ``--cpu 1`` the spread between repeats is a few per cent
(throttling spins the thread and widens it). ``--top N`` also names the N
longest frames of the first repeat: the state drawn before each (its number,
phase and moves so far). Figures: docs/main-thread.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "e2e"))

from browser import launch  # noqa: E402
from e2e_driver import open_table, play_until_summary, settle, start_game  # noqa: E402
from main_thread import main_thread_events, task_steps  # noqa: E402
from serve import start_server  # noqa: E402
from test_seven_table import play_round as play_seven_round  # noqa: E402
from test_seven_table import settle as seven_settle  # noqa: E402
from test_seven_table import start_seven  # noqa: E402

STEPS = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit", "HitTest")
SCRIPT = ("FunctionCall", "TimerFire", "RunMicrotasks", "FireAnimationFrame")
RECORD = """() => { const a = window.chkobbaApp; let v = a.state; window.__states = [v];
  Object.defineProperty(a, 'state', {get: () => v, set: (x) => { v = x; window.__states.push(x); }, configurable: true}); }"""
DRAW = """async () => { const t = window.chkobbaApp.table;
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  for (const [i, s] of window.__S.entries()) {
    performance.mark(`state ${i}`); t.set({state: s, busy: true}); await frame(); await frame(); } }"""


def begin(browser: Any, base: str, size: dict[str, int], players: int, css: str, cpu: float,
          game: str = "chkobba") -> tuple[Any, Any]:
    ctx = browser.new_context(viewport=size, service_workers="block")
    if css:
        ctx.add_init_script("document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style');"
                            f" s.textContent = {json.dumps(css)}; document.head.append(s); }});")
    page = ctx.new_page()
    page.base_url = base
    page.set_default_timeout(300_000)
    if cpu > 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    open_table(page, "?seed=200")
    if game == "seven_diamonds":
        start_seven(page)
        seven_settle(page)
    else:
        start_game(page, players=players, levels=("easy",) * (players - 1))
        settle(page)
    return ctx, page


def measure(trace: dict[str, Any]) -> dict[str, Any]:
    xs = main_thread_events(trace)
    steps = {s: sum(e["tdur"] for e in xs if e["name"] == s) / 1000 for s in STEPS}
    # each frame with the state drawn last before it (the page's marks)
    marks = sorted((e["ts"], int(e["name"].split()[1])) for e in trace["traceEvents"]
                   if e.get("ph") in ("R", "I", "n") and str(e.get("name", "")).startswith("state "))
    frames = []
    for i, e in enumerate(xs):
        if e["name"] == "RunTask":
            before = [k for ts, k in marks if ts <= e["ts"]]
            frames.append((sum(task_steps(xs, i, STEPS).values()), before[-1] if before else -1))
    script = sum(e["tdur"] for e in xs if e["name"] in SCRIPT) / 1000
    return {"steps": steps, "script": script, "frames": sorted(frames, reverse=True)}


def describe(state: dict[str, Any]) -> str:
    """A state in a few words: its phase and the moves of its round so far."""
    rounds = state["save"]["record"]["rounds"]
    return f"{state['view'].get('phase', '?')}, round {len(rounds)}, {len(rounds[-1]['actions']) if rounds else 0} moves"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="chkobba", choices=("chkobba", "seven_diamonds"))
    p.add_argument("--players", type=int, default=4, choices=(2, 4), help="Chkobba's players (Seven Diamonds: 4)")
    p.add_argument("--top", type=int, default=0, help="name the N longest frames of the first repeat")
    p.add_argument("--size", default="1280x800", help="the viewport, WxH")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--cpu", type=float, default=1, help="CDP CPU throttling (1: none, the closest repeats)")
    p.add_argument("--css", nargs="*", default=[], help="also measure with each of these style sheets added")
    p.add_argument("--no-build", action="store_true")
    a = p.parse_args(argv)
    if not a.no_build:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py")], check=True)
    from playwright.sync_api import sync_playwright
    w, h = (int(x) for x in a.size.split("x"))
    size = {"width": w, "height": h}
    server = start_server(ROOT / "build" / "site")
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    print("| variant | states | rendering ms | style | layout | pre-paint | paint | other | script ms | longest frames ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with sync_playwright() as pw:
        browser = launch(pw)
        ctx, page = begin(browser, base, size, a.players, "", 1, a.game)
        page.evaluate(RECORD)
        if a.game == "seven_diamonds":
            play_seven_round(page)
        else:
            play_until_summary(page)
        states = page.evaluate("() => JSON.stringify(window.__states)")
        ctx.close()
        n = len(json.loads(states))
        named = []
        for _ in range(a.reps):
            for variant in ["-", *a.css]:
                css = Path(variant).read_text() if variant != "-" else ""
                ctx, page = begin(browser, base, size, a.players, css, a.cpu, a.game)
                page.evaluate("(s) => { window.__S = JSON.parse(s); }", states)
                browser.start_tracing(page=page, categories=["toplevel", "devtools.timeline",
                                                             "disabled-by-default-devtools.timeline", "blink.user_timing"])
                page.evaluate(DRAW)
                got = measure(json.loads(browser.stop_tracing()))
                ctx.close()
                s = got["steps"]
                other = s["Layerize"] + s["Commit"] + s["HitTest"]
                print(f"| {'this build' if variant == '-' else variant} | {n} | {sum(s.values()):.0f} | {s['UpdateLayoutTree']:.0f} "
                      f"| {s['Layout']:.0f} | {s['PrePaint']:.0f} | {s['Paint']:.0f} | {other:.0f} | {got['script']:.0f} "
                      f"| {', '.join(f'{x:.1f}' for x, _ in got['frames'][:3])} |")
                if not named:
                    named = got["frames"][:a.top]
        browser.close()
    if named:
        print()
        listed = json.loads(states)
        for ms, k in named:
            print(f"- {ms:.1f} ms after state {k}" + (f" ({describe(listed[k])})" if 0 <= k < len(listed) else ""))
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
