"""Soak: N complete random matches over every option set, on all cores.

    python bench/soak.py [-n 10000] [--start 0] [--seed 1] [--workers 0] [--match INDEX]

Every match is played through a :class:`chkobba.session.Session` (the path the
web table and the terminal take), random legal actions, with these invariants
checked after EVERY move:
- all cards accounted for: each card of the game's deck in exactly one place
  (hands, table, capture piles, the undealt deck);
- scores only grow within a game (a Chkobba match restarts at 0-0 only when a
  game is won), games won only grow, round results are only appended and each
  round's points add up;
- the seat to act always has a legal action; the match ends (at most 2,000
  rounds and 200,000 moves);
and at the end: the winner won the match as the options say, and the record
the session wrote replays (``replay(parse_record(json))``) to the same
summary, dealer, phase and observation for every seat.

Match ``i`` uses option set ``i % len(OPTION_SETS)`` (every Chkobba option
combination, 1,152, then 36 Seven Diamonds ones) and its own seed
``f"{seed}/{i}"``, so a failure is reproduced alone with ``--match i``, and
``--start S -n N`` (matches S to S+N-1) continues an earlier run.
Prints one summary line (and each failure with its match index); exits 1 if
any match failed. docs/hostile-input.md records runs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chkobba.cards import mask_of  # noqa: E402
from chkobba.records import parse_record, replay, summary  # noqa: E402
from chkobba.session import Session  # noqa: E402

MAX_ROUNDS = 2000
MAX_MOVES = 200_000


def option_sets() -> list[tuple[str, dict[str, Any]]]:
    """Every Chkobba option combination, then Seven Diamonds ones (its
    numbers take a few values each: target, bonus, timer lengths)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for players, faces, capture, missed, sweep, redeal, target, match, diamonds in itertools.product(
            (2, 4), ("QJK", "JQK"), ("optional", "compulsory"), (True, False), (False, True), (True, False),
            (11, 21, 31), (1, 3, 5), (False, True)):
        out.append(("chkobba", {"players": players, "faces": faces, "capture": capture, "missed_capture": missed,
                                "last_card_sweep": sweep, "redeal": redeal, "target": target, "match": match,
                                "all_diamonds_wins": diamonds}))
    for calls, target, bonus, timers in itertools.product(
            (True, False), (1, 300, 500), (0, 200), (False, {"call": 10, "card": 12}, {"call": 1, "card": 600})):
        out.append(("seven_diamonds", {"calls": calls, "target": target, "last_seven_bonus": bonus,
                                       "timers": timers}))
    return out


OPTION_SETS = option_sets()


class Broken(AssertionError):
    pass


def check(cond: bool, what: str) -> None:
    if not cond:
        raise Broken(what)


def cards_accounted(s: Any) -> None:
    """Each card of the game's deck in exactly one place."""
    if s.to_act() is None:
        return
    if s.game == "chkobba":
        parts = [mask_of(h) for h in s.hands] + [mask_of(s.table), s.piles[0], s.piles[1], mask_of(s.deck[s.pos:])]
        size = 40
    else:
        parts = [s.table, *s.hands]
        size = 32
    total = 0
    for p in parts:
        check(total & p == 0, "a card is in two places")
        total |= p
    check(total == mask_of(s.full_deck()), "a card is missing")
    check(sum(p.bit_count() for p in parts) == size, "the card count is wrong")


