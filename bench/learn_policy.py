#!/usr/bin/env python3
"""Expert iteration for two-player Chkobba: collect the search's action values in
self-play, fit the learnt play policy to them, write its weights.

    python bench/learn_policy.py collect --gen 0 --slices 0-7 [--games 12] [--seed 1]
    python bench/learn_policy.py fit --gen 0 [--ridge 1.0] [--write chkobba/agents/policy_weights.py]
    python bench/learn_policy.py cost [--positions 200]      # CPU per playout, medium vs learnt
    python bench/learn_policy.py train     # the committed weights: collect gen 0 slices 0-15, then fit and write
    python bench/learn_policy.py train --slices 0 --games 1 --worlds 2 --data /tmp/sp --write /tmp/w.py   # tiny

``collect`` plays medium-vs-medium games (two players, default table; the
trajectory) and at about half of the play decisions with more than one legal
move asks the hard search for the value of **every** searched move: the same
search as the page's hard (sampled deals weighed by the evidence, the exact last
deal), without pruning, ``--worlds`` sampled deals per move, so every move is
valued on the same deals. In the last deal the values are the solver's exact
round point differences. For each decision it stores the features of each
searched move (``chkobba.agents.policy.move_features``, from the seat's own
view) and its value, one JSON line, in ``.cache/selfplay/gen<G>/slice-<K>.jsonl``.
Slice ``K`` plays games ``seed * 1_000_000 + K * 1000 + g``; a slice whose file
ends with its ``done`` line is skipped, an unfinished one is played again, so a
run can be stopped and continued (``--slices 8-15`` adds more data). With
``--gen G`` above 0 the search's playouts use the policy fitted on generation
``G - 1`` (``--weights``, default the committed weights): the next iteration.

``fit --objective values`` (the committed weights) minimizes the squared error
between each move's value and the policy's score, both centered within the
decision, by the normal equations; ``--objective choice`` maximizes the value
of the move a softmax policy picks (stochastic gradient ascent from medium's
weights): a better policy alone, a worse one in the playouts (docs/agents.md,
Wave 6). Both in plain Python, with a small ridge pulling towards medium
(weight 1 on medium's estimate, 0 elsewhere). It prints the holdout figures
(every 5th slice held out) and writes the weights module with the commands
that made it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chkobba.agents import Budget, Search  # noqa: E402
from chkobba.agents import chkobba as CK  # noqa: E402
from chkobba.agents.policy import FEATURES, N_FEATURES, learnt_playout, move_features  # noqa: E402
from chkobba.games.chkobba.state import PLAY  # noqa: E402
from chkobba.session import Session  # noqa: E402

DATA = ROOT / ".cache" / "selfplay"


def parse_slices(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def values_of(model: CK.ChkobbaModel, obs: Any, legal: list[Any], worlds: int, seed: int) -> list[float | None]:
    """Each legal move's value for the seat to act (None: not searched):
    the solver's exact round point difference in the last deal, else the
    mean over ``worlds`` sampled deals shared by every searched move."""
    ex = model.exact(obs, legal)
    if ex is not None:
        return [d for _, d in ex]
    k = min(len(legal), Budget().max_actions)
    search = Search(model, obs, legal, random.Random(seed), Budget(rollouts=worlds * k, ms=None, prune_z=1e12))
    search._solve = False   # noqa: SLF001 (the exact case is handled above)
    search.run()
    return [search.total[i] / search.n[i] if search.n[i] else None for i in range(len(legal))]


def collect_slice(gen: int, k: int, games: int, seed: int, worlds: int, share: float,
                  weights: list[float] | None, out: Path) -> int:
    model = CK.ChkobbaModel(playout=learnt_playout(weights) if gen > 0 else "medium")
    rows = 0
    tmp = out.with_suffix(".part")
    with tmp.open("w") as f:
        for g in range(games):
            game_seed = seed * 1_000_000 + k * 1000 + g
            s = Session.new("chkobba", {"players": 2}, seed=game_seed)
            rng = random.Random(game_seed)
            ply = 0
            while not s.is_over:
                seat = s.to_act()
                assert seat is not None
                obs = s.observation(seat)
                legal = [a for a in s.legal_actions() if a.kind != "timeout"]
                if obs.phase == PLAY and len(legal) > 1 and rng.random() < share:
                    vals = values_of(model, obs, legal, worlds, game_seed * 1000 + ply)
                    view = CK.View.of_obs(obs)
                    keep = [i for i, v in enumerate(vals) if v is not None]
                    f.write(json.dumps({
                        "game": game_seed, "ply": ply, "deck_left": obs.deck_left,
                        "exact": obs.deck_left == 0,
                        "moves": [str(legal[i]) for i in keep],
                        "q": [round(vals[i], 4) for i in keep],   # type: ignore[arg-type]
                        "f": [[round(x, 5) for x in move_features(view, legal[i])] for i in keep],
                    }) + "\n")
                    rows += 1
                a = CK.medium_choose(obs, legal, rng) if len(legal) > 1 else legal[0]
                s.apply(a)
                ply += 1
        f.write(json.dumps({"done": True, "slice": k, "games": games, "rows": rows, "gen": gen,
                            "seed": seed, "worlds": worlds, "features": list(FEATURES)}) + "\n")
    tmp.replace(out)
    return rows


def refeature(gen: int, share: float = 0.5) -> int:
    """Recompute the stored features of generation ``gen`` with the current
    ``move_features`` (after a change of features): the trajectories are
    replayed from their seeds (medium's play is deterministic given the game's
    rng), the values are kept."""
    n = 0
    for p in sorted((DATA / f"gen{gen}").glob("slice-*.jsonl")):
        lines = [json.loads(x) for x in p.read_text().splitlines()]
        by_game: dict[int, dict[int, dict[str, Any]]] = {}
        for r in lines:
            if "f" in r:
                by_game.setdefault(r["game"], {})[r["ply"]] = r
        for game_seed, want in by_game.items():
            s = Session.new("chkobba", {"players": 2}, seed=game_seed)
            rng = random.Random(game_seed)
            ply = 0
            last = max(want)
            while ply <= last:
                seat = s.to_act()
                assert seat is not None
                obs = s.observation(seat)
                legal = [a for a in s.legal_actions() if a.kind != "timeout"]
                if obs.phase == PLAY and len(legal) > 1:
                    rng.random()
                    if ply in want:
                        r = want[ply]
                        view = CK.View.of_obs(obs)
                        by_text = {str(a): a for a in legal}
                        r["f"] = [[round(x, 5) for x in move_features(view, by_text[m])] for m in r["moves"]]
                        n += 1
                a = CK.medium_choose(obs, legal, rng) if len(legal) > 1 else legal[0]
                s.apply(a)
                ply += 1
        for r in lines:
            if r.get("done"):
                r["features"] = list(FEATURES)
        p.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return n


def done(path: Path) -> bool:
    if not path.exists():
        return False
    lines = path.read_text().splitlines()
    return bool(lines) and json.loads(lines[-1]).get("done", False)


def load(gen: int, features: int = N_FEATURES) -> list[tuple[int, dict[str, Any]]]:
    rows: list[tuple[int, dict[str, Any]]] = []
    for p in sorted((DATA / f"gen{gen}").glob("slice-*.jsonl")):
        k = int(p.stem.split("-")[1])
        for line in p.read_text().splitlines():
            r = json.loads(line)
            if "f" in r and len(r["f"]) > 1 and len(r["f"][0]) == features:
                rows.append((k, r))
    return rows


def provenance(gens: list[int]) -> list[str]:
    """The collect commands that make the data of these generations (from the
    slices' ``done`` lines)."""
    out = []
    for g in gens:
        metas = []
        for p in sorted((DATA / f"gen{g}").glob("slice-*.jsonl")):
            lines = p.read_text().splitlines()
            if lines and json.loads(lines[-1]).get("done"):
                metas.append(json.loads(lines[-1]))
        if not metas:
            continue
        ks = sorted(m["slice"] for m in metas)
        spans: list[str] = []
        for k in ks:
            if spans and spans[-1].split("-")[-1] == str(k - 1):
                spans[-1] = f"{spans[-1].split('-')[0]}-{k}"
            else:
                spans.append(str(k))
        m = metas[0]
        extra = " --weights <the weights of generation %d>" % (g - 1) if g > 0 else ""
        out.append(f"python bench/learn_policy.py collect --gen {g} --slices {','.join(spans)} --games {m['games']} "
                   f"--seed {m['seed']} --worlds {m['worlds']}{extra}")
    return out


def centered(r: dict[str, Any]) -> tuple[list[list[float]], list[float]]:
    fs: list[list[float]] = r["f"]
    qs: list[float] = r["q"]
    m = len(qs)
    fm = [sum(f[j] for f in fs) / m for j in range(len(fs[0]))]
    qm = sum(qs) / m
    return [[x - y for x, y in zip(f, fm)] for f in fs], [q - qm for q in qs]


def solve(xtx: list[list[float]], xty: list[float]) -> list[float]:
    k = len(xty)
    m = [xtx[i][:] + [xty[i]] for i in range(k)]
    for c in range(k):   # Gauss-Jordan with partial pivoting
        p = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(k):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [m[r][j] - f * m[c][j] for j in range(k + 1)]
    return [m[i][k] / m[i][i] for i in range(k)]


def prior_weights() -> list[float]:
    return [1.0] + [0.0] * (N_FEATURES - 1)


def fit(rows: list[tuple[int, dict[str, Any]]], ridge: float) -> list[float]:
    """Ridge regression of centered values on centered features, towards medium."""
    k = N_FEATURES
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    w0 = prior_weights()
    for _, r in rows:
        xs, ys = centered(r)
        for x, y in zip(xs, ys):
            for i in range(k):
                xi = x[i]
                if xi:
                    xty[i] += xi * y
                    row = xtx[i]
                    for j in range(k):
                        row[j] += xi * x[j]
    # ridge towards medium: + ridge * |w - w0|^2 per decision
    n = max(1, len(rows))
    for i in range(k):
        xtx[i][i] += ridge * n / 100.0
        xty[i] += ridge * n / 100.0 * w0[i]
    return solve(xtx, xty)


def fit_choice(rows: list[tuple[int, dict[str, Any]]], ridge: float, temperature: float = 0.05,
               epochs: int = 3, rate: float = 0.003, seed: int = 1) -> list[float]:
    """Weights that maximize the mean value of the move the policy picks, made
    smooth: each move picked with probability softmax(score / temperature).
    Stochastic gradient ascent from medium's weights, one decision at a time
    in a seeded order each epoch (plain Python), with the ridge pulling
    towards medium's weights."""
    data = [centered(r) for _, r in rows]
    w0 = prior_weights()
    w = w0[:]
    k = N_FEATURES
    lam = ridge / 100.0
    order = list(range(len(data)))
    rng = random.Random(seed)
    for _ in range(epochs):
        rng.shuffle(order)
        for d in order:
            xs, ys = data[d]
            sc = [sum(a * b for a, b in zip(w, x)) / temperature for x in xs]
            top = max(sc)
            es = [pow(2.718281828459045, v - top) for v in sc]
            z = sum(es)
            ps = [e / z for e in es]
            v = sum(p * y for p, y in zip(ps, ys))
            fbar = [sum(p * x[j] for p, x in zip(ps, xs)) for j in range(k)]
            g = [0.0] * k
            for p, x, y in zip(ps, xs, ys):
                c = p * (y - v) / temperature
                if c:
                    for j in range(k):
                        g[j] += c * (x[j] - fbar[j])
            w = [wi + rate * (gi - lam * (wi - w0i)) for wi, gi, w0i in zip(w, g, w0)]
    return w


def errors(rows: list[tuple[int, dict[str, Any]]], w: list[float]) -> dict[str, float]:
    """Mean squared error of the centered values, the share of decisions whose
    policy pick is the best valued move, and the mean regret (value lost by the pick)."""
    se = 0.0
    cnt = 0
    top = 0
    regret = 0.0
    for _, r in rows:
        xs, ys = centered(r)
        preds = [sum(a * b for a, b in zip(w, x)) for x in xs]
        for p, y in zip(preds, ys):
            se += (p - y) ** 2
            cnt += 1
        pick = max(range(len(preds)), key=lambda i: preds[i])
        best = max(ys)
        top += ys[pick] >= best - 1e-9
        regret += best - ys[pick]
    n = max(1, len(rows))
    return {"mse": round(se / max(1, cnt), 4), "top": round(top / n, 4), "regret": round(regret / n, 4)}


WEIGHTS_FILE = ROOT / "chkobba" / "agents" / "policy_weights.py"


def write_weights(path: Path, w: list[float], command: str, note: str) -> None:
    import textwrap
    note = "\n".join(textwrap.wrap(note, 88))
    lines = ['"""Weights of the learnt Chkobba play policy (:mod:`chkobba.agents.policy`).', "",
             "Made by (from the repository root, after the README's set-up)::", "",
             f"    {command}", "", "(``python bench/learn_policy.py train`` runs both for the committed weights; the",
             "collection is resumable, data in .cache/selfplay/, about 4 CPU minutes.)", "", note, '"""', "", "WEIGHTS: tuple[float, ...] = ("]
    for name, x in zip(FEATURES, w):
        lines.append(f"    {x:.5f},   # {name}")
    lines.append(")")
    path.write_text("\n".join(lines) + "\n")


def cost(positions: int, seed: int) -> dict[str, Any]:
    """CPU time per playout (ms, ``time.process_time``: the machine's load does
    not count) of the medium and learnt playout policies, on the same sampled
    deals of positions met in medium games (both policies timed in turn at each
    position)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from positions import sessions_where  # tests/positions.py
    found = sessions_where(lambda o: o.phase == PLAY and o.deck_left > 0, positions, seed, {"players": 2}, share=0.3)
    models = {"medium": CK.ChkobbaModel(), "learnt": CK.ChkobbaModel(playout=learnt_playout())}
    per: dict[str, list[float]] = {name: [] for name in models}
    for i, sess in enumerate(found):
        seat = sess.to_act()
        assert seat is not None
        obs = sess.observation(seat)
        legal = [a for a in sess.legal_actions() if a.kind != "timeout"]
        for name, model in models.items():
            worlds = [model.determinize(obs, random.Random(i * 100 + j)) for j in range(20)]
            t = time.process_time()
            for j, s in enumerate(worlds):
                s.play(legal[j % len(legal)])
                model.rollout(s, seat & 1, random.Random(j))
            per[name].append((time.process_time() - t) * 1000.0 / 20)
    out: dict[str, Any] = {name: {"positions": len(v), "playout_median_ms": round(statistics.median(v), 3),
                                  "playout_mean_ms": round(statistics.fmean(v), 3)} for name, v in per.items()}
    # whole decisions of hard (the page's 600 rollouts, no time cap), CPU time
    for name, model in models.items():
        ms: list[float] = []
        for i, sess in enumerate(found):
            seat = sess.to_act()
            assert seat is not None
            obs = sess.observation(seat)
            legal = [a for a in sess.legal_actions() if a.kind != "timeout"]
            t = time.process_time()
            Search(model, obs, legal, random.Random(i), Budget(rollouts=600, ms=None)).run()
            ms.append((time.process_time() - t) * 1000.0)
        ms.sort()
        out[name].update(decision_median_ms=round(statistics.median(ms), 1),
                         decision_p95_ms=round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1),
                         decision_max_ms=round(ms[-1], 1))
    return out


def screen(a: str, b: str, games: int, seed: int, log: Path, options: dict[str, Any]) -> dict[str, Any]:
    """``bench/hard_variants.py``'s duplicate games (same deals, same agents),
    one game at a time, each appended to ``log`` as it ends: a stopped run
    goes on from the games the log has. The summary covers the complete deal
    pairs of the log."""
    import hard_variants as HV  # noqa: E402  (bench/ is the script's folder)
    from chkobba.cli import arena
    from vs_revision import paired_ci, paired_margin
    from chkobba.agents import MediumAgent
    from chkobba.agents.policy import learnt_choose

    class PolicyAgent(MediumAgent):   # the learnt policy alone, no search
        def __init__(self) -> None:
            super().__init__("chkobba")
            self.level = "policy"
            self._policy = learnt_choose
    HV.VARIANTS.setdefault("medium", lambda: MediumAgent("chkobba"))
    HV.VARIANTS.setdefault("policy", PolicyAgent)
    arena._agent = HV._agent   # noqa: SLF001 (the arena builds the variants)
    setup = arena.Setup("chkobba", {"players": 2, **options}, a, b, seed)
    have = {}
    if log.exists():
        for line in log.read_text().splitlines():
            r = json.loads(line)
            have[r["index"]] = r
    with log.open("a") as f:
        for i in range(games + games % 2):
            if i in have:
                continue
            res = arena.play_game(setup, i)
            r = {"index": i, "pair": i // 2, "winner": res.winner, "a_points": res.a_points,
                 "b_points": res.b_points, "rounds": res.rounds, "a_ms": res.a_ms, "b_ms": res.b_ms,
                 "a": a, "b": b, "seed": seed}
            f.write(json.dumps(r) + "\n")
            f.flush()
            have[i] = r
    rows = [have[i] for i in sorted(have)]
    a_ms = [x for r in rows for x in r["a_ms"]]
    b_ms = [x for r in rows for x in r["b_ms"]]
    return {"a": a, "b": b, "seed": seed, "games": len(rows),
            "a_wins": sum(1 for r in rows if r["winner"] == "a"), "b_wins": sum(1 for r in rows if r["winner"] == "b"),
            "a_share_over_pairs": [round(x, 4) for x in paired_ci(rows)],
            "a_margin_per_round_over_pairs": [round(x, 4) for x in paired_margin(rows)],
            "a_decision_ms": arena.decision_stats(a_ms) if a_ms else None,
            "b_decision_ms": arena.decision_stats(b_ms) if b_ms else None}


def main(argv: list[str] | None = None) -> None:
    global DATA
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data = argparse.ArgumentParser(add_help=False)
    data.add_argument("--data", help=f"where the self-play data is (default {DATA.relative_to(ROOT)}/)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", parents=[data])
    c.add_argument("--gen", type=int, default=0)
    c.add_argument("--slices", default="0")
    c.add_argument("--games", type=int, default=12, help="games per slice")
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--worlds", type=int, default=24, help="sampled deals per searched move")
    c.add_argument("--share", type=float, default=0.5, help="share of play decisions valued")
    c.add_argument("--weights", help="a weights module (.py) for the playouts of gen > 0 (default: the committed ones)")
    f = sub.add_parser("fit", parents=[data])
    f.add_argument("--gen", default="0", help="generation(s) of data, e.g. 0 or 0,1")
    f.add_argument("--ridge", type=float, default=1.0)
    f.add_argument("--objective", choices=("values", "choice"), default="values",
                   help="values: least squares on every move's value; choice: the value of the picked move")
    f.add_argument("--write", help="write the weights module here")
    f.add_argument("--out", help="also write the weights as JSON here")
    r = sub.add_parser("refeature", parents=[data], help="recompute the stored features after a change of features")
    r.add_argument("--gen", type=int, default=0)
    t = sub.add_parser("train", parents=[data], help="rebuild the committed weights (collect generation 0, slices 0-15, then fit)")
    t.add_argument("--slices", default="0-15", help="slices of generation 0 to collect and fit on")
    t.add_argument("--games", type=int, default=12, help="games per slice")
    t.add_argument("--worlds", type=int, default=24, help="sampled deals per searched move")
    t.add_argument("--write", default=str(WEIGHTS_FILE.relative_to(ROOT)), help="the weights module written")
    sc = sub.add_parser("screen", help="hard_variants.py's duplicate games, resumable (one game per log line)")
    sc.add_argument("--a", default="learnt")
    sc.add_argument("--b", default="hard")
    sc.add_argument("--games", type=int, default=100)
    sc.add_argument("--seed", type=int, default=1)
    sc.add_argument("--log", required=True)
    sc.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    k = sub.add_parser("cost")
    k.add_argument("--positions", type=int, default=100)
    k.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if getattr(args, "data", None):
        DATA = Path(args.data).resolve()
    if args.cmd == "collect":
        weights = None
        if args.weights:
            ns: dict[str, Any] = {}
            exec(Path(args.weights).read_text(), ns)
            weights = list(ns["WEIGHTS"])
        d = DATA / f"gen{args.gen}"
        d.mkdir(parents=True, exist_ok=True)
        for sl in parse_slices(args.slices):
            out = d / f"slice-{sl}.jsonl"
            if done(out):
                continue
            t0 = time.perf_counter()
            n = collect_slice(args.gen, sl, args.games, args.seed, args.worlds, args.share, weights, out)
            print(json.dumps({"slice": sl, "rows": n, "seconds": round(time.perf_counter() - t0)}), flush=True)
        return
    if args.cmd == "train":
        # the defaults make the committed weights; --slices/--games/--worlds/--data/--write
        # a smaller run of the same steps (tests/test_learn_policy.py runs a tiny one)
        d = DATA / "gen0"
        d.mkdir(parents=True, exist_ok=True)
        for sl in parse_slices(args.slices):
            out = d / f"slice-{sl}.jsonl"
            if not done(out):
                n = collect_slice(0, sl, args.games, 1, args.worlds, 0.5, None, out)
                print(json.dumps({"slice": sl, "rows": n}), flush=True)
        args = argparse.Namespace(cmd="fit", gen="0", ridge=1.0, objective="values", out=None, write=args.write)
    if args.cmd == "refeature":
        print(json.dumps({"decisions": refeature(args.gen)}))
        return
    if args.cmd == "screen":
        from chkobba.cli.arena import option_value
        opts = {kv.partition("=")[0]: option_value(kv.partition("=")[2]) for kv in args.option}
        print(json.dumps(screen(args.a, args.b, args.games, args.seed, Path(args.log), opts)))
        return
    if args.cmd == "cost":
        print(json.dumps(cost(args.positions, args.seed)))
        return
    rows: list[tuple[int, dict[str, Any]]] = []
    for g in parse_slices(args.gen):
        rows += load(g)
    train = [r for r in rows if r[0] % 5 != 4]
    hold = [r for r in rows if r[0] % 5 == 4] or rows
    fitter = fit if args.objective == "values" else fit_choice
    w = fitter(train, args.ridge)
    report = {"decisions": len(rows), "train": len(train), "holdout": len(hold),
              "holdout_medium": errors(hold, prior_weights()), "holdout_learnt": errors(hold, w),
              "weights": {n: round(x, 4) for n, x in zip(FEATURES, w)}}
    print(json.dumps(report))
    if args.write:
        wall = fitter(rows, args.ridge)   # the committed weights use every decision
        note = (f"Fitted on {len(rows)} decisions (generation(s) {args.gen}); holdout (every 5th slice, "
                f"fitted without it): squared error {report['holdout_medium']['mse']} (medium) -> "
                f"{report['holdout_learnt']['mse']}, best move picked {report['holdout_medium']['top']} -> "
                f"{report['holdout_learnt']['top']}.")
        cmds = provenance(parse_slices(args.gen))
        cmds.append(f"python bench/learn_policy.py fit --gen {args.gen} --ridge {args.ridge} --objective {args.objective} --write {args.write}")
        dest = Path(args.write)
        write_weights(dest if dest.is_absolute() else ROOT / dest, wall, "\n    ".join(cmds), note)
    if args.out:
        Path(args.out).write_text(json.dumps(w))


if __name__ == "__main__":
    main()
