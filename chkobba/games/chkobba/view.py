"""The Chkobba table as a seat sees it (or with every hand shown), and its
moves described for display: JSON-able values for an interface.

Nothing here reveals a hidden card or a missed capture: ``claim`` says a
claim is open after every lay onto a non-empty table at a table with claims,
whether or not the lay missed a capture.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import cards as C
from ...actions import ACCEPT, CAPTURE, CLAIM, KEEP, LAY, PROPOSE, REFUSE, TABLE, Action
from ...cards import CODES
from ...messages import message
from ...protocol import JSON, JSONDict
from .constants import CUT
from .observation import ChkobbaObservation

if TYPE_CHECKING:  # types only: the state imports this module
    from .state import ChkobbaState


def _hand_order(c: int) -> tuple[int, int]:
    return (c // 13, c % 13)


def claim_of(obs: ChkobbaObservation) -> JSONDict | None:
    window = obs.claim_window()
    return None if window is None else {"card": CODES[window[0]], "seat": window[1]}


def view(s: "ChkobbaState", seat: int | None) -> JSONDict:
    """What ``seat`` sees; ``None`` shows every hand (replays, embeds) and
    adds ``hands`` (each seat's cards) and the cut card."""
    obs = s.observation(0 if seat is None else seat)
    results: list[JSON] = [r.details() for r in s.results]
    cut_card: str | None = None
    if s.phase == CUT and s.deck and (seat is None or seat == s.cutter):
        cut_card = CODES[s.deck[0]]
    out: JSONDict = {
        "game": "chkobba",
        "options": s.options.to_dict(),
        "players": s.n,
        "seat": seat,
        "side": None if seat is None else seat & 1,
        "phase": s.phase,
        "to_act": s.to_act(),
        "dealer": s.dealer,
        "cutter": s.cutter,
        "hand": [] if seat is None else C.codes(sorted(obs.hand, key=_hand_order)),
        "cut_card": cut_card,
        "cut_visible": s.phase == CUT and (seat is None or seat == s.cutter),
        "table": C.codes(obs.table),
        "hand_counts": list(obs.hand_counts),
        "deck": obs.deck_left,
        "piles": [obs.piles[0].bit_count(), obs.piles[1].bit_count()],
        "chkobba_cards": [C.codes(obs.chkobbas[0]), C.codes(obs.chkobbas[1])],
        "score": list(s.score),
        "games": list(s.games),
        "game_index": s.game_index,
        "round_index": s.round_index,
        "target": s.options.target,
        "match": s.options.match,
        "winner": s.winner,
        "history": [str(a) for a in obs.history],
        "results": results,
        "claim": claim_of(obs),
    }
    if seat is None:
        out["hands"] = [C.codes(sorted(h, key=_hand_order)) for h in s.hands]
    return out


_WORD_MOVES = {KEEP: ("cut", "move.cut_keep"), TABLE: ("cut", "move.cut_table"),
               PROPOSE: ("redeal", "move.redeal_propose"), "pass": ("redeal", "move.redeal_pass"),
               ACCEPT: ("redeal", "move.redeal_accept"), REFUSE: ("redeal", "move.redeal_refuse")}


def describe_moves(before: "ChkobbaState", a: Action, after: "ChkobbaState") -> list[JSONDict]:
    """The move ``a`` as the table shows it (``after`` is the state right
    after it, before any new deal). Chkobba has no engine events, so the list
    holds one move."""
    seat = after.last_actor
    swept = (a.kind in (CAPTURE, CLAIM)
             and len(after.chkobbas[seat & 1]) > len(before.chkobbas[seat & 1]))
    card = CODES[a.card] if a.card >= 0 else None
    cards = [CODES[c] for c in a.take]
    if a.kind == LAY:
        kind, msg = "lay", message("move.lay", seat=seat, card=card)
    elif a.kind == CAPTURE:
        kind, msg = "capture", message("move.capture", seat=seat, card=card, cards=list(cards))
    elif a.kind == CLAIM:
        kind, msg = "claim", message("move.claim", seat=seat, card=card, cards=list(cards))
    else:
        kind, code = _WORD_MOVES[a.kind]
        msg = message(code, seat=seat)
    return [{"seat": seat, "action": str(a), "kind": kind, "card": card, "cards": cards,
             "take": list(cards), "chkobba": swept, "round_ended": after.round_over(),
             "code": msg.code, "params": msg.params, "text": str(msg)}]
