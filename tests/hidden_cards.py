"""What a friend's phone must never be sent: the cards of another seat's hand
(issue 24). Shared by tests/test_online.py (the Python host and guests) and
the e2e tests of the online pages (every message a friend's page got)."""

from __future__ import annotations

import re
from typing import Any

from chkobba.session import Session

CARD = re.compile(r"[A2-9TJQK][DHSC]")
ACTION = re.compile(r"(claim )?([A2-9TJQK][DHSC])+(x([A2-9TJQK][DHSC])+)?")


def cards_in(value: Any) -> set[str]:
    """Every card named in a message: card codes and the actions' cards."""
    if isinstance(value, str):
        return set(CARD.findall(value)) if ACTION.fullmatch(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def others_hands(record: Any, at: tuple[int, int], seat: int) -> set[str]:
    """The cards in the other seats' hands at position ``at`` of ``record``."""
    whole = Session.from_record(record, at=at).view(None)
    return {c for s, hand in enumerate(whole["hands"]) if s != seat for c in hand}


def view_leak(msg: dict[str, Any], record: Any, seat: int) -> set[str]:
    """The cards of another seat's hand a ``view`` message shows ``seat`` at
    its position (none is allowed). Set aside, as the rules show them: the
    rounds already over (score sheets, leftovers), Seven Diamonds' cards
    that fit the table (whoever holds them) and its last round's result, and
    at a round's first ply the moves and last move of the round just over."""
    at = (msg["round"], msg["ply"])
    shown = dict(msg["answer"])
    view = shown["view"] = dict(shown["view"])
    view.pop("results")
    for key in ("sheet", "summary", "last_round_moves"):
        shown.pop(key)
    view.pop("playable", None)
    if "seven" in shown:
        shown["seven"] = {k: v for k, v in shown["seven"].items() if k not in ("playable", "last_result")}
    if at[1] == 0:
        shown.pop("moves")
        view.pop("last")
    assert view["seat"] == seat, (view["seat"], seat)
    shown["legal"] = msg["legal"]
    return cards_in(shown) & others_hands(record, at, seat)
