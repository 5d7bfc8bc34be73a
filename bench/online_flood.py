"""A hostile friend floods the host's table (results go in docs/online.md).

    python bench/online_flood.py [--messages 10000] [--seconds 1]

A 1v1 table is dealt, then one friend's connection sends ``--messages``
messages spread over ``--seconds`` of the table's (injected) clock: refused
ones of every kind (``{}``, ``[1]``, a 2,000-character text, a number, a
join for the host's seat). Prints the time ``HostTable.receive`` took in all
and for the slowest message, how many messages were answered, dropped unread
(the flood allowance) or read, whether ``HostTable.version`` moved (the page
saves and redraws only when it does), and that the honest friend is still
seated and its next move is taken. This is the host's Python alone (CPython
here; in the page, Pyodide, every message also costs a JSON.parse and a call
into Python: see e2e/test_online_page_guard.py's flood test for the page).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba.online import wire  # noqa: E402
from chkobba.online.guest import Guest  # noqa: E402
from chkobba.online.host import HOST, REMOTE, HostTable, SeatSpec  # noqa: E402


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    clock = Clock()
    seeds = random.Random(1)
    host = HostTable("chkobba", {"players": 2}, [SeatSpec(HOST), SeatSpec(REMOTE)], clock,
                     rng=random.Random(2), host_seed=lambda: "%032x" % seeds.getrandbits(128))
    host.heartbeat_timeout = 1e9
    guest = Guest(1, "%032x" % seeds.getrandbits(128), seed=lambda: "%032x" % seeds.getrandbits(128))
    queue = []

    def deliver(out: list[tuple[int, dict]]) -> None:
        queue.extend(out)
        while queue:
            peer, msg = queue.pop(0)
            if peer == 1:
                for reply in guest.receive(json.loads(json.dumps(msg))):
                    queue.extend(host.receive(1, reply))

    host.connect(1, 1)
    deliver(host.receive(1, guest.join()))
    deliver(host.start())
    assert host.session is not None
    host.connect(2, 1)   # the flooding connection: a second one from the same invitation
    kinds: list[object] = ["{}", "[1]", "x" * 2000, 12, wire.encode(wire.Join(0, "ab" * 16))]
    version = host.version
    answered = slowest = 0.0
    replies = 0
    t0 = time.perf_counter()
    for i in range(args.messages):
        clock.now += args.seconds / args.messages
        a = time.perf_counter()
        out = host.receive(2, kinds[i % len(kinds)])
        took = time.perf_counter() - a
        slowest = max(slowest, took)
        replies += bool(out)
    total = time.perf_counter() - t0
    answered = replies
    moved = host.version != version
    # the honest friend: still seated, its move taken
    while host.session.to_act() != 1:
        deliver(host.host_act(host.session.legal()[0]))
    before = host.position()
    deliver(host.receive(1, guest.act(guest.legal[0])))
    print(f"{args.messages} messages over {args.seconds:g} s of the table's clock: receive took {total * 1000:.1f} ms "
          f"in all, {total / args.messages * 1e6:.1f} us each, the slowest {slowest * 1000:.2f} ms; "
          f"{answered:.0f} answered (refused in words), {args.messages - answered:.0f} dropped unread; "
          f"version moved: {moved}; the honest friend seated: {host.seats[1].peer == 1}, "
          f"its move taken: {host.position() != before}")


if __name__ == "__main__":
    main()
