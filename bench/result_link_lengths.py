"""Lengths of result links with the sender's moves (``r2.``, ``x3.``) and without (``r1.``, ``x2.``).

    python bench/result_link_lengths.py [--days 10] [--matches 10]

Daily deals: the rounds of ``--days`` dates from 2026-12-01 in both games,
the player's seat by a random legal move (seeds 0, 1, ...), the computers
the daily computer (as the page plays them); each result written as the
facade writes it (``r2.`` with the round's moves) and checked to read back.
Challenges: ``--matches`` Chkobba 1v1 matches (one game to 11, and best of 3)
and Seven Diamonds matches to 500, every seat playing random legal moves
(a challenge's length depends on the moves' count, not on who chose them).
Prints the median, smallest and largest length. Figures in docs/links.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba import daily as D  # noqa: E402
from chkobba.links import challenge as C  # noqa: E402
from chkobba.session import Session  # noqa: E402
from chkobba.web.daily import _derive  # noqa: E402


def daily_links(game: str, days: int) -> tuple[list[int], list[int]]:
    with_moves, without = [], []
    for i in range(days):
        day = (date(2026, 12, 1) + timedelta(days=i)).isoformat()
        deal = D.daily(day, game)
        s = deal.session()
        rng = random.Random(i)
        while not D.round_over(s):
            seat = s.to_act()
            assert seat is not None
            s.apply(rng.choice(s.legal()) if deal.seats[seat] is None else D.computer_choice(deal, s, seat))
        you = D.round_result(deal, s.summary()["rounds"][0])
        moves = s.record()["rounds"][0]["actions"]
        text = C.encode_result(day, game, you, deal.session(), moves, _derive(deal))
        assert C.decode_result_moves(text, day, game, deal.session(), _derive(deal))[0] == you
        with_moves.append(len(text))
        without.append(len(C.encode_result(day, game, you)))
    return with_moves, without


def challenge_links(game: str, options: dict[str, Any], matches: int) -> tuple[list[int], list[int]]:
    with_moves, without = [], []
    for seed in range(matches):
        s = Session.new(game, options, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal()))
        seats = tuple(None if i == 0 else "medium" for i in range(s.players))
        moves = tuple(a for r in s.record()["rounds"] for a in r["actions"])
        c = C.Challenge(game, s.record()["options"], seed, seats, C.match_result(s, 0), 0, moves)
        text = C.encode_challenge(c)
        assert C.decode_challenge(text) == c
        with_moves.append(len(text))
        without.append(len(C.encode_challenge(C.Challenge(c.game, c.options, seed, seats, c.result, 0))))
    return with_moves, without


def line(name: str, lengths: tuple[list[int], list[int]]) -> None:
    a, b = lengths
    print(f"| {name} | **{statistics.median(a):.0f}** ({min(a)}-{max(a)}) | {statistics.median(b):.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=10)
    ap.add_argument("--matches", type=int, default=10)
    args = ap.parse_args()
    print("| link | with the moves (median, min-max) | without (median) |")
    print("|---|---|---|")
    line("daily Chkobba round (r2.)", daily_links("chkobba", args.days))
    line("daily Seven Diamonds round (r2.)", daily_links("seven_diamonds", args.days))
    line("challenge, Chkobba 1v1 to 11 (x3.)", challenge_links("chkobba", {"players": 2}, args.matches))
    line("challenge, Chkobba 1v1 best of 3 (x3.)", challenge_links("chkobba", {"players": 2, "match": 3},
                                                                  args.matches))
    line("challenge, Seven Diamonds to 500 (x3.)", challenge_links("seven_diamonds", {"timers": False},
                                                                   args.matches))


if __name__ == "__main__":
    main()
