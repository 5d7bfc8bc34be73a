"""Command line: ``python -m chkobba replay FILE``, ``play``, ``arena``.

``replay`` prints the replay output of RECORDS.md as JSON on standard output;
a malformed or illegal record prints one line on standard error (round,
action index, action text, reason), nothing on standard output, and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from .errors import ChkobbaError


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def cmd_replay(args: argparse.Namespace) -> int:
    from .records import parse_record, replay, summary
    try:
        text = _read(args.file)
    except OSError as e:
        print(f"cannot read {args.file}: {e.strerror or e}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"cannot read {args.file}: it is not UTF-8 text (a record is JSON)", file=sys.stderr)
        return 2
    try:
        out = summary(replay(parse_record(text)))
    except ChkobbaError as e:
        print(str(e), file=sys.stderr)
        return 1
    print(json.dumps(out))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "arena":
        from .cli.arena import main as arena_main
        return int(arena_main(argv[1:]))
    if argv and argv[0] == "play":
        from .cli.terminal import main as play_main
        return int(play_main(argv[1:]))
    p = argparse.ArgumentParser(prog="python -m chkobba", description="Chkobba and Seven Diamonds.")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("replay", help="replay a game record and print its scores as JSON")
    r.add_argument("file", help="the record (JSON), or - for standard input")
    sub.add_parser("play", help="play in the terminal against the computer (see: play --help)")
    sub.add_parser("arena", help="computer players against each other (see: arena --help)")
    args = p.parse_args(argv)
    if args.cmd == "replay":
        return cmd_replay(args)
    return 2


if __name__ == "__main__":
    sys.exit(main())
