#!/usr/bin/env python3
"""How well does hard's picture of the other hand match the real one?

    python bench/card_location.py [--positions 200] [--samples 200] [--seed 1] [--games medium|hard]

On positions of two-player Chkobba games (cards being played, the deck not
empty: once it is, the other hand is known), for each card the seat to act
cannot see, the probability that it is in the other player's hand:

* ``uniform``: every unseen card alike, k / n (k cards in that hand, n unseen);
* ``weighted``: hard's sampler as shipped (``ChkobbaModel().determinize``:
  sampled deals weighed by what the other seat's moves of the current hand
  reveal, chkobba/agents/inference.py), its marginals counted over
  ``--samples`` draws (add-a-half smoothing).

Each is scored against the real hand by the mean log loss per unseen card
(binary cross-entropy, natural log; lower is better) and by the mean
probability it gives the cards really held. The difference weighted minus
uniform comes with a 95% interval over positions, overall and on the
positions where the other seat has already played this hand (where there is
evidence at all). This is the yardstick a learnt card-location model must
beat (the bound on what knowing the hand is worth in games:
``bench/hard_variants.py --a oracle-hand --b hard``, docs/agents.md).

``--games hard`` takes the positions from hard-vs-hard games instead of
medium-vs-medium ones (much slower to make); the sampler models the other
player as a soft medium either way.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chkobba import cards as C  # noqa: E402
from chkobba.agents import chkobba as CK  # noqa: E402
from chkobba.games.chkobba.state import PLAY  # noqa: E402
from chkobba.session import Session  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from hard_variants import mean_ci  # noqa: E402  (the same interval as its decision screen)


def positions(count: int, seed: int, level: str) -> list[Session]:
    """Positions of ``level``-vs-``level`` games: play, two players, deck not
    empty, more than one legal move (each kept with probability 0.3, so one
    game gives a few, spread over its rounds)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from positions import sessions_where  # tests/positions.py
    found: list[Session] = sessions_where(lambda o: o.phase == PLAY and o.deck_left > 0, count, seed,
                                          {"players": 2}, share=0.3, seed_stride=1000, level=level)
    return found


def played_this_hand(obs: Any) -> bool:
    """Whether the other seat has played a card of its current hand of three."""
    return bool(obs.hand_counts[1 - obs.seat] < 3)


def sampler_marginals(model: Any, obs: Any, samples: int, seed: int) -> dict[int, float]:
    """For each card ``obs``'s seat cannot see, the share of ``samples`` draws
    of ``model.determinize`` (draw ``j`` seeded ``seed + j``) that put it in
    the other hand (two players), add-a-half smoothed towards k / n."""
    other = 1 - obs.seat
    unseen = C.cards_of(obs.unseen_mask())
    k = obs.hand_counts[other]
    counts = dict.fromkeys(unseen, 0)
    for j in range(samples):
        for c in model.determinize(obs, random.Random(seed + j)).hands[other]:
            counts[c] += 1
    return {c: (counts[c] + 0.5 * k / len(unseen)) / (samples + 0.5) for c in unseen}


def score(p: dict[int, float], held: set[int]) -> tuple[float, float]:
    """(mean log loss per card, mean probability of the cards held)."""
    loss = 0.0
    for c, q in p.items():
        q = min(max(q, 1e-6), 1 - 1e-6)
        loss -= math.log(q) if c in held else math.log(1 - q)
    return loss / len(p), statistics.fmean(p[c] for c in held)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", choices=("medium", "hard"), default="medium")
    args = ap.parse_args()
    t0 = time.process_time()
    found = positions(args.positions, args.seed, args.games)
    model = CK.ChkobbaModel()
    rows: list[dict[str, Any]] = []
    for i, sess in enumerate(found):
        seat = sess.to_act()
        assert seat is not None
        obs = sess.observation(seat)
        other = 1 - seat
        held = set(sess.state.hands[other])
        unseen = C.cards_of(obs.unseen_mask())
        k = len(held)
        if k == 0:
            continue   # the other hand is empty: nothing to place
        uniform = {c: k / len(unseen) for c in unseen}
        weighted = sampler_marginals(model, obs, args.samples, i * 100_003)
        u_loss, u_held = score(uniform, held)
        w_loss, w_held = score(weighted, held)
        rows.append({"evidence": played_this_hand(obs), "u_loss": u_loss, "w_loss": w_loss,
                     "u_held": u_held, "w_held": w_held})

    def summary(rs: list[dict[str, Any]]) -> dict[str, Any]:
        return {"positions": len(rs),
                "log_loss_uniform": round(statistics.fmean(r["u_loss"] for r in rs), 4),
                "log_loss_weighted": round(statistics.fmean(r["w_loss"] for r in rs), 4),
                "log_loss_weighted_minus_uniform": mean_ci([r["w_loss"] - r["u_loss"] for r in rs]),
                "p_held_uniform": round(statistics.fmean(r["u_held"] for r in rs), 4),
                "p_held_weighted": round(statistics.fmean(r["w_held"] for r in rs), 4),
                "p_held_weighted_minus_uniform": mean_ci([r["w_held"] - r["u_held"] for r in rs])}
    ev = [r for r in rows if r["evidence"]]
    print(json.dumps({"games": args.games, "seed": args.seed, "samples": args.samples,
                      "all": summary(rows), "with_evidence": summary(ev) if len(ev) > 1 else None,
                      "cpu_seconds": round(time.process_time() - t0, 1)}))


if __name__ == "__main__":
    main()
