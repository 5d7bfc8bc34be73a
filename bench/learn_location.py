#!/usr/bin/env python3
"""A learnt card-location model for two-player Chkobba: where are the cards
the seat to act cannot see?

    python bench/learn_location.py data --games 3000 --slice 100 --seed 1 --out /work/runs/location/medium [--level hard]
    python bench/learn_location.py train --data DIR [DIR ...] --out weights.json [--share 0.3 [0.3 ...]] [--l2 1.0]
    python bench/learn_location.py eval --data DIR --weights weights.json [more.json ...] [--share 0.3] [--sampler-every 5] [--samples 1000]

``data`` plays self-play games (default options, two players; medium against
medium, or hard against hard at 600 rollouts with ``--level hard``) and
writes, for every decision in play with the deck not empty and the other
hand not empty, what the seat to act sees (the round's actions so far, the
table, its hand, the piles and their sizes, the counts, the score, the
options) and the other player's true hand. Game ``g`` is dealt and played
from seed ``seed * 1_000_003 + g``; games ``[i*K, (i+1)*K)`` form slice ``i``,
one JSONL file each (``slice-0007.jsonl``: a line per game holding its record
and its positions), written whole or not at all; a slice already written is
skipped, so a stopped run goes on where it stopped and gives the same files.

``train`` rebuilds each position's observation from its game's record (the
features read only the observation: nothing hidden), computes the features of
each unseen card (:func:`features`) and fits a logistic regression with L2
(pure Python, L-BFGS) on the train slices (every slice but each
``--holdout``-th) of each ``--data`` directory, pooled (``--share`` once for
all or once each). It writes the weights, the feature names and the data's
commands and seeds as JSON. Beside the per-card counts, the features pair
facts a strong player reads together (``PAIRS``): a lay while this value
could capture, by value, by single or sum capture, by what it would have
taken; those counts times the same-value cards unseen or on the last card
held; the sevens and the seven of diamonds with the sevens left, the piles'
lead and the score; hard's sampler's evidence by hand size. Weights without
a feature read it as zero.

``eval`` scores the held-out slices (index ``% holdout == holdout - 1``): the
mean log loss per unseen card (natural log) of uniform (k / n), of the model
(its probabilities shifted by one logit per position so they sum to k, the
cards in the other hand) and, on one position in ``--sampler-every`` (drawn), of hard's
weighted sampler (``ChkobbaModel().determinize``, marginals over
``--samples`` draws: bench/card_location.py), with 95% intervals over
positions (and, below the table, over games: a game's positions are not
independent); a markdown table like docs/agents.md's for each ``--weights``
file, all on the same positions and sampler draws.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from chkobba import cards as C  # noqa: E402
from chkobba.actions import CAPTURE, CLAIM, LAY, WORDS  # noqa: E402
from chkobba.agents import Budget, HardAgent, make_agent  # noqa: E402
from chkobba.agents import chkobba as CK  # noqa: E402
from chkobba.agents import inference as INF  # noqa: E402
from chkobba.agents.inference import Evidence  # noqa: E402
from chkobba.games.chkobba.observation import ChkobbaObservation  # noqa: E402
from chkobba.games.chkobba.state import HAYA_BIT, PLAY, VALUES, captures_on, chkobba_state  # noqa: E402
from chkobba.session import Session  # noqa: E402

SEED_STRIDE = 1_000_003

# ------------------------------------------------------------------ data


def game_seed(seed: int, g: int) -> int:
    return seed * SEED_STRIDE + g


def public_facts(obs: ChkobbaObservation) -> dict[str, Any]:
    """What the seat to act sees, as JSON (the observation itself is rebuilt
    from the game's record: see :func:`observation_at`)."""
    return {"round": obs.round_index + 1, "ply": len(obs.history), "seat": obs.seat, "dealer": obs.dealer,
            "history": [str(a) for a in obs.history], "table": C.codes(obs.table), "hand": C.codes(obs.hand),
            "piles": [C.codes(C.cards_of(p)) for p in obs.piles], "pile_sizes": [p.bit_count() for p in obs.piles],
            "hand_counts": list(obs.hand_counts), "deck_left": obs.deck_left, "score": list(obs.score)}


def play_game(seed: int, g: int, level: str) -> dict[str, Any]:
    """One self-play game and its positions (play, deck not empty, the other
    hand not empty), each with the other hand's true cards."""
    if level == "hard":
        player: Any = HardAgent("chkobba", Budget(rollouts=600))   # no time cap: deterministic
    else:
        player = make_agent("chkobba", level)
    s = Session.new("chkobba", {"players": 2}, seed=game_seed(seed, g))
    rng = random.Random(game_seed(seed, g))
    found: list[dict[str, Any]] = []
    while not s.is_over:
        seat = s.to_act()
        assert seat is not None
        obs = s.observation(seat)
        assert isinstance(obs, ChkobbaObservation)
        legal = obs.legal_actions()
        if obs.phase == PLAY and obs.deck_left > 0 and obs.hand_counts[1 - seat] > 0:
            row = public_facts(obs)
            row["other"] = C.codes(sorted(chkobba_state(s.state).hands[1 - seat]))
            found.append(row)
        s.apply(player.choose(obs, legal, rng))
    return {"game": g, "seed": s.seed, "record": s.record(), "positions": found}


def slice_path(out: Path, i: int) -> Path:
    return out / f"slice-{i:04d}.jsonl"


def cmd_data(args: argparse.Namespace) -> None:
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    meta = {"command": "python bench/learn_location.py " + " ".join(sys.argv[1:]), "seed": args.seed,
            "level": args.level, "slice": args.slice, "options": {"players": 2}}
    mpath = out / "meta.json"
    if mpath.exists():
        old = json.loads(mpath.read_text())
        if (old["seed"], old["level"], old["slice"]) != (args.seed, args.level, args.slice):
            sys.exit(f"{out} holds data of another seed, level or slice size: {old['command']}")
    else:
        mpath.write_text(json.dumps(meta) + "\n")
    slices = (args.games + args.slice - 1) // args.slice
    t0 = time.process_time()
    for i in range(slices):
        path = slice_path(out, i)
        if path.exists():
            continue
        tmp = path.with_suffix(".tmp")
        with tmp.open("w") as f:
            for g in range(i * args.slice, min((i + 1) * args.slice, args.games)):
                f.write(json.dumps(play_game(args.seed, g, args.level), separators=(",", ":")) + "\n")
        os.replace(tmp, path)
        print(json.dumps({"slice": i, "cpu_seconds": round(time.process_time() - t0, 1)}), flush=True)


def games_of(data: Path, which: str, holdout: int) -> Iterator[dict[str, Any]]:
    """The games of the train (``which="train"``) or held-out slices."""
    for path in sorted(data.glob("slice-*.jsonl")):
        i = int(path.stem.split("-")[1])
        held = i % holdout == holdout - 1
        if held == (which == "eval"):
            with path.open() as f:
                for line in f:
                    yield json.loads(line)


def observation_at(game: dict[str, Any], pos: dict[str, Any]) -> ChkobbaObservation:
    """The observation of the seat to act at ``pos``, rebuilt from the game's
    record (checked against the facts stored with it)."""
    s = Session.from_record(game["record"], seed=game["seed"], at=(pos["round"], pos["ply"]))
    obs = s.observation(pos["seat"])
    assert isinstance(obs, ChkobbaObservation)
    assert C.codes(obs.hand) == pos["hand"] and C.codes(obs.table) == pos["table"], "record and position disagree"
    return obs


# -------------------------------------------------------------- features

VALUE_NAMES = [f"value_{v}" for v in range(1, 11)]
SUIT_NAMES = [f"suit_{s}" for s in C.SUITS]
FEATURES = (["bias", "prior_logit", "other_k", "plays_into_hand", "deck_left"] + VALUE_NAMES + SUIT_NAMES
            + ["seven_diamonds", "same_value_unseen_1", "same_value_unseen_2",
               "same_value_unseen_3", "same_value_unseen_4", "laid_when_could_capture", "captured_what_it_could",
               "passed_up_capture", "passed_up_sweep", "passed_up_seven_diamonds", "played_same_value",
               "medium_log_weight"])
# interactions: what a strong player reads from several facts at once
PAIRS = (["k_1", "k_2", "lay_could_single", "lay_could_sum", "lay_could_more_cards", "lay_could_points",
          "passed_up_more_cards", "passed_up_points", "last_play_laid_when_could_capture"]
         + [f"lay_could_value_{v}" for v in range(1, 11)]
         + ["lay_could_x_same_unseen", "passed_up_x_same_unseen", "played_same_x_same_unseen",
            "lay_could_x_k_1", "passed_up_x_k_1", "medium_log_weight_x_k_1", "medium_log_weight_x_plays",
            "medium_log_weight_min", "seven_x_sevens_unseen", "seven_x_sevens_lead", "seven_x_plays",
            "seven_diamonds_x_plays", "seven_diamonds_x_score_lead", "seven_x_score_lead",
            "diamond_x_diamonds_lead", "diamond_x_plays", "deck_left_x_plays"])
# hard's sampler's evidence again with a colder and a warmer player model
TEMPERATURES = {"sampler_log_weight_cold": 0.15, "sampler_log_weight_warm": 1.2}
FEATURES += PAIRS + list(TEMPERATURES)
INDEX = {n: i for i, n in enumerate(FEATURES)}
SEVEN_VALUE = 7


def _points(cards: Any, values: Any) -> float:
    """A rough worth of taking ``cards``: the cards, the sevens, the
    diamonds and the seven of diamonds again (the round's counts)."""
    return sum(1.0 + (values[x] == SEVEN_VALUE) + (C.suit_of(x) == C.DIAMOND) + 2.0 * bool((1 << x) & HAYA_BIT)
               for x in cards)


def other_plays(obs: ChkobbaObservation) -> list[Any]:
    """The other seat's card plays (lays and captures, not claims) of its
    current hand of three, in order: the cards it holds now were all in its
    hand at each of them."""
    hist = list(obs.history)
    start = max((i + 1 for i, a in enumerate(hist) if a.kind in WORDS), default=0)
    seat = (obs.dealer + 1) % obs.players   # the cutter plays first; a claimer plays next
    mine: list[Any] = []
    other = 1 - obs.seat
    for a in hist[start:]:
        if a.kind != CLAIM:
            if seat == other:
                mine.append(a)
            seat = (seat + 1) % obs.players
    n = 3 - obs.hand_counts[other]
    return mine[len(mine) - n:] if n else []


def evidence_at(obs: ChkobbaObservation, temperature: float) -> Evidence:
    """hard's sampler's evidence with its player model at another temperature
    (:class:`Evidence` reads the module's TEMPERATURE when it is built)."""
    old = INF.TEMPERATURE
    INF.TEMPERATURE = temperature
    try:
        return Evidence(obs, CK.View, CK.score_action)
    finally:
        INF.TEMPERATURE = old


def features(obs: ChkobbaObservation) -> dict[int, list[tuple[int, float]]]:
    """For each card ``obs``'s seat cannot see, its features (sparse: pairs of
    an index into FEATURES and a value) as evidence that it is in the other
    player's hand (two players, in play). The counts are over the other
    player's plays of its current hand of three (it held the card then, if it
    holds it now); ``medium_log_weight`` is hard's sampler's own evidence for
    the card alone: the sum over those plays of log(K_i / (K_i + e_i(c))),
    chkobba/agents/inference.py."""
    other = 1 - obs.seat
    values = VALUES[obs.options.faces]
    unseen = C.cards_of(obs.unseen_mask())
    n = len(unseen)
    k = obs.hand_counts[other]
    plays = other_plays(obs)
    ev = Evidence(obs, CK.View, CK.score_action)
    moves = [(a, t, m) for a, t, m in zip(plays, ev.tables, ev.moves)] if len(ev.moves) == len(plays) else []
    other_t = {name: evidence_at(obs, t).moves for name, t in TEMPERATURES.items()} if moves else {}
    by_value = [0] * 11
    for c in unseen:
        by_value[values[c]] += 1
    prior = math.log(k / (n - k)) if 0 < k < n else 0.0
    # the other side's lead in the round's counts (cards, sevens, diamonds) and in the game's score
    me, them = (C.cards_of(obs.piles[side]) for side in (obs.seat, other))
    lead = [len(them) - len(me), sum(values[x] == SEVEN_VALUE for x in them) - sum(values[x] == SEVEN_VALUE for x in me),
            sum(C.suit_of(x) == C.DIAMOND for x in them) - sum(C.suit_of(x) == C.DIAMOND for x in me)]
    score_lead = (obs.score[other] - obs.score[obs.seat]) / 10.0
    out: dict[int, list[tuple[int, float]]] = {}
    for c in unseen:
        v = values[c]
        f: dict[int, float] = {INDEX["bias"]: 1.0, INDEX["prior_logit"]: prior, INDEX["other_k"]: float(k),
                               INDEX["plays_into_hand"]: float(3 - k), INDEX["deck_left"]: obs.deck_left / 30.0,
                               INDEX[f"value_{v}"]: 1.0, INDEX["suit_" + C.SUITS[C.suit_of(c)]]: 1.0,
                               INDEX[f"same_value_unseen_{min(by_value[v], 4)}"]: 1.0}
        if (1 << c) & HAYA_BIT:   # (a seven: value_7; a diamond: suit_D)
            f[INDEX["seven_diamonds"]] = 1.0
        counts = dict.fromkeys(("laid_when_could_capture", "captured_what_it_could", "passed_up_capture",
                                "passed_up_sweep", "passed_up_seven_diamonds", "played_same_value",
                                "lay_could_single", "lay_could_sum", "lay_could_more_cards", "lay_could_points",
                                "passed_up_more_cards", "passed_up_points", "last_play_laid_when_could_capture"), 0)
        log_w = 0.0
        log_min = 0.0
        for i, (a, table, (_, k_i, e_i)) in enumerate(moves):
            caps = {tuple(sorted(t)) for t in captures_on(table, v, values)} if table else set()
            took = tuple(sorted(a.take)) if a.kind == CAPTURE else None
            if values[a.card] == v:
                counts["played_same_value"] += 1
            if caps and a.kind == LAY:
                counts["laid_when_could_capture"] += 1
                counts["lay_could_single" if any(len(t) == 1 for t in caps) else "lay_could_sum"] += 1
                if i == len(moves) - 1:
                    counts["last_play_laid_when_could_capture"] = 1
            if took is not None and took in caps:
                counts["captured_what_it_could"] += 1
            elif caps:
                counts["passed_up_capture"] += 1
                if tuple(sorted(table)) in caps and (took is None or len(took) < len(table)):
                    counts["passed_up_sweep"] += 1
                haya = [t for t in caps if any((1 << x) & HAYA_BIT for x in t)]
                if haya and not (took is not None and any((1 << x) & HAYA_BIT for x in took)):
                    counts["passed_up_seven_diamonds"] += 1
                most = max(len(t) for t in caps)
                best = max(_points(t, values) for t in caps)
                if took is None:   # how much a capture with this value would have taken
                    counts["lay_could_more_cards"] += most
                    counts["lay_could_points"] += best
                else:   # it took less than a card of this value would have
                    counts["passed_up_more_cards"] += most > len(took)
                    counts["passed_up_points"] += best > _points(took, values)
            lw = math.log(k_i / (k_i + e_i.get(c, 0.0)))
            log_w += lw
            log_min = min(log_min, lw)
        for name, x in counts.items():
            if x:
                f[INDEX[name]] = float(x)
        if log_w:
            f[INDEX["medium_log_weight"]] = log_w
        pairs = {"lay_could_x_same_unseen": counts["laid_when_could_capture"] * by_value[v],
                 "passed_up_x_same_unseen": counts["passed_up_capture"] * by_value[v],
                 "played_same_x_same_unseen": counts["played_same_value"] * by_value[v],
                 "lay_could_x_k_1": counts["laid_when_could_capture"] * (k == 1),
                 "passed_up_x_k_1": counts["passed_up_capture"] * (k == 1),
                 "medium_log_weight_x_k_1": log_w * (k == 1), "medium_log_weight_x_plays": log_w * (3 - k),
                 "medium_log_weight_min": log_min, "deck_left_x_plays": obs.deck_left / 30.0 * (3 - k),
                 "k_1": float(k == 1), "k_2": float(k == 2)}
        if counts["laid_when_could_capture"]:
            pairs[f"lay_could_value_{v}"] = counts["laid_when_could_capture"]
        if v == SEVEN_VALUE:
            pairs.update({"seven_x_sevens_unseen": by_value[v], "seven_x_sevens_lead": lead[1] / 4.0,
                          "seven_x_plays": 3 - k, "seven_x_score_lead": score_lead})
            if (1 << c) & HAYA_BIT:
                pairs.update({"seven_diamonds_x_plays": 3 - k, "seven_diamonds_x_score_lead": score_lead})
        if C.suit_of(c) == C.DIAMOND:
            pairs.update({"diamond_x_diamonds_lead": lead[2] / 10.0, "diamond_x_plays": 3 - k})
        for name, ms in other_t.items():
            pairs[name] = sum(math.log(k_i / (k_i + e_i.get(c, 0.0))) for _, k_i, e_i in ms)
        for name, x in pairs.items():
            if x:
                f[INDEX[name]] = float(x)
        out[c] = sorted(f.items())
    return out


# --------------------------------------------------------------- the fit


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _dot(w: list[float], x: list[tuple[int, float]]) -> float:
    return sum(w[i] * v for i, v in x)


def loss_grad(w: list[float], rows: list[tuple[list[tuple[int, float]], int]], l2: float) -> tuple[float, list[float]]:
    """Mean log loss over ``rows`` plus ``l2 / 2 * |w|^2 / len(rows)`` (the bias too), and its gradient."""
    g = [0.0] * len(w)
    loss = 0.0
    for x, y in rows:
        z = _dot(w, x)
        # log(1 + e^-z) for y = 1, log(1 + e^z) for y = 0, stably
        s = z if y == 0 else -z
        loss += s + math.log1p(math.exp(-s)) if s > 0 else math.log1p(math.exp(s))
        d = _sigmoid(z) - y
        for i, v in x:
            g[i] += d * v
    m = len(rows)
    loss = loss / m + 0.5 * l2 * sum(x * x for x in w) / m
    return loss, [gi / m + l2 * wi / m for gi, wi in zip(g, w)]


def lbfgs(f: Any, w: list[float], iters: int = 200, memory: int = 10, tol: float = 1e-7) -> list[float]:
    """Minimise ``f(w) -> (value, gradient)`` by L-BFGS with a backtracking line search."""
    fx, g = f(w)
    ss: list[list[float]] = []
    ys: list[list[float]] = []
    for _ in range(iters):
        q = list(g)
        alphas = []
        for s, y in reversed(list(zip(ss, ys))):
            rho = 1.0 / sum(a * b for a, b in zip(y, s))
            a = rho * sum(x * y_ for x, y_ in zip(s, q))
            alphas.append((rho, a))
            q = [qi - a * yi for qi, yi in zip(q, y)]
        if ss:
            gamma = sum(a * b for a, b in zip(ss[-1], ys[-1])) / sum(b * b for b in ys[-1])
            q = [gamma * x for x in q]
        for (s, y), (rho, a) in zip(zip(ss, ys), reversed(alphas)):
            b = rho * sum(yi * qi for yi, qi in zip(y, q))
            q = [qi + si * (a - b) for qi, si in zip(q, s)]
        d = [-x for x in q]
        slope = sum(a * b for a, b in zip(g, d))
        if slope >= 0:   # not a descent direction: restart from the gradient
            ss.clear()
            ys.clear()
            d = [-x for x in g]
            slope = -sum(x * x for x in g)
        step = 1.0
        while True:
            w2 = [wi + step * di for wi, di in zip(w, d)]
            f2, g2 = f(w2)
            if f2 <= fx + 1e-4 * step * slope or step < 1e-10:
                break
            step *= 0.5
        s = [a - b for a, b in zip(w2, w)]
        y = [a - b for a, b in zip(g2, g)]
        if sum(a * b for a, b in zip(s, y)) > 1e-12:
            ss.append(s)
            ys.append(y)
            if len(ss) > memory:
                ss.pop(0)
                ys.pop(0)
        done = fx - f2 < tol * max(1.0, abs(fx))
        w, fx, g = w2, f2, g2
        if done:
            break
    return w


def sampled_positions(data: Path, which: str, holdout: int, share: float, limit: int | None
                      ) -> Iterator[tuple[ChkobbaObservation, set[int], int]]:
    """Positions of the train or held-out slices, each kept with probability
    ``share`` (a fixed draw), with the other hand's true cards and the game's seed."""
    rng = random.Random(12345)
    n = 0
    for game in games_of(data, which, holdout):
        for pos in game["positions"]:
            if rng.random() >= share:
                continue
            yield observation_at(game, pos), {C.card(x) for x in pos["other"]}, game["seed"]
            n += 1
            if limit is not None and n >= limit:
                return


def cmd_train(args: argparse.Namespace) -> None:
    t0 = time.process_time()
    rows: list[tuple[list[tuple[int, float]], int]] = []
    positions = 0
    shares = args.share if len(args.share) == len(args.data) else args.share[:1] * len(args.data)
    for data, share in zip(args.data, shares):
        for obs, held, _ in sampled_positions(data, "train", args.holdout, share, args.max_positions):
            positions += 1
            for c, x in features(obs).items():
                rows.append((x, 1 if c in held else 0))
    t_feat = time.process_time() - t0
    w = lbfgs(lambda w: loss_grad(w, rows, args.l2), [0.0] * len(FEATURES), iters=args.iters)
    loss, _ = loss_grad(w, rows, 0.0)
    metas = [json.loads((d / "meta.json").read_text()) for d in args.data]
    out = {"about": "bench/learn_location.py: logistic regression of 'this unseen card is in the other hand'",
           "data_command": " ; ".join(m["command"] for m in metas), "data_seed": [m["seed"] for m in metas],
           "data_level": [m["level"] for m in metas],
           "train_command": "python bench/learn_location.py " + " ".join(sys.argv[1:]),
           "positions": positions, "cards": len(rows), "train_log_loss": round(loss, 5),
           "weights": {n: round(x, 6) for n, x in zip(FEATURES, w)}}
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({"positions": positions, "cards": len(rows), "train_log_loss": round(loss, 5),
                      "feature_cpu_seconds": round(t_feat, 1), "cpu_seconds": round(time.process_time() - t0, 1)}))


