"""The Seven Diamonds table as a seat sees it (or with every hand shown), and
its moves (with the engine's events: forced passes, last card, out) described
for display: JSON-able values for an interface.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import cards as C
from ...actions import DOUBLE, PASS, TRIPLE, Action
from ...cards import CODES, SUITS
from ...messages import message
from ...protocol import JSON, JSONDict
from .constants import CALLS, LAID, LAST_CARD, OUT, PASSED, PLAY, PLAYERS, TIMED_OUT, build_order
if TYPE_CHECKING:  # types only: the state imports this module
    from .state import Event, SevenDiamondsState


def view(s: "SevenDiamondsState", seat: int | None) -> JSONDict:
    """The Seven Diamonds table as ``seat`` sees it, as JSON-able values;
    ``None`` shows every hand (replays, embeds) and adds ``hands``.

    Other hands appear only as counts; ``events`` is the round's public log
    (``[seat, "9H"]``, ``[seat, "passed"]``, ``[seat, "last card"]``,
    ``[seat, "out"]``, ``[seat, "timeout"]``, ``[seat, "double"]`` ...)."""
    obs = s.observation(0 if seat is None else seat)
    timers = s.options.timers
    timer: JSONDict | None = None
    if timers is not None and s.phase in (CALLS, PLAY):
        timer = {"kind": "call", "seconds": timers.call} if s.phase == CALLS else \
            {"kind": "card", "seconds": timers.card}
    calls: list[JSON] = [[e.seat, e.kind] for e in obs.events if e.kind in (DOUBLE, TRIPLE, PASS)]
    events: list[JSON] = [[e.seat, e.text] for e in obs.events]
    results: list[JSON] = [r.details() for r in s.results]
    table: JSONDict = {SUITS[k]: C.codes(obs.laid(k)) for k in range(4)}
    out: JSONDict = {
        "game": "seven_diamonds",
        "options": s.options.to_dict(),
        "players": PLAYERS,
        "seat": seat,
        "team": None if seat is None else seat & 1,
        "side": None if seat is None else seat & 1,
        "phase": s.phase,
        "to_act": s.to_act(),
        "dealer": s.dealer,
        "hand": [] if seat is None else C.codes(obs.hand_cards()),
        "table": table,
        "playable": C.codes(sorted(C.cards_of(obs.playable), key=build_order)) if s.phase == PLAY else [],
        "hand_counts": list(obs.hand_counts),
        "last_card": [p for p in range(PLAYERS) if obs.hand_counts[p] == 1],
        "calls": calls,
        "multiplier": obs.multiplier,
        "doubler": obs.doubler if obs.doubler >= 0 else None,
        "events": events,
        "timer": timer,
        "score": list(s.score),
        "games": list(s.games),
        "target": s.options.target,
        "winner": s.winner,
        "round_index": s.round_index,
        "history": [str(a) for a in obs.history],
        "results": results,
        "claim": None,
    }
    if seat is None:
        out["hands"] = [C.codes(sorted(C.cards_of(h), key=build_order)) for h in s.hands]
    return out


def _event_move(e: "Event", action: str | None) -> JSONDict:
    card = CODES[e.card] if e.kind == LAID else None
    if e.kind == LAID:
        kind, msg = "lay", message("move.lay", seat=e.seat, card=card)
    elif e.kind == PASSED:
        kind, msg = "forced_pass", message("move.forced_pass", seat=e.seat)
    elif e.kind == LAST_CARD:
        kind, msg = "last_card", message("move.last_card", seat=e.seat)
    elif e.kind == OUT:
        kind, msg = "out", message("move.out", seat=e.seat)
    elif e.kind == TIMED_OUT:
        kind, msg = "timeout", message("move.timeout", seat=e.seat)
    elif e.kind == PASS:
        kind, msg = "pass", message("move.pass", seat=e.seat)
    else:  # double, triple
        kind, msg = "call", message(f"move.{e.kind}", seat=e.seat)
    return {"seat": e.seat, "action": action, "kind": kind, "card": card, "cards": [], "take": [],
            "chkobba": False, "round_ended": False, "code": msg.code, "params": msg.params, "text": str(msg)}


def describe_moves(before: "SevenDiamondsState", a: Action, after: "SevenDiamondsState") -> list[JSONDict]:
    """The move ``a`` and the engine's events that followed it (forced
    passes, last card, out), oldest first. The first entry carries the
    action's text; after a ``timeout`` the card or call played for the seat
    comes next with ``action`` null. ``round_ended`` is set on the last entry
    when the round ended (``after`` is the state right after the action,
    before any new deal)."""
    out: list[JSONDict] = []
    action: str | None = str(a)
    for e in after.event_log()[len(before.event_log()):]:
        out.append(_event_move(e, action))
        action = None
    if after.round_over():
        out[-1]["round_ended"] = True
    return out
