#!/usr/bin/env python3
"""Main-thread work while playing: does the page ever freeze?

    python bench/main_thread.py [--rounds 3] [--level medium] [--cpu 1] [--write docs/main-thread.md] [--no-build] [--trace]
    python bench/main_thread.py --daily chkobba [--date 2026-12-01] [--cpu 4] [--no-build]

Plays whole rounds through the real site in headless Chromium (Chkobba 1v1
against `--level` (medium by default), 2v2 with three such seats, Seven
Diamonds with three such seats at a phone's size; instant pace), as the e2e
tests do, and reports for the time after the computer players are up:
- every long task (> 50 ms) the browser saw on the main thread, marked when it
  overlaps a computer's turn (the page's "computer move" spans, from the turn's
  start to its move drawn: issue 22's "no main-thread task over 50 ms during a
  computer move"),
- the page's own timings of each piece of main-thread work (facade calls,
  renders, saves, the summary, and `think`: one slice of the computer's or
  the coach's search): count, median, 95th percentile, maximum.
The computer's search runs in the page's interpreter in slices (issue 22).
Timings depend on the machine's load, so they are measured here, not asserted
in tests. ``--trace`` also records a Chromium trace of each round and names
the browser's steps (style, layout, paint, script, collections) inside every
task over 50 ms of the main thread's own time begun during a computer move.

``--daily GAME`` plays the daily deal of ``--date`` instead (the person's seat
by the e2e driver's plain choice) and reports the same, par included: par is
thought in slices (``par``) while the computers are idle (issue 25). For the
"before" figure it then times, on the same page, one blocking facade call of
``daily_par`` for the next day's deal (what the page did before: one main-thread
task for the whole of par).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "e2e"))

from browser import launch  # noqa: E402
from conftest import LONGTASK_SCRIPT  # noqa: E402
from e2e_driver import DESKTOP, PHONE, open_table, play_until_summary, settle, start_game  # noqa: E402
from serve import start_server  # noqa: E402
from test_seven_table import play_round as play_seven_round  # noqa: E402
from test_seven_table import settle as seven_settle  # noqa: E402
from test_seven_table import start_seven  # noqa: E402


# Long animation frames (Chromium's LoAF entries): for a long task with none
# of the page's timed work inside, which script ran (its invoker: a timer, a
# promise, an event listener...) and how long the frame's style, layout and
# paint took.
LOAF_SCRIPT = """
window.__loafs = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__loafs.push({start: e.startTime, duration: e.duration,
        render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
        style: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
        scripts: e.scripts.map((x) => ({invoker: x.invoker, type: x.invokerType, duration: x.duration,
          fn: x.sourceFunctionName, url: (x.sourceURL || '').split('/').pop(),
          layout: x.forcedStyleAndLayoutDuration}))});
    }
  }).observe({type: 'long-animation-frame', buffered: true});
} catch (e) { /* no LoAF in this browser: the attribution says so */ }
"""


def frame_of(task: dict[str, Any], loafs: list[dict[str, Any]]) -> str:
    """What the long animation frame holding ``task`` says ran in it."""
    hits = [f for f in loafs if f["start"] <= task["start"] + 1 and task["start"] < f["start"] + f["duration"]]
    if not hits:
        return "no frame entry"
    f = hits[0]
    parts = []
    for x in f["scripts"]:
        where = f" ({x['fn']} {x['url']})" if x["fn"] or x["url"] else ""
        lay = f", forced layout {x['layout']:.0f}" if x["layout"] else ""
        parts.append(f"{x['type']} {x['invoker']}{where} {x['duration']:.0f}{lay}")
    return (f"frame {f['duration']:.0f} ms, rendering {f['render']:.0f} (style+layout {f['style']:.0f}); scripts: "
            + ("; ".join(parts) or "none"))


def during_computer_move(task: dict[str, Any], timings: list[list[Any]]) -> bool:
    """Whether a long task overlaps a computer's turn: the page's "computer
    move" spans (web/shell/moves.js: from the turn's start to its move drawn)."""
    return any(w[0] == "computer move" and w[1] < task["start"] + task["duration"] and task["start"] < w[1] + w[2]
               for w in timings)


def profile_totals(prof: dict[str, Any]) -> list[tuple[str, float]]:
    """A CPU profile's time per function of the page's own scripts (inclusive:
    a function's callees counted in it), most first."""
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
    spent: dict[int, float] = {}
    for sample, dt in zip(prof["samples"], prof["timeDeltas"][1:] + [0]):
        spent[sample] = spent.get(sample, 0.0) + dt / 1000
    totals: dict[str, float] = {}
    for nid, ms in spent.items():
        seen = set()
        x: int | None = nid
        while x is not None:
            f = nodes[x]["callFrame"]
            url = f["url"].split("/")[-1]
            if url.endswith(".js") and "pyodide" not in url:
                key = f"{f['functionName'] or '(anonymous)'} {url}:{f['lineNumber'] + 1}"
                if key not in seen:
                    totals[key] = totals.get(key, 0.0) + ms
                    seen.add(key)
            x = parent.get(x)
    return sorted(totals.items(), key=lambda kv: -kv[1])


