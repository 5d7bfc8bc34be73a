#!/usr/bin/env python3
"""How good are Seven Diamonds' calls? (issue 26, docs/agents.md "Wave 7")

    nice -n 19 python bench/seven_calls.py measure --deals 60 --seed 1 --worlds 400 --log calls.jsonl
    python bench/seven_calls.py summary calls.jsonl

``measure`` deals rounds (``Session.new("seven_diamonds", seed=seed * 1000 + d)``)
and lets hard at the page's budget (300 rollouts, no time cap) speak for every
seat, as it does in a game. At each call with a choice it records:

* medium's call (``medium_call``, the hand-strength rule that the playouts use
  for every seat, and hard's prior);
* hard's call at 300 rollouts (with its rng, as in a game);
* a reference value of every legal call: the same model (sampled deals,
  medium playouts to the end of the round, exact endings from 16 cards) with
  ``--worlds`` sampled deals for every call, all calls on the same deals, no
  pruning; and the paired standard error of each call's difference from the
  reference's best.

One JSON line a decision (resumable: a deal already in the log is skipped).
``summary`` prints how often medium's and hard's calls match the reference's
best and what they lose against it (mean regret in round points), over all
decisions and over the decisive ones (the reference's best ahead by more than
two standard errors), split by the call's kind.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chkobba.actions import DOUBLE, PASS, TIMEOUT, TRIPLE  # noqa: E402
from chkobba.agents import Budget, Search  # noqa: E402
from chkobba.agents.seven_diamonds import SevenModel, hand_strength, medium_call  # noqa: E402
from chkobba.games.seven_diamonds.constants import CALLS, SEVEN_OF_DIAMONDS, SEVENS, points_of, speaking_order  # noqa: E402
from chkobba.games.seven_diamonds.state import seven_diamonds_state  # noqa: E402
from chkobba.games.seven_diamonds.observation import SevenDiamondsObservation  # noqa: E402
from chkobba.session import Session  # noqa: E402

PAGE = Budget(rollouts=300)
TRUE_PLAYOUTS = 20


def hand_facts(hand: int) -> dict[str, Any]:
    """What a calls model may look at in a hand (the seat's own cards)."""
    return {"strength": round(hand_strength(hand), 3), "sevens": (hand & SEVENS).bit_count(),
            "seven_d": bool((hand >> SEVEN_OF_DIAMONDS) & 1), "points": points_of(hand)}


def measure_deal(seed: int, deal: int, worlds: int, model: SevenModel) -> list[dict[str, Any]]:
    session = Session.new("seven_diamonds", {}, seed=seed * 1000 + deal, first_dealer=deal % 4)
    rows: list[dict[str, Any]] = []
    while seven_diamonds_state(session.state).phase == CALLS:
        seat = session.to_act()
        assert seat is not None
        obs = session.observation(seat)
        assert isinstance(obs, SevenDiamondsObservation)
        legal = [a for a in session.legal_actions() if a.kind != TIMEOUT]
        rng = random.Random(f"{seed}/{deal}/{seat}")
        if len(legal) == 1:
            session.apply(legal[0])
            continue
        t0 = time.process_time()
        hard = Search(model, obs, legal, rng, PAGE)
        pick = hard.run()
        hard_ms = (time.process_time() - t0) * 1000.0
        ref = Search(model, obs, legal, random.Random(f"ref/{seed}/{deal}/{seat}"),
                     Budget(rollouts=worlds * len(legal), prune_z=1e9, max_actions=len(legal)))
        ref.run()
        means = [sum(v) / len(v) for v in ref.values]
        best = max(range(len(legal)), key=lambda i: means[i])
        ses = []
        for i in range(len(legal)):
            d = [x - y for x, y in zip(ref.values[best], ref.values[i])]
            m = sum(d) / len(d)
            var = sum((x - m) ** 2 for x in d) / max(1, len(d) - 1)
            ses.append(math.sqrt(var / len(d)))
        # the value of each call on the true deal (the hidden hands as dealt; medium
        # playouts): one deal per decision, so noisy per decision, but its mean over
        # many decisions is an unbiased value of a calls rule (the sampled deals of
        # the model ignore what the calls so far say about the hands; these do not)
        truth = []
        for a in legal:
            tot = 0.0
            for k in range(TRUE_PLAYOUTS):
                st = session.state.copy()
                st.play(a)
                tot += model.rollout(st, seat & 1, random.Random(f"true/{seed}/{deal}/{k}"))
            truth.append(round(tot / TRUE_PLAYOUTS, 2))
        rows.append({"seed": seed, "deal": deal, "seat": seat,
                     "order": speaking_order(obs.dealer).index(seat), "multiplier": obs.multiplier,
                     "doubler_team": -1 if obs.doubler < 0 else obs.doubler & 1, "team": seat & 1,
                     **hand_facts(obs.hand),
                     "legal": [a.kind for a in legal], "ref": [round(x, 2) for x in means],
                     "ref_se": [round(x, 2) for x in ses], "truth": truth, "worlds": ref.worlds,
                     "medium": medium_call(obs.hand, legal).kind, "hard": pick.kind,
                     "hard_ms": round(hard_ms, 1)})
        session.apply(pick)
    return rows


def compare_deal(seed: int, deal: int, base: SevenModel, new: SevenModel) -> list[dict[str, Any]]:
    """Hard's calls with ``base`` (which speaks for every seat, as in a game)
    and with ``new`` at each call with a choice, and the value of every legal
    call on the true deal: the later seats call as the calls model says hard
    does (``model_call``), everybody plays medium, 20 playouts a call."""
    session = Session.new("seven_diamonds", {}, seed=seed * 1000 + deal, first_dealer=deal % 4)
    truth_model = SevenModel(calls_model=True)
    rows: list[dict[str, Any]] = []
    while seven_diamonds_state(session.state).phase == CALLS:
        seat = session.to_act()
        assert seat is not None
        obs = session.observation(seat)
        legal = [a for a in session.legal_actions() if a.kind != TIMEOUT]
        if len(legal) == 1:
            session.apply(legal[0])
            continue
        pick = Search(base, obs, legal, random.Random(f"{seed}/{deal}/{seat}"), PAGE).run()
        other = Search(new, obs, legal, random.Random(f"{seed}/{deal}/{seat}"), PAGE).run()
        truth = []
        for a in legal:
            tot = 0.0
            for k in range(TRUE_PLAYOUTS):
                st = session.state.copy()
                st.play(a)
                tot += truth_model.rollout(st, seat & 1, random.Random(f"true/{seed}/{deal}/{k}"))
            truth.append(round(tot / TRUE_PLAYOUTS, 2))
        rows.append({"seed": seed, "deal": deal, "seat": seat, "legal": [a.kind for a in legal],
                     "base": pick.kind, "new": other.kind, "truth": truth})
        session.apply(pick)
    return rows


def compare_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"decisions": len(rows)}
    for kind in ("all", DOUBLE, TRIPLE):
        sel = [r for r in rows if kind == "all" or kind in r["legal"]]
        d = [r["truth"][r["legal"].index(r["new"])] - r["truth"][r["legal"].index(r["base"])] for r in sel]
        if not d:
            continue
        m = sum(d) / len(d)
        sd = math.sqrt(sum((x - m) ** 2 for x in d) / max(1, len(d) - 1))
        h = 1.96 * sd / math.sqrt(len(d))
        out[kind] = {"decisions": len(sel), "differ": sum(1 for r in sel if r["new"] != r["base"]),
                     "new_minus_base_per_decision": [round(m, 2), round(m - h, 2), round(m + h, 2)],
                     "calls_base": sum(1 for r in sel if r["base"] != PASS),
                     "calls_new": sum(1 for r in sel if r["new"] != PASS)}
    return out