# -------------------------------------------------------------- the model


def load_weights(path: Path) -> list[float]:
    named = json.loads(path.read_text())["weights"]
    return [float(named.get(n, 0.0)) for n in FEATURES]


def model_marginals(w: list[float], obs: ChkobbaObservation) -> dict[int, float]:
    """The model's probability that each unseen card is in the other hand,
    shifted by one logit (found by bisection) so that they sum to k."""
    z = {c: _dot(w, x) for c, x in features(obs).items()}
    k = obs.hand_counts[1 - obs.seat]
    lo, hi = -30.0, 30.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if sum(_sigmoid(v + mid) for v in z.values()) < k:
            lo = mid
        else:
            hi = mid
    return {c: _sigmoid(v + (lo + hi) / 2) for c, v in z.items()}


class LearntModel(CK.ChkobbaModel):
    """Hard's model whose sampled deals (two players, in play, deck not
    empty) give the other player a hand drawn from the learnt marginals:
    k of the unseen cards drawn one by one without replacement, each with
    probability proportional to its odds p / (1 - p) (the other cards to the
    deck, shuffled). For bench/hard_variants.py only."""

    def __init__(self, weights: list[float]) -> None:
        super().__init__(infer=False)
        self.w = weights
        self._odds: tuple[Any, dict[int, float]] | None = None

    def _determinize(self, obs: Any, rng: random.Random) -> Any:
        s = super()._determinize(obs, rng)
        if obs.phase != PLAY or obs.players != 2 or obs.deck_left == 0:
            return s
        if self._odds is None or self._odds[0] is not obs:   # once per decision
            p = model_marginals(self.w, obs)
            self._odds = (obs, {c: q / max(1e-9, 1 - q) for c, q in p.items()})
        odds = dict(self._odds[1])
        other = 1 - obs.seat
        hand: list[int] = []
        for _ in range(obs.hand_counts[other]):
            x = rng.random() * sum(odds.values())
            pick = next(iter(odds))
            for c, o in odds.items():
                x -= o
                if x <= 0:
                    pick = c
                    break
            hand.append(pick)
            del odds[pick]
        rest = sorted(odds)
        rng.shuffle(rest)
        hands = list(s.hands)
        hands[other] = tuple(sorted(hand))
        s.hands = hands
        s.deck = tuple(rest)
        s.pos = 0
        return s


