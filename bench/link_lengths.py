"""Lengths of links (chkobba.links) for typical records of both games.

    python bench/link_lengths.py [--games 50]

For each kind of record it plays ``--games`` whole matches with the medium
computer player in every seat (seeds 0, 1, ...), encodes each record as a
link, checks it decodes back, and prints the median, smallest and largest
length in characters (and the JSON record's length, for comparison), plus
the rounds per record. Results and their command are in docs/links.md.
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

from chkobba.links import Link, decode, encode  # noqa: E402
from chkobba.records import parse_record  # noqa: E402
from chkobba.session import Session  # noqa: E402

KINDS: list[tuple[str, str, dict[str, Any], int | None]] = [
    ("Chkobba 1v1, one game to 11", "chkobba", {}, None),
    ("Chkobba 1v1, 5 rounds", "chkobba", {"target": 31}, 5),
    ("Chkobba 1v1, best of 5 games to 11", "chkobba", {"match": 5}, None),
    ("Chkobba 2v2, one game to 11", "chkobba", {"players": 4}, None),
    ("Seven Diamonds, one game to 500", "seven_diamonds", {}, None),
]


def play(game: str, options: dict[str, Any], rounds: int | None, seed: int) -> dict[str, Any]:
    """A match played by a simple greedy player (captures when it can):
    realistic round lengths without the cost of the search players."""
    s = Session.new(game, options, seed=seed)
    rng = random.Random(seed)
    while not s.is_over:
        if rounds is not None and len(s.state.results) >= rounds:
            break
        legal = s.legal()
        caps = [a for a in legal if "x" in a]
        s.apply(max(caps, key=len) if caps and rng.random() < 0.8 else rng.choice(legal))
    rec = s.record()
    if rounds is not None:
        rec["rounds"] = rec["rounds"][:rounds]  # drop the next round's fresh deal
    return rec


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=50)
    args = ap.parse_args()
    print(f"| record | link length (median, min-max) | JSON record | rounds (median) | encode + decode ms |")
    print("|---|---|---|---|---|")
    for name, game, options, rounds in KINDS:
        lengths, jsons, nrounds, times = [], [], [], []
        for seed in range(args.games):
            rec = play(game, options, rounds, seed)
            t = time.perf_counter()
            text = encode(rec)
            back = decode(text)
            times.append((time.perf_counter() - t) * 1000)
            assert back == Link(parse_record(rec))
            lengths.append(len(text))
            jsons.append(len(json.dumps(rec, separators=(",", ":"))))
            nrounds.append(len(rec["rounds"]))
        print(f"| {name} | **{statistics.median(lengths):.0f}** ({min(lengths)}-{max(lengths)}) "
              f"| {statistics.median(jsons):.0f} | {statistics.median(nrounds):.0f} "
              f"| {statistics.median(times):.0f} |")


if __name__ == "__main__":
    main()
