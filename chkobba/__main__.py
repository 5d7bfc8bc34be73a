"""Command line: ``python -m chkobba replay FILE``, ``play``, ``arena``.

``replay`` prints the replay output of RECORDS.md as JSON on standard output;
a malformed or illegal record prints one line on standard error (round,
action index, action text, reason), nothing on standard output, and exits 1
(also for input over 16 MB or nested deeper than a record can be); a file
that cannot be read or is not UTF-8 text exits 2, in one line too.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from .errors import ChkobbaError


def _read(path: str, limit: int) -> bytes:
    """At most ``limit`` bytes of the file (or of standard input for ``-``):
    an endless input such as /dev/zero is never read whole."""
    if path == "-":
        if sys.stdin is None:
            raise OSError("standard input is closed")
        return sys.stdin.buffer.read(limit)
    with open(path, "rb") as f:
        return f.read(limit)


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record: its summary on stdout and exit 0, or exactly one line
    on stderr and nothing on stdout: exit 1 for a refused record (malformed,
    illegal, over 16 MB, nested too deep), 2 for a file that cannot be read
    or is not UTF-8 text."""
    from .messages import quote
    from .records import MAX_BYTES, one_line, parse_record, replay, summary, too_large
    name = '"' + quote(args.file, 200) + '"'
    try:
        raw = _read(args.file, MAX_BYTES + 1)
    except OSError as e:
        print(f"cannot read {name}: {one_line(str(e.strerror or e))}", file=sys.stderr)
        return 2
    except (MemoryError, RecursionError):
        print(f"cannot read {name}: out of memory", file=sys.stderr)
        return 2
    if len(raw) > MAX_BYTES:
        print(str(too_large()), file=sys.stderr)
        return 1
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        print(f"cannot read {name}: it is not UTF-8 text (a record is JSON)", file=sys.stderr)
        return 2
    del raw
    try:
        out = json.dumps(summary(replay(parse_record(text))))
    except ChkobbaError as e:
        print(one_line(str(e), 2000), file=sys.stderr)
        return 1
    except (RecursionError, MemoryError):
        print("record: too large or nested too deeply to replay", file=sys.stderr)
        return 1
    except Exception as e:  # never a traceback: one line, and say it is our fault
        print(f"internal error while replaying (please report it): {type(e).__name__}: {one_line(str(e))}",
              file=sys.stderr)
        return 1
    print(out)
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
