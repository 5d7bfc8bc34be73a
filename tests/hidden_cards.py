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
