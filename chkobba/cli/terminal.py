"""Play in the terminal against the computer: ``python -m chkobba play``.

    python -m chkobba play [--game chkobba|seven_diamonds] [--players 2|4]
                           [--level easy|medium|hard] [--option name=value ...]
                           [--seed N] [--save FILE] [--resume FILE] [--seat 0]

You are seat 0 (``--seat``); every other seat is a computer player. Type an
action as in RECORDS.md (``keep``, ``7D``, ``QHx7DAS``, ``claim QHx7DAS``,
``pass``...), ``?`` for the legal actions, ``hint`` for the coach, ``quit``
to stop. With ``--save`` the record is written after every action; resume it
with ``--resume``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Sequence, TextIO

from ..cards import pretty
from ..errors import ChkobbaError
from ..registry import GAMES
from ..registry import game as registered
from ..session import Session



def parse_option(text: str) -> tuple[str, object]:
    name, sep, raw = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f'an option is name=value, like target=21, not "{text}"')
    value: object
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return name.strip(), value


def describe(view: dict[str, Any]) -> str:
    lines = []
    lines.extend(registered(view["game"]).terminal(view))
    counts = ", ".join(f"seat {i}: {n}" for i, n in enumerate(view["hand_counts"]))
    lines.append(f"cards in hand: {counts}")
    lines.append(f"your hand: {pretty(view['hand'])}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    p = argparse.ArgumentParser(prog="python -m chkobba play", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="chkobba", choices=list(GAMES))
    p.add_argument("--players", type=int)
    p.add_argument("--level", default="medium", choices=["easy", "medium", "hard"])
    p.add_argument("--option", action="append", type=parse_option, default=[])
    p.add_argument("--seed", type=int)
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--save")
    p.add_argument("--resume")
    a = p.parse_args(argv)
    from ..agents import make_agent

    try:
        if a.resume:
            sess = Session.from_record(Path(a.resume).read_text(encoding="utf-8"))
        else:
            opts = dict(a.option)
            if a.players:
                opts["players"] = a.players
            sess = Session.new(a.game, opts, seed=a.seed)
    except (ChkobbaError, OSError) as e:
        print(f"cannot start: {e}", file=sys.stderr)
        return 2
    me = a.seat
    if not 0 <= me < sess.players:
        print(f"--seat must be from 0 to {sess.players - 1}", file=sys.stderr)
        return 2
    agent = make_agent(sess.game, a.level)
    rng = random.Random(a.seed)
    shown_rounds = len(sess.state.results)

    def save() -> None:
        if a.save:
            Path(a.save).write_text(sess.record_json(), encoding="utf-8")

    print(f"You are seat {me}. Type ? for the legal actions, hint for advice, quit to stop.", file=out)
    while not sess.is_over:
        results = sess.state.results
        for r in results[shown_rounds:]:
            print(f"-- round over: {json.dumps(r.to_dict())}", file=out)
        shown_rounds = len(results)
        seat = sess.to_act()
        assert seat is not None
        if seat != me:
            obs = sess.observation(seat)
            action = agent.choose(obs, obs.legal_actions(), rng)
            sess.apply(action)
            save()
            print(f"seat {seat}: {action}", file=out)
            continue
        print("\n" + describe(sess.view(me)), file=out)
        print("your move> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            return 0
        text = line.strip()
        if text in ("quit", "q"):
            return 0
        if text == "?":
            # claims are left out: the table never points at a missed capture
            shown = [t for t in sess.legal() if not t.startswith("claim")]
            print("legal: " + ", ".join(shown) + "  (a missed capture is yours to spot: claim XXxYY)", file=out)
            continue
        if text == "hint":
            from ..agents import hint
            h = hint(sess.observation(me), random.Random(0))
            for row in h["actions"][:5]:
                print(f"  {row['action']}: {row.get('reason', '')}", file=out)
            continue
        try:
            sess.apply(text)
        except ChkobbaError as e:
            print(f"not allowed: {e}", file=out)
            continue
        save()
    summary = sess.summary()
    print(f"match over: side {summary['winner']} wins, games {summary['games']}, score {summary['score']}", file=out)
    return 0
