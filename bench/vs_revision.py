#!/usr/bin/env python3
"""Play an agent level of the working tree against a level of another revision.

    python bench/vs_revision.py [--rev v0.1] [--level hard] [--level-b LEVEL]
        [--game chkobba] [--players 2] [--option capture=compulsory]
        [--games 400] [--seed 1] [--jobs 2] [--json] [--progress]

Each side runs in its own long-lived process from its own checkout: side a
from the working tree, side b from a ``git worktree`` of ``--rev`` kept in
``.cache/rev-<sha>`` (made on first use, reused afterwards). A side is asked
for its move exactly as the web worker asks: the record so far is sent as a
v1 save to ``chkobba.web.call("choose", ...)`` (a payload every revision's
facade accepts), so the two sides share no code and the agent sees only its
seat's observation. The referee (the working tree's ``Session``) deals and
applies the moves. Both sides use their facade's default budget (the budget
the page uses).

Deals are played in duplicate: deal pair ``k`` is played twice with the same
seeded decks, a on side 0 then on side 1. The result is a's share of the games
(a draw, a game stopped at ``--max-rounds``, counts half) with a 95% confidence
interval computed over the deal pairs (each pair scores 0, 0.5 or 1 for a), so
the luck the pairing cancels is not counted as noise; the unpaired Wilson
interval is printed beside it. Points per round and each side's decision
times (measured inside its process, rebuilding the position included) too.
"""

from __future__ import annotations

import argparse
import json
import math
import queue
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chkobba.cli.arena import decision_stats, option_value, wilson  # noqa: E402
from side_by_side import checkout  # noqa: E402  (bench/ is the script's folder)
from chkobba.registry import game_class  # noqa: E402
from chkobba.session import Session  # noqa: E402

# The side's process: import the checkout's own package (the checkout comes
# first on sys.path), say where it came from, then answer choose requests.
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import chkobba, chkobba.web as web
if len(sys.argv) > 2 and sys.argv[2] == "no-ms-cap":
    # the page's search time cap off (revisions that have one): both sides then
    # think their whole rollout budget, as on a machine where the cap never binds
    import dataclasses, chkobba.agents as agents
    budgets = getattr(agents, "DEFAULT_BUDGETS", {})
    for k, b in list(budgets.items()):
        if getattr(b, "ms", None) is not None and getattr(b, "rollouts", None) is not None:
            budgets[k] = dataclasses.replace(b, ms=None)
print(json.dumps({"hello": chkobba.__file__}), flush=True)
for line in sys.stdin:
    t = time.perf_counter()
    answer = web.call("choose", line)
    ms = (time.perf_counter() - t) * 1000.0
    print(json.dumps({"answer": json.loads(answer), "ms": ms}), flush=True)
