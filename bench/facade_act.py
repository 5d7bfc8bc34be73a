"""What one ``act`` costs at the facade on a long match (issue 20).

    python bench/facade_act.py [--rounds 40] [--acts 400] [--seed 3] [--repeats 3]

Builds a Chkobba 1v1 match (target 31, best of 5: long enough) played by
medium computers until ``--rounds`` rounds are finished, resumes its save at
a table (``resume``), then plays ``--acts`` more actions through
``call("act", ...)`` (each seat's action from the medium computer, chosen
outside the clock). Reports, per act and apart for the acts that deal a
new round, the CPU time (``time.process_time``: other work on the machine
barely disturbs it), and the engine work one act does: record
serialisations (``Record.to_dict``/``dumps``), observations built and
legal-move builds (``legal_actions`` of a state). Uses only the facade's
public ``call``, so the same script measures any revision of it.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba import records, web  # noqa: E402
from chkobba.agents import make_agent  # noqa: E402
from chkobba.games.chkobba.state import ChkobbaState  # noqa: E402
from chkobba.session import Session  # noqa: E402

COUNTS = {"serialisations": 0, "observations": 0, "legal": 0}


def _count(cls: Any, name: str, key: str) -> None:
    real = getattr(cls, name)

    def counted(*a: Any, **k: Any) -> Any:
        COUNTS[key] += 1
        return real(*a, **k)

    setattr(cls, name, counted)


def long_match(rounds: int, seed: int) -> dict[str, Any]:
    """The save of a match with ``rounds`` finished rounds, in progress."""
    s = Session.new("chkobba", {"target": 31, "match": 5}, seed=seed)
    medium = make_agent("chkobba", "medium")
    rng = random.Random(seed)
    while len(s.state.results) < rounds or s.state.history() == [] or s.to_act() is None:
        if s.is_over:
            raise SystemExit(f"the match ended after {len(s.state.results)} rounds: try another --seed")
        seat = s.to_act()
        assert seat is not None
        obs = s.observation(seat)
        s.apply(medium.choose(obs, obs.legal_actions(), rng))
    seats = [{"kind": "human"}, {"kind": "human"}]   # both seats played here: no hand-off screen in the way
    return {"v": 2, "game": "chkobba", "record": s.record(), "seed": s.seed, "seats": seats, "coach": False}


def call(name: str, **payload: Any) -> Any:
    out = json.loads(web.call(name, json.dumps(payload)))
    if "ok" not in out:
        raise SystemExit(f"{name}: {out}")
    return out["ok"]


def run(rounds: int, acts: int, seed: int) -> dict[str, Any]:
    save = long_match(rounds, seed)
    st = call("resume", save=save, table="bench")
    medium = make_agent("chkobba", "medium")
    rng = random.Random(seed)
    plain: list[float] = []
    dealing: list[float] = []
    counts: dict[str, list[int]] = {k: [] for k in COUNTS}
    for _ in range(acts):
        if st["to_act"] is None:
            break
        if st.get("handoff") is not None:
            st = call("reveal", table="bench")
        sess = Session.from_record(st["save"]["record"], seed=st["save"]["seed"])
        seat = sess.to_act()
        assert seat is not None
        obs = sess.observation(seat)
        action = str(medium.choose(obs, obs.legal_actions(), rng))
        decks = sum(len(r["decks"]) for r in st["save"]["record"]["rounds"])
        for k in COUNTS:
            COUNTS[k] = 0
        t = time.process_time()
        st = call("act", table="bench", action=action, seat=seat)
        ms = (time.process_time() - t) * 1000.0
        dealt = sum(len(r["decks"]) for r in st["save"]["record"]["rounds"]) != decks
        (dealing if dealt else plain).append(ms)
        for k in COUNTS:
            counts[k].append(COUNTS[k])
    return {"plain": plain, "dealing": dealing, "counts": counts}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--acts", type=int, default=400)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    _count(records.Record, "to_dict", "serialisations")
    _count(records.Record, "dumps", "serialisations")
    _count(ChkobbaState, "observation", "observations")
    _count(ChkobbaState, "legal_actions", "legal")
    runs = [run(args.rounds, args.acts, args.seed) for _ in range(args.repeats)]
    plain = [statistics.median(r["plain"]) for r in runs]
    dealing = [statistics.median(r["dealing"]) for r in runs if r["dealing"]]
    c = runs[0]["counts"]
    print(f"chkobba 1v1, {args.rounds} rounds resumed, {len(runs[0]['plain'])} acts + "
          f"{len(runs[0]['dealing'])} that deal a round, {args.repeats} runs (CPU ms, medians of each run)")
    print(f"act: {statistics.median(plain):.2f} ms ({', '.join(f'{x:.2f}' for x in plain)})")
    if dealing:
        print(f"act that deals: {statistics.median(dealing):.2f} ms ({', '.join(f'{x:.2f}' for x in dealing)})")
    for k, v in c.items():
        print(f"{k} per act: median {statistics.median(v)}, max {max(v)}")


if __name__ == "__main__":
    main()