def play_match(i: int, seed: int) -> dict[str, Any]:
    """Play match ``i`` to its end, checking every move; returns its counts."""
    game, options = OPTION_SETS[i % len(OPTION_SETS)]
    rng = random.Random(f"{seed}/{i}")
    sess = Session.new(game, options, seed=rng.randrange(2**31))
    moves = 0
    kinds: dict[str, int] = {}
    prev = sess.state
    while not sess.is_over:
        s = sess.state
        legal = s.legal_actions()
        check(bool(legal), "no legal action before the match is over")
        a = legal[rng.randrange(len(legal))]
        kinds[a.kind] = kinds.get(a.kind, 0) + 1
        sess.apply(a)
        moves += 1
        s = sess.state
        cards_accounted(s)
        # scores only grow within a game; games and results only grow
        check(len(s.results) >= len(prev.results) and s.results[:len(prev.results)] == prev.results,
              "a round result changed")
        check(all(g >= h for g, h in zip(s.games, prev.games)), "games won went down")
        if s.games != prev.games:
            check(sum(s.games) == sum(prev.games) + 1, "two games were won at once")
        if s.games == prev.games or game != "chkobba" or s.is_over:
            # (a Chkobba match restarts at 0-0 for its next game; its last game keeps its score)
            check(all(x >= y for x, y in zip(s.score, prev.score)), f"the score went down: {prev.score} -> {s.score}")
        else:
            check(s.score == (0, 0), "a new game does not start at 0-0")
        for r in s.results[len(prev.results):]:
            d = r.to_dict()
            if game == "chkobba":
                check(all(d["points"][k] == sum(d[x][k] for x in ("karta", "dinari", "barmila", "haya", "chkobba"))
                          for k in (0, 1)), "a round's points do not add up")
        check(len(s.results) <= MAX_ROUNDS and moves <= MAX_MOVES, "the match does not end")
        prev = s
    s = sess.state
    check(s.winner in (0, 1), "the match is over without a winner")
    if game == "chkobba":
        check(s.games[s.winner] == options["match"] // 2 + 1, "the winner did not win the match")
    else:
        check(s.score[s.winner] >= options["target"] and s.games[s.winner] == 1, "the winner did not reach the target")
    # the record the session wrote replays to the same match
    again = replay(parse_record(json.dumps(sess.record())))
    check(summary(again) == sess.summary(), "the record replays to another summary")
    check((again.dealer, again.phase, again.round_index) == (s.dealer, s.phase, s.round_index),
          "the record replays to another state")
    for seat in range(s.n):
        check(again.observation(seat) == s.observation(seat), "the record replays to another observation")
    return {"game": game, "moves": moves, "rounds": len(s.results), "kinds": kinds}


def run_chunk(args: tuple[int, int, int]) -> dict[str, Any]:
    start, stop, seed = args
    out: dict[str, Any] = {"matches": 0, "chkobba": 0, "seven_diamonds": 0, "moves": 0, "rounds": 0,
                           "kinds": {}, "failures": []}
    for i in range(start, stop):
        try:
            r = play_match(i, seed)
        except Exception as e:  # a failure is reported with the match index, the soak goes on
            out["failures"].append((i, f"{type(e).__name__}: {e}", traceback.format_exc(limit=3)))
            continue
        out["matches"] += 1
        out[r["game"]] += 1
        out["moves"] += r["moves"]
        out["rounds"] += r["rounds"]
        for k, v in r["kinds"].items():
            out["kinds"][k] = out["kinds"].get(k, 0) + v
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", type=int, default=10_000, help="number of matches (default 10000)")
    p.add_argument("--start", type=int, default=0, help="index of the first match (to continue a run)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=0, help="processes (default: every core)")
    p.add_argument("--chunk", type=int, default=200, help="matches per task")
    p.add_argument("--match", type=int, default=None, help="replay one match by its index, with its traceback")
    p.add_argument("--progress", type=float, default=0, help="print progress every N seconds (stderr)")
    a = p.parse_args(argv)
    if a.match is not None:
        r = play_match(a.match, a.seed)
        print(json.dumps({"match": a.match, "options": OPTION_SETS[a.match % len(OPTION_SETS)], **r}))
        return 0
    workers = a.workers or os.cpu_count() or 1
    end = a.start + a.n
    tasks = [(k, min(k + a.chunk, end), a.seed) for k in range(a.start, end, a.chunk)]
    total: dict[str, Any] = {"matches": 0, "chkobba": 0, "seven_diamonds": 0, "moves": 0, "rounds": 0,
                             "kinds": {}, "failures": []}
    t0 = time.perf_counter()
    last = t0
    with multiprocessing.Pool(workers) as pool:
        for part in pool.imap_unordered(run_chunk, tasks):
            for k in ("matches", "chkobba", "seven_diamonds", "moves", "rounds"):
                total[k] += part[k]
            for k, v in part["kinds"].items():
                total["kinds"][k] = total["kinds"].get(k, 0) + v
            total["failures"] += part["failures"]
            now = time.perf_counter()
            if a.progress and now - last >= a.progress:
                last = now
                done = total["matches"] + len(total["failures"])
                print(f"soak progress: {done}/{a.n} matches, {len(total['failures'])} failures, {now - t0:.0f} s",
                      file=sys.stderr, flush=True)
    dt = time.perf_counter() - t0
    for i, msg, tb in sorted(total["failures"])[:20]:
        print(f"FAILED match {i} ({OPTION_SETS[i % len(OPTION_SETS)][0]}): {msg}  (rerun: --match {i} --seed {a.seed})")
        print(tb, file=sys.stderr)
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(total["kinds"].items()))
    print(f"soak: {total['matches'] + len(total['failures'])} matches ({total['chkobba']} chkobba, "
          f"{total['seven_diamonds']} seven diamonds; {len(OPTION_SETS)} option sets), {total['rounds']} rounds, "
          f"{total['moves']} moves checked ({kinds}); {len(total['failures'])} failures; "
          f"matches {a.start}-{end - 1}, seed {a.seed}; "
          f"{dt:.1f} s on {workers} processes ({(total['matches'] + len(total['failures'])) / dt:.1f} matches/s)",
          flush=True)
    return 1 if total["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