# What a trace records (--trace): the tasks of the page's main thread with
# their thread time, and inside them the browser's rendering steps.
TRACE_CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "v8.execute"]
# the rendering steps and script a long task is described by (thread ms each)
TRACE_STEPS = ("FunctionCall", "RunMicrotasks", "TimerFire", "EventDispatch", "UpdateLayoutTree", "Layout",
               "PrePaint", "Paint", "Layerize", "Commit", "HitTest", "ParseHTML", "MajorGC", "MinorGC")


def main_thread_events(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """The page's main-thread events with their thread time (the renderer
    thread with the most tasks), in order, a task before what it holds."""
    ev = trace["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}
    counts: dict[tuple[int, int], int] = {}
    for e in ev:
        key = (e.get("pid"), e.get("tid"))
        if e.get("name") == "RunTask" and names.get(key) == "CrRendererMain":
            counts[key] = counts.get(key, 0) + 1
    main = max(counts, key=counts.__getitem__)
    return sorted((e for e in ev if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X" and "tdur" in e),
                  key=lambda e: (e["ts"], -e["dur"]))


def task_steps(xs: list[dict[str, Any]], i: int, names: tuple[str, ...]) -> dict[str, float]:
    """Thread ms of each step in ``names`` that the task ``xs[i]`` holds
    (``xs`` as ``main_thread_events`` gives them)."""
    t = xs[i]
    steps: dict[str, float] = {}
    for e in xs[i + 1:]:
        if e["ts"] >= t["ts"] + t["dur"]:
            break
        if e["name"] in names:
            steps[e["name"]] = steps.get(e["name"], 0.0) + e["tdur"] / 1000
    return steps


def cpu_long_tasks(trace: dict[str, Any], sync_ms: float, timings: list[list[Any]],
                   over_ms: float = 50) -> dict[str, Any]:
    """The main thread's tasks begun during computer moves that took over
    ``over_ms`` of the thread's time (a trace's ``tdur``), each with the
    browser's steps inside it (script, style, layout, paint...: the trace
    names what the long-task entries cannot). Thread time leaves out the
    moments the renderer waited for a core, but not all of the load: with CPU
    throttling Chromium spins the throttled thread, and on a loaded machine
    these counts still grow (docs/main-thread.md)."""
    ev = trace["traceEvents"]
    xs = main_thread_events(trace)
    mark = [e for e in ev if e.get("name") == "chk-sync"]
    off = mark[0]["ts"] / 1000 - sync_ms
    spans = [(w[1], w[1] + w[2]) for w in timings if w[0] == "computer move"]
    tasks, long = 0, []
    for i, t in enumerate(xs):
        if t["name"] != "RunTask":
            continue
        a = t["ts"] / 1000 - off
        if not any(s0 <= a < s1 for s0, s1 in spans):   # begun during the move (not the player's tap that led to it)
            continue
        tasks += 1
        if t["tdur"] <= over_ms * 1000:
            continue
        steps = task_steps(xs, i, TRACE_STEPS)
        # the page's timed work inside this task (its start and end, each to
        # the millisecond): not a slice that ended as this task began
        end = a + t["dur"] / 1000
        timed = [f"{w[0]} {w[2]}" for w in timings if a - 1 <= w[1] and w[1] + w[2] <= end + 1]
        long.append({"cpu": t["tdur"] / 1000, "wall": t["dur"] / 1000, "timed": timed,
                     "steps": sorted(steps.items(), key=lambda kv: -kv[1])})
    return {"tasks": tasks, "long": long}


def play_round(browser: Any, base_url: str, players: int, seed: int, level: str = "medium",
               cpu: float = 1, profile: bool = False, game: str = "chkobba", trace: bool = False) -> dict[str, Any]:
    ctx = browser.new_context(viewport=PHONE if players == 2 or game != "chkobba" else DESKTOP, service_workers="block")
    ctx.add_init_script(LONGTASK_SCRIPT)
    ctx.add_init_script(LOAF_SCRIPT)
    page = ctx.new_page()
    page.base_url = base_url
    page.set_default_timeout(300_000)
    cdp = ctx.new_cdp_session(page)
    if cpu > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    open_table(page, f"?seed={seed}")
    levels = (level,) if players == 2 else (level, level, level)
    if game == "seven_diamonds":
        start_seven(page, levels=levels)
        seven_settle(page)
    else:
        start_game(page, players=players, levels=levels)
        settle(page)
    page.wait_for_selector("html.ai-ready")
    if profile:
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        cdp.send("Profiler.start")
    if trace:
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        sync_ms = page.evaluate("() => { performance.mark('chk-sync'); return performance.now(); }")
    if game == "seven_diamonds":
        play_seven_round(page)
    else:
        play_until_summary(page)
    prof = cdp.send("Profiler.stop")["profile"] if profile else None
    traced = json.loads(browser.stop_tracing()) if trace else None
    after = page.evaluate("() => window.__aiReadyAt")
    every = page.evaluate("() => window.chkobbaApp.timings")
    timings = [t for t in every if t[1] >= after]
    # the players' warm-up before `ai-ready` (web/ai.py WARM: one module import a task), reported apart
    timings += [[f"{t[0]} (before ai-ready)", t[1], t[2]] for t in every if t[0].startswith("warm") and t[1] < after]
    long_tasks = [t for t in page.evaluate("() => window.__longTasks") if t["start"] >= after]
    loafs = [f for f in page.evaluate("() => window.__loafs") if f["start"] + f["duration"] >= after]
    ctx.close()
    return {"timings": timings, "long_tasks": long_tasks, "loafs": loafs,
            "profile": profile_totals(prof) if prof else [],
            "cpu": cpu_long_tasks(traced, sync_ms, every) if traced else None}


def play_daily(browser: Any, base_url: str, game: str, day: str, cpu: float = 1) -> dict[str, Any]:
    from datetime import date, timedelta

    from e2e_driver import pick_action, point_and_play, state
    ctx = browser.new_context(viewport=PHONE, service_workers="block")
    ctx.add_init_script(LONGTASK_SCRIPT)
    page = ctx.new_page()
    page.base_url = base_url
    page.set_default_timeout(600_000)
    if cpu > 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    open_table(page, f"?daily={day}&game={game}")
    page.select_option("#pace", "instant")
    page.wait_for_selector("html.ai-ready")
    while settle(page) != "summary":
        point_and_play(page, pick_action(state(page)["save"]))
    page.wait_for_selector(".daily-result[data-ready]")
    after = page.evaluate("() => window.__aiReadyAt")
    timings = [t for t in page.evaluate("() => window.chkobbaApp.timings") if t[1] >= after]
    long_tasks = [t for t in page.evaluate("() => window.__longTasks") if t["start"] >= after]
    nxt = (date.fromisoformat(day) + timedelta(days=1)).isoformat()
    blocking = page.evaluate("""([d, g]) => { const t0 = performance.now();
        JSON.parse(window.chkobbaPy("daily_par", JSON.stringify({date: d, game: g})));
        return performance.now() - t0; }""", [nxt, game])
    ctx.close()
    return {"timings": timings, "long_tasks": long_tasks, "blocking_par_ms": blocking}


def describe(durations: list[float]) -> str:
    if not durations:
        return "-"
    d = sorted(durations)
    p95 = d[min(len(d) - 1, int(0.95 * len(d)))]
    return f"{len(d)} | {statistics.median(d):.0f} | {p95:.0f} | {d[-1]:.0f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3, help="rounds of each kind (1v1, 2v2)")
    p.add_argument("--write", help="write the results as markdown to this file")
    p.add_argument("--no-build", action="store_true")
    p.add_argument("--level", default="medium", choices=("easy", "medium", "hard"), help="the computer seats' level")
    p.add_argument("--cpu", type=float, default=1, help="CDP CPU throttling of the page (4 = a phone)")
    p.add_argument("--daily", choices=("chkobba", "seven_diamonds"), help="play this daily deal instead")
    p.add_argument("--date", default="2026-12-01", help="the daily deal's date (with --daily)")
    p.add_argument("--profile", action="store_true",
                   help="also take a CPU profile of each round and print the page's functions by time (their callees included)")
    p.add_argument("--trace", action="store_true",
                   help="also trace each round: the tasks begun during computer moves over 50 ms of the main "
                        "thread's own time, each with the browser's steps inside it (style, layout, paint...)")
    a = p.parse_args(argv)
    if not a.no_build:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py")], check=True)
    from playwright.sync_api import sync_playwright
    server = start_server(ROOT / "build" / "site")
    base_url = f"http://127.0.0.1:{server.server_address[1]}/"
    if a.daily:
        with sync_playwright() as pw:
            browser = launch(pw)
            run = play_daily(browser, base_url, a.daily, a.date, a.cpu)
            browser.close()
        server.shutdown()
        rows = ["| work | count | median ms | p95 ms | max ms |", "|---|---|---|---|---|"]
        for kind in sorted({t[0] for t in run["timings"]}):
            rows.append(f"| {kind} | " + describe([t[2] for t in run["timings"] if t[0] == kind]) + " |")
        lt = [t["duration"] for t in run["long_tasks"]]
        rows.append(f"| long tasks > 50 ms | {len(lt)} | - | - | " + (f"{max(lt):.0f} |" if lt else "- |"))
        spans = [(t[1], t[1] + t[2]) for t in run["timings"] if t[0] == "par"]
        lp = [t["duration"] for t in run["long_tasks"]
              if any(s0 < t["start"] + t["duration"] and t["start"] < s1 for s0, s1 in spans)]
        rows.append(f"| long tasks > 50 ms holding a par slice | {len(lp)} | - | - | "
                    + (f"{max(lp):.0f} |" if lp else "- |"))
        rows.append(f"| before: one blocking daily_par call (the next day's deal) | 1 | - | - | "
                    f"{run['blocking_par_ms']:.0f} |")
        print("\n".join(rows))
        return 0
    results: dict[str, list[dict[str, Any]]] = {"1v1": [], "2v2": [], "seven diamonds": []}
    load_before = os.getloadavg()[0]
    with sync_playwright() as pw:
        browser = launch(pw)
        for k in range(a.rounds):
            results["1v1"].append(play_round(browser, base_url, 2, 100 + k, a.level, a.cpu, a.profile, trace=a.trace))
            results["2v2"].append(play_round(browser, base_url, 4, 200 + k, a.level, a.cpu, a.profile, trace=a.trace))
            results["seven diamonds"].append(play_round(browser, base_url, 4, 300 + k, a.level, a.cpu, a.profile,
                                                        game="seven_diamonds", trace=a.trace))
        browser.close()
    server.shutdown()
    lines = ["| table | work | count | median ms | p95 ms | max ms |", "|---|---|---|---|---|---|"]
    for name, runs in results.items():
        kinds = sorted({t[0] for r in runs for t in r["timings"] if not t[0].startswith("think:")})   # notes
        for kind in kinds:
            lines.append(f"| {name} | {kind} | " + describe([t[2] for r in runs for t in r["timings"] if t[0] == kind]) + " |")
        lt = [t["duration"] for r in runs for t in r["long_tasks"]]
        during = []
        for r in runs:
            for t in r["long_tasks"]:
                inside = [f"{w[0]} {w[2]}" for w in r["timings"]
                          if w[1] + 1 >= t["start"] and w[1] + w[2] <= t["start"] + t["duration"] + 1]
                computer = during_computer_move(t, r["timings"])
                if computer:
                    during.append(t["duration"])
                print(f"{name}: long task {t['duration']:.0f} ms" + (" [during a computer move]" if computer else "") + ": "
                      + (", ".join(inside) or "none of the page's timed work") + " | " + frame_of(t, r.get("loafs", [])))
        lines.append(f"| {name} | long tasks > 50 ms | {len(lt)} | " + (f"- | - | {max(lt):.0f} |" if lt else "- | - | - |"))
        lines.append(f"| {name} | long tasks > 50 ms during a computer move | {len(during)} | "
                     + (f"- | - | {max(during):.0f} |" if during else "- | - | - |"))
        traced = [r["cpu"] for r in runs if r.get("cpu")]
        if traced:
            cpu_long = [x for c in traced for x in c["long"]]
            for x in cpu_long:
                print(f"{name}: task of {x['cpu']:.0f} ms thread time ({x['wall']:.0f} ms wall) during a computer move: "
                      + (", ".join(x["timed"]) or "none of the page's timed work") + " | "
                      + ", ".join(f"{k} {v:.0f}" for k, v in x["steps"][:8]))
            lines.append(f"| {name} | tasks during computer moves, traced | {sum(c['tasks'] for c in traced)} | - | - | - |")
            lines.append(f"| {name} | of them over 50 ms of thread time | {len(cpu_long)} | - | - | "
                         + (f"{max(x['cpu'] for x in cpu_long):.0f} |" if cpu_long else "- |"))
    for name, runs in results.items():
        for r in runs:
            if r["profile"]:
                print(f"{name}: CPU profile, the page's functions by ms (callees included):")
                for key, ms in r["profile"][:25]:
                    print(f"  {ms:8.0f}  {key}")
    cmd = "python bench/main_thread.py " + " ".join(argv if argv is not None else sys.argv[1:])
    text = "\n".join(lines)
    print(f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(text)
    if a.write:
        Path(a.write).write_text(
            "# Main-thread work during play\n\n"
            f"Measured with `{cmd.strip()}` ({a.rounds} whole rounds of each kind, {a.level} computer seats,\n"
            f"instant pace, headless Chromium on this project's 2-core machine kind, CPU {a.cpu:g}x), counting\n"
            "only what happens after the computer players are up. The computer's\n"
            "search runs in the page's interpreter in slices of about 12 ms (`think`, web/shell/py.js\n"
            "and web/ai.py), between which the page draws and reads input.\n\n"
            + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
