"""Chkobba's fixed facts: phases of play, the 40-card deck, card values.

Shared by the state, its observation, determinize and view (so none of them
needs to import another to know the deck).
"""

from __future__ import annotations

from ... import cards as C
from ...cards import Card

# Phases of play.
DEAL = "deal"          # a shuffled deck is needed (new round, or an accepted re-deal)
CUT = "cut"            # the cutter keeps or tables the cut card
REDEAL = "redeal"      # players may propose a re-deal, in order from the cutter
ANSWER = "answer"      # the other side answers a re-deal proposal
PLAY = "play"
OVER = "over"          # the match is over

CHKOBBA_RANKS = "A234567JQK"
DECK: tuple[Card, ...] = tuple(C.make(r, s) for s in C.SUITS for r in CHKOBBA_RANKS)
DECK_MASK = C.mask_of(DECK)
SEVENS = C.mask_of(C.make("7", s) for s in C.SUITS)
SIXES = C.mask_of(C.make("6", s) for s in C.SUITS)
SEVEN_OF_DIAMONDS = C.make("7", "D")
HAYA_BIT = 1 << SEVEN_OF_DIAMONDS
DIAMONDS = C.SUIT_MASKS[0] & DECK_MASK


def card_values(faces: str) -> tuple[int, ...]:
    """Capture value of each of the 52 card ids (0 for cards not in the deck)."""
    face = {"QJK": {"Q": 8, "J": 9, "K": 10}, "JQK": {"J": 8, "Q": 9, "K": 10}}[faces]
    out = []
    for c in range(52):
        r = C.rank_of(c)
        if r in face:
            out.append(face[r])
        elif r in "A234567":
            out.append(1 if r == "A" else int(r))
        else:
            out.append(0)
    return tuple(out)


VALUES = {f: card_values(f) for f in ("QJK", "JQK")}