def summary(path: Path) -> dict[str, Any]:
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    out: dict[str, Any] = {"decisions": len(rows), "deals": len({(r["seed"], r["deal"]) for r in rows})}

    def stats(sel: list[dict[str, Any]]) -> dict[str, Any]:
        res: dict[str, Any] = {"n": len(sel)}
        if not sel:
            return res
        for who in ("medium", "hard"):
            regrets = []
            hit = 0
            for r in sel:
                i = r["legal"].index(r[who])
                top = max(r["ref"])
                regrets.append(top - r["ref"][i])
                hit += r["ref"][i] == top
            m = sum(regrets) / len(regrets)
            sd = math.sqrt(sum((x - m) ** 2 for x in regrets) / max(1, len(regrets) - 1))
            res[who] = {"matches_best": round(hit / len(sel), 3), "regret": round(m, 2),
                        "regret_ci": [round(m - 1.96 * sd / math.sqrt(len(sel)), 2),
                                      round(m + 1.96 * sd / math.sqrt(len(sel)), 2)]}
        return res

    def decisive(r: dict[str, Any]) -> bool:
        top = max(r["ref"])
        return all(x == top or top - x > 2 * s for x, s in zip(r["ref"], r["ref_se"]))

    out["all"] = stats(rows)
    out["decisive"] = stats([r for r in rows if decisive(r)])
    for kinds in (("pass", "double"), ("pass", "triple")):
        out["choice " + "/".join(kinds)] = stats([r for r in rows if tuple(r["legal"]) == kinds])
    best_kind: dict[str, int] = {}
    for r in rows:
        k = r["legal"][max(range(len(r["ref"])), key=lambda i: r["ref"][i])]
        best_kind[k] = best_kind.get(k, 0) + 1
    out["reference_best"] = best_kind
    out["hard_calls"] = {k: sum(1 for r in rows if r["hard"] == k) for k in ("pass", "double", "triple")}
    out["medium_calls"] = {k: sum(1 for r in rows if r["medium"] == k) for k in ("pass", "double", "triple")}
    ms = sorted(r["hard_ms"] for r in rows)
    out["hard_cpu_ms_median"] = ms[len(ms) // 2] if ms else None
    return out


def logistic(xs: list[list[float]], ys: list[bool], ridge: float = 1e-3, steps: int = 30) -> list[float]:
    """Maximum likelihood logistic regression (Newton's method, a small ridge)."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(steps):
        g = [-ridge * w[i] for i in range(k)]
        h = [[ridge * (i == j) for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys):
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, x))))
            for i in range(k):
                g[i] += (y - p) * x[i]
                for j in range(k):
                    h[i][j] += p * (1 - p) * x[i] * x[j]
        m = [h[i] + [g[i]] for i in range(k)]
        for c in range(k):   # Gauss-Jordan with partial pivoting
            piv = max(range(c, k), key=lambda r: abs(m[r][c]))
            m[c], m[piv] = m[piv], m[c]
            for r in range(k):
                if r != c:
                    f = m[r][c] / m[c][c]
                    m[r] = [m[r][j] - f * m[c][j] for j in range(k + 1)]
        w = [w[i] + m[i][k] / m[i][i] for i in range(k)]
    return w


def fit(paths: list[Path]) -> dict[str, Any]:
    """Hard's calls as logistic models of the hand (``call_features``): the
    chance it doubles when it may, and triples when it may."""
    rows = [json.loads(x) for p in paths for x in p.read_text().splitlines() if x.strip()]
    out: dict[str, Any] = {}
    for kind in (DOUBLE, TRIPLE):
        sel = [r for r in rows if kind in r["legal"]]
        xs = [[1.0, r["strength"], float(r["sevens"]), float(r["seven_d"]), r["points"] / 100.0] for r in sel]
        ys = [r["hard"] == kind for r in sel]
        w = logistic(xs, ys)
        base = sum(ys) / len(ys)
        ll0 = base * math.log(base) + (1 - base) * math.log(1 - base)
        ll = 0.0
        hit = 0
        for x, y in zip(xs, ys):
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, x))))
            ll += math.log(p if y else 1 - p)
            hit += (p >= 0.5) == y
        out[kind] = {"decisions": len(sel), "rate": round(base, 3), "weights": [round(v, 3) for v in w],
                     "log_likelihood": [round(ll0, 3), round(ll / len(sel), 3)], "predicted": round(hit / len(sel), 3)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--deals", type=int, default=60)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--worlds", type=int, default=400)
    m.add_argument("--log", type=Path, required=True)
    s = sub.add_parser("summary")
    s.add_argument("log", type=Path)
    c = sub.add_parser("compare", help="hard's calls with the calls model against without, on true deals")
    c.add_argument("--deals", type=int, default=100)
    c.add_argument("--seed", type=int, default=2)
    c.add_argument("--log", type=Path, required=True)
    f = sub.add_parser("fit", help="fit the calls model to hard's calls in the logs")
    f.add_argument("logs", type=Path, nargs="+")
    args = ap.parse_args()
    if args.cmd == "fit":
        print(json.dumps(fit(args.logs), indent=1))
        return
    if args.cmd == "compare":
        have = [json.loads(x) for x in args.log.read_text().splitlines() if x.strip()] if args.log.exists() else []
        seen = {(r["seed"], r["deal"]) for r in have}
        base, new = SevenModel(), SevenModel(calls_model=True)
        for d in range(args.deals):
            if (args.seed, d) in seen:
                continue
            rows = compare_deal(args.seed, d, base, new)
            have += rows
            with args.log.open("a") as fh:
                for r in rows:
                    fh.write(json.dumps(r) + "\n")
            print(f"deal {d}: {len(rows)} calls", file=sys.stderr, flush=True)
        print(json.dumps(compare_summary(have), indent=1))
        return
    if args.cmd == "summary":
        print(json.dumps(summary(args.log), indent=1))
        return
    done = set()
    if args.log.exists():
        done = {(r["seed"], r["deal"]) for r in map(json.loads, args.log.read_text().splitlines()) if r}
    model = SevenModel()
    for d in range(args.deals):
        if (args.seed, d) in done:
            continue
        t0 = time.perf_counter()
        rows = measure_deal(args.seed, d, args.worlds, model)
        with args.log.open("a") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
        print(f"deal {d}: {len(rows)} calls, {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