"""




class Side:
    """One long-lived process answering ``choose`` from one checkout."""

    def __init__(self, where: Path, no_ms_cap: bool = False) -> None:
        self.where = where
        self.any_human_seat = False   # learnt from the first answer for seat 0
        extra = ["no-ms-cap"] if no_ms_cap else []
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(where), *extra], cwd=where,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        hello = json.loads(self._read())
        origin = Path(hello["hello"]).resolve()
        if where.resolve() not in origin.parents:
            raise RuntimeError(f"the side for {where} imported chkobba from {origin}")

    def _read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the side for {self.where} stopped")
        return line

    def choose(self, save: dict[str, Any], seat: int) -> tuple[str, float]:
        """The side's action for ``seat``. The save's seats are written the way
        that revision's facade accepts them: v0.1 wants the first seat human
        (and does not look at the asked seat's kind); later facades want the
        asked seat to be a computer and some seat human."""
        computers = [{"kind": "computer", "level": s["level"]} for s in save["seats"]]
        # v0.1 reads the asked seat's level even from the human seat (and
        # plays medium when it has none): the human seat carries it
        first_human = [{"kind": "human", "level": computers[0]["level"]} if seat == 0 else {"kind": "human"}]
        first_human += computers[1:]
        forms = [first_human]
        if seat == 0:
            asked_computer = [computers[0], {"kind": "human"}] + computers[2:]
            forms = [asked_computer, first_human] if self.any_human_seat else [first_human, asked_computer]
        ans: dict[str, Any] = {}
        for seats in forms:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps({"save": {**save, "seats": seats}, "seat": seat}) + "\n")
            out = json.loads(self._read())
            ans = out["answer"]
            if "ok" in ans:
                level = ans["ok"].get("level") if isinstance(ans["ok"], dict) else None
                if level is not None and level != save["seats"][seat]["level"]:
                    raise RuntimeError(f"the side for {self.where} played {level}, not {save['seats'][seat]['level']}")
                if seat == 0:
                    self.any_human_seat = seats is not first_human
                return str(ans["ok"]["action"]), float(out["ms"])
        raise RuntimeError(f"the side for {self.where} refused: {ans}")

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def play_game(sides: dict[str, Side], levels: dict[str, str], game: str, options: dict[str, Any],
              seed: int, index: int, max_rounds: int) -> dict[str, Any]:
    """Game ``index``: deal pair ``index // 2``, a on side ``index % 2``."""
    pair, a_side = divmod(index, 2)
    deal_seed = seed * 1_000_003 + pair
    players = int(options["players"])
    first_dealer = random.Random(f"{deal_seed}/dealer").randrange(players)
    session = Session.new(game, options, seed=deal_seed, first_dealer=first_dealer)
    seats = {t: [{"kind": "computer", "level": levels[t]} for _ in range(players)] for t in ("a", "b")}
    ms: dict[str, list[float]] = {"a": [], "b": []}
    t0 = time.perf_counter()
    while not session.is_over and len(session.state.results) < max_rounds:
        seat = session.to_act()
        assert seat is not None
        team = "a" if (seat & 1) == a_side else "b"
        save = {"v": 1, "record": session.record(), "seed": session.seed, "seats": seats[team], "coach": False}
        action, took = sides[team].choose(save, seat)
        if sum(1 for x in session.legal_actions() if x.kind != "timeout") > 1:
            ms[team].append(took)
        session.apply(action)
    st = session.state
    winner = None
    if st.winner is not None:
        winner = "a" if st.winner == a_side else "b"
    return {"index": index, "pair": pair, "a_side": a_side, "winner": winner, "rounds": len(st.results),
            "a_points": sum(r.points[a_side] for r in st.results),
            "b_points": sum(r.points[a_side ^ 1] for r in st.results),
            "seconds": time.perf_counter() - t0, "a_ms": ms["a"], "b_ms": ms["b"]}


def run(where_a: Path, where_b: Path, levels: dict[str, str], game: str, options: dict[str, Any], seed: int,
        games: int, jobs: int, max_rounds: int, progress: bool, log: Any = None,
        no_ms_cap: bool = False) -> list[dict[str, Any]]:
    todo: queue.Queue[int] = queue.Queue()
    for i in range(games):
        todo.put(i)
    results: list[dict[str, Any]] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def worker() -> None:
        sides: dict[str, Side] = {}
        try:
            sides = {"a": Side(where_a, no_ms_cap), "b": Side(where_b, no_ms_cap)}
            while not errors:
                try:
                    i = todo.get_nowait()
                except queue.Empty:
                    return
                r = play_game(sides, levels, game, options, seed, i, max_rounds)
                with lock:
                    results.append(r)
                    if log is not None:
                        log.write(json.dumps(r) + "\n")
                        log.flush()
                    if progress:
                        a = sum(1 for x in results if x["winner"] == "a")
                        print(f"\r{len(results)}/{games} games, a won {a}", end="", file=sys.stderr, flush=True)
        except BaseException as e:  # reported by the main thread
            errors.append(e)
        finally:
            for s in sides.values():
                s.close()

    threads = [threading.Thread(target=worker) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if progress:
        print(file=sys.stderr)
    if errors:
        raise errors[0]
    results.sort(key=lambda r: r["index"])
    return results


def paired_ci(results: list[dict[str, Any]], z: float = 1.96) -> tuple[float, float, float, int]:
    """a's share and its 95% interval over deal pairs (both games of a pair)."""
    by_pair: dict[int, list[float]] = {}
    for r in results:
        score = 1.0 if r["winner"] == "a" else 0.0 if r["winner"] == "b" else 0.5
        by_pair.setdefault(r["pair"], []).append(score)
    xs = [sum(v) / len(v) for v in by_pair.values() if len(v) == 2]
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else float("nan"), 0.0, 1.0, n)
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(n)
    return (m, max(0.0, m - z * se), min(1.0, m + z * se), n)


def paired_margin(results: list[dict[str, Any]], z: float = 1.96) -> tuple[float, float, float]:
    """a's point margin per round (a's points minus b's, over both games of
    each deal pair) with its 95% interval over the pairs."""
    by_pair: dict[int, list[dict[str, Any]]] = {}
    for r in results:
        by_pair.setdefault(r["pair"], []).append(r)
    xs = [sum(r["a_points"] - r["b_points"] for r in v) / max(1, sum(r["rounds"] for r in v))
          for v in by_pair.values() if len(v) == 2]
    if len(xs) < 2:
        return (float("nan"), float("nan"), float("nan"))
    m = statistics.fmean(xs)
    h = z * statistics.stdev(xs) / math.sqrt(len(xs))
    return (m, m - h, m + h)


def summarize(results: list[dict[str, Any]], meta: dict[str, Any], seconds: float) -> dict[str, Any]:
    n = len(results)
    a = sum(1 for r in results if r["winner"] == "a")
    b = sum(1 for r in results if r["winner"] == "b")
    d = n - a - b
    share, lo, hi, pairs = paired_ci(results)
    wlo, whi = wilson(a + d / 2, n)
    rounds = sum(r["rounds"] for r in results)
    out = dict(meta)
    out.update({
        "games": n, "pairs": pairs, "a_wins": a, "b_wins": b, "draws": d,
        "a_share": round(share, 4), "ci95_paired": [round(lo, 4), round(hi, 4)],
        "ci95_wilson": [round(wlo, 4), round(whi, 4)],
        "rounds": rounds,
        "a_points_per_round": round(sum(r["a_points"] for r in results) / rounds, 3) if rounds else None,
        "b_points_per_round": round(sum(r["b_points"] for r in results) / rounds, 3) if rounds else None,
        "seconds": round(seconds, 1),
    })
    m, mlo, mhi = paired_margin(results)
    out["a_margin_per_round"] = round(m, 3)
    out["a_margin_ci95_paired"] = [round(mlo, 3), round(mhi, 3)]
    for t in ("a", "b"):
        ms = [x for r in results for x in r[f"{t}_ms"]]
        if ms:
            out[f"{t}_decision_ms"] = decision_stats(ms)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--rev", default="v0.1", help="revision of side b (a tag, branch or commit; default v0.1)")
    p.add_argument("--rev-a", default=".", help="revision of side a (default: the working tree, '.')")
    p.add_argument("--level", default="hard", help="level of side a (easy, medium, hard)")
    p.add_argument("--level-b", help="level of side b (default: the same as side a)")
    p.add_argument("--game", choices=("chkobba", "seven_diamonds"), default="chkobba")
    p.add_argument("--players", type=int, choices=(2, 4))
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--games", type=int, default=100, help="games (rounded up to an even number)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="games played at once (each with its own two processes)")
    p.add_argument("--max-rounds", type=int, default=200)
    p.add_argument("--json", action="store_true")
    p.add_argument("--progress", action="store_true")
    p.add_argument("--log", help="append each game's result to this file (JSON lines) as it ends")
    p.add_argument("--no-ms-cap", action="store_true",
                   help="both sides without the page's search time cap (rollout budgets only): "
                        "for a loaded machine, where the cap would bind on one side only")
    p.add_argument("--summarize", metavar="LOG", help="only summarize the games of a --log file (a run stopped early)")
    args = p.parse_args(argv)
    if args.summarize:
        rows = [json.loads(x) for x in Path(args.summarize).read_text().splitlines() if x.strip()]
        print(json.dumps(summarize(rows, {"log": args.summarize}, 0.0)))
        return 0
    options: dict[str, Any] = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        if not eq:
            p.error(f"--option {item!r}: write NAME=VALUE")
        options[name.strip()] = option_value(value.strip())
    if args.players is not None:
        options["players"] = args.players
    options = game_class(args.game).options_class().from_dict(options).to_dict()
    levels = {"a": args.level, "b": args.level_b or args.level}
    where_a, where_b = checkout(args.rev_a), checkout(args.rev)
    games = args.games + args.games % 2
    meta = {"game": args.game, "options": options, "a": f"{levels['a']}@{args.rev_a}",
            "b": f"{levels['b']}@{args.rev}", "rev_b": where_b.name.removeprefix("rev-") if where_b != ROOT else ".", "seed": args.seed,
            "no_ms_cap": args.no_ms_cap}
    t0 = time.perf_counter()
    log = open(args.log, "a") if args.log else None
    try:
        results = run(where_a, where_b, levels, args.game, options, args.seed, games, args.jobs, args.max_rounds,
                      args.progress, log, args.no_ms_cap)
    finally:
        if log is not None:
            log.close()
    out = summarize(results, meta, time.perf_counter() - t0)
    if args.json:
        print(json.dumps(out))
        return 0
    lo, hi = out["ci95_paired"]
    print(f"{args.game}, options {json.dumps(options)}")
    print(f"a = {out['a']}, b = {out['b']} ({out['rev_b']}), {games} games on {out['pairs']} deal pairs, "
          f"seed {args.seed}")
    print(f"a won {out['a_wins']}, b won {out['b_wins']}, draws {out['draws']}")
    print(f"a's share {out['a_share']:.3f}, 95% CI over deal pairs [{lo:.3f}, {hi:.3f}] "
          f"(unpaired Wilson [{out['ci95_wilson'][0]:.3f}, {out['ci95_wilson'][1]:.3f}])")
    print(f"points per round: a {out['a_points_per_round']}, b {out['b_points_per_round']} ({out['rounds']} rounds); "
          f"a's margin per round {out['a_margin_per_round']:+.3f}, 95% CI over deal pairs "
          f"[{out['a_margin_ci95_paired'][0]:+.3f}, {out['a_margin_ci95_paired'][1]:+.3f}]")
    for t in ("a", "b"):
        ms = out.get(f"{t}_decision_ms")
        if ms:
            print(f"{t} ms per decision (in its process): median {ms['median']}, p95 {ms['p95']}, max {ms['max']}")
    print(f"{out['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