# -------------------------------------------------------------- the eval


def cmd_eval(args: argparse.Namespace) -> None:
    from card_location import played_this_hand, sampler_marginals, score  # bench/card_location.py
    from hard_variants import mean_ci
    t0 = time.process_time()
    ws = [load_weights(p) for p in args.weights]
    sampler = CK.ChkobbaModel()
    pick = random.Random(54321)
    rows: list[dict[str, Any]] = []
    for i, (obs, held, gid) in enumerate(sampled_positions(args.data, "eval", args.holdout, args.share, args.max_positions)):
        unseen = C.cards_of(obs.unseen_mask())
        k = len(held)
        uniform = {c: k / len(unseen) for c in unseen}
        row: dict[str, Any] = {"evidence": played_this_hand(obs), "game": gid}
        row["u_loss"], row["u_held"] = score(uniform, held)
        for j, w in enumerate(ws):
            row[f"m{j}_loss"], row[f"m{j}_held"] = score(model_marginals(w, obs), held)
        if pick.random() * args.sampler_every < 1:   # a fixed draw, not every n-th: positions come in turns
            row["w_loss"], row["w_held"] = score(sampler_marginals(sampler, obs, args.samples, i * 100_003), held)
        rows.append(row)

    def line(name: str, rs: list[dict[str, Any]], a: str, b: str) -> str:
        if len(rs) < 2:
            return f"| {name} | {len(rs)} | - | - | - |"
        la, lb = statistics.fmean(r[a + "_loss"] for r in rs), statistics.fmean(r[b + "_loss"] for r in rs)
        d = mean_ci([r[b + "_loss"] - r[a + "_loss"] for r in rs])
        ha, hb = statistics.fmean(r[a + "_held"] for r in rs), statistics.fmean(r[b + "_held"] for r in rs)
        return f"| {name} | {len(rs)} | {la:.4f} / {lb:.4f} | {d[0]:+.4f} [{d[1]:+.4f}, {d[2]:+.4f}] | {ha:.3f} / {hb:.3f} |"

    meta = json.loads((args.data / "meta.json").read_text())
    games = f"{meta['level']}-vs-{meta['level']} games"
    sub = [r for r in rows if "w_loss" in r]
    ev = [r for r in rows if r["evidence"]]
    sub_ev = [r for r in sub if r["evidence"]]

    def by_game(rs: list[dict[str, Any]], a: str, b: str) -> str:
        """b minus a, the 95% interval over games (a game's positions are not independent)."""
        games: dict[int, list[float]] = {}
        for r in rs:
            games.setdefault(r["game"], []).append(r[b + "_loss"] - r[a + "_loss"])
        d = mean_ci([statistics.fmean(x) for x in games.values()])
        return f"{b} minus {a} {d[0]:+.4f} [{d[1]:+.4f}, {d[2]:+.4f}] over {len(games)} games"

    print(f"held-out positions of `{meta['command']}` (every {args.holdout}th slice, share {args.share}); "
          f"cpu {time.process_time() - t0:.0f} s\n")
    for j, path in enumerate(args.weights):
        m = f"m{j}"
        for r in rows:   # the table's names
            r["m_loss"], r["m_held"] = r[m + "_loss"], r[m + "_held"]
        print(f"weights {path}\n")
        print("(u: uniform, w: hard's sampler, m: the model)\n")
        print("| positions from | positions | log loss a / b | b minus a | p(card held) a / b |")
        print("|---|---|---|---|---|")
        print(line(f"{games}: uniform / model", rows, "u", "m"))
        print(line("the same, the other seat has played this hand", ev, "u", "m"))
        if sub:
            print(line(f"1 in {args.sampler_every}: uniform / sampler", sub, "u", "w"))
            print(line(f"1 in {args.sampler_every}: sampler / model", sub, "w", "m"))
            print(line("the same, the other seat has played this hand: uniform / sampler", sub_ev, "u", "w"))
            print(line("the same, the other seat has played this hand: sampler / model", sub_ev, "w", "m"))
        print("\nlog loss, intervals over games: " + "; ".join(
            [by_game(rows, "u", "m")] + ([by_game(sub, "u", "w"), by_game(sub, "w", "m")] if sub else [])) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data", help="self-play positions with the other hand, one JSONL file a slice")
    d.add_argument("--games", type=int, required=True)
    d.add_argument("--slice", type=int, default=100, help="games a slice")
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--level", choices=("medium", "hard"), default="medium")
    for name in ("train", "eval"):
        p = sub.add_parser(name)
        if name == "train":
            p.add_argument("--data", type=Path, nargs="+", required=True, help="data directories, their train slices pooled")
            p.add_argument("--share", type=float, nargs="+", default=[0.3],
                           help="share of the positions used (a fixed draw): one for all --data, or one each")
        else:
            p.add_argument("--data", type=Path, required=True)
            p.add_argument("--share", type=float, default=0.3, help="share of the positions used (a fixed draw)")
        p.add_argument("--holdout", type=int, default=5, help="every this-many-th slice is held out for eval")
        p.add_argument("--max-positions", type=int)
    t = sub.choices["train"]
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--l2", type=float, default=1.0)
    t.add_argument("--iters", type=int, default=200)
    e = sub.choices["eval"]
    e.add_argument("--weights", type=Path, nargs="+", required=True, help="one table each, on the same positions and sampler draws")
    e.add_argument("--sampler-every", type=int, default=5, help="one position in this many (drawn) is also scored for hard's sampler")
    e.add_argument("--samples", type=int, default=1000, help="sampler draws a position (fewer add noise that the log loss counts against it)")
    args = ap.parse_args()
    {"data": cmd_data, "train": cmd_train, "eval": cmd_eval}[args.cmd](args)


if __name__ == "__main__":
    main()
