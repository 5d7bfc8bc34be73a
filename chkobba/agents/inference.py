"""What the other players' moves reveal about their hands (Chkobba).

A player who laid a five while a seven of diamonds lay on the table probably
held no seven. The hard search samples the hidden cards; with this module it
weighs each sampled deal by how likely the other seats' moves of the current
hand (the cards played since the last deal of three) were had they held the
cards the sample gives them, under a soft model of a sensible player: each
possible play is chosen with probability proportional to
``exp(medium's estimate / TEMPERATURE)``.

Only public facts are used: the round's action log, the table and the piles
as every seat saw them, and the seat's own hand. The model's factors are
computed once per decision (:class:`Evidence`), so weighing a sample costs a
few additions: for each observed move ``i`` of seat ``j``, the chance of the
actual play is ``exp(s_i / T) / (K_i + sum of e_i(c) over the cards c the
sample puts in j's hand)``, where ``e_i(c)`` sums ``exp(score / T)`` over the
plays card ``c`` allowed then and ``K_i`` does the same for the cards ``j``
was seen to play later in the hand (it held them then).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ..actions import CAPTURE, CLAIM, LAY, WORDS, Action
from ..games.chkobba.observation import ChkobbaObservation
from ..games.chkobba.state import VALUES, captures_on

TEMPERATURE = 0.4   # expected points; lower trusts the model of the others more
CANDIDATES = 6      # sampled deals drawn to pick one from, by weight


class Evidence:
    """The other seats' moves of the current hand, ready to weigh samples."""

    def __init__(self, obs: ChkobbaObservation, View: Callable[..., Any],
                 score_action: Callable[[Any, Action], tuple[float, ...]]) -> None:
        # The player model (medium's view and action scores) is handed in by
        # chkobba.agents.chkobba, which imports this module: no import cycle.
        self.moves: list[tuple[int, float, dict[int, float]]] = []   # (seat, K_i, e_i by card)
        self.tables: list[tuple[int, ...]] = []   # the table before each of those moves
        n = obs.players
        hist = list(obs.history)
        if any(a.kind == "timeout" for a in hist):
            return
        # the card plays of the current deal: after the last word (cut, re-deal)
        start = max((i + 1 for i, a in enumerate(hist) if a.kind in WORDS), default=0)
        plays = hist[start:]
        if not plays:
            return
        # who made each play: the cutter first, turns to the right, a claimer plays next
        seats: list[int] = []
        seat = (obs.dealer + 1) % n
        for a in plays:
            seats.append(seat)
            if a.kind != CLAIM:
                seat = (seat + 1) % n
        cards_played = sum(1 for a in plays if a.kind != CLAIM)
        seg_cards = cards_played % (3 * n)   # card plays since the last deal of three
        # the index in `plays` where the current hand of three began
        seen = 0
        seg_start = len(plays)
        for i in range(len(plays) - 1, -1, -1):
            if plays[i].kind != CLAIM:
                if seen == seg_cards:
                    break
                seen += 1
            seg_start = i
        # walk back from now to the hand's start: table, piles and claim before each play
        table = list(obs.table)
        piles = [obs.piles[0], obs.piles[1]]
        before: list[tuple[tuple[int, ...], tuple[int, int]]] = [((), (0, 0))] * len(plays)
        for i in range(len(plays) - 1, seg_start - 1, -1):
            a = plays[i]
            side = seats[i] & 1
            if a.kind == LAY:
                table.remove(a.card)
            elif a.kind == CAPTURE:
                table.extend(a.take)
                piles[side] &= ~((1 << a.card) | sum(1 << t for t in a.take))
            elif a.kind == CLAIM:
                table.extend(a.take)
                table.append(a.card)
                piles[side] &= ~((1 << a.card) | sum(1 << t for t in a.take))
            before[i] = (tuple(table), (piles[0], piles[1]))
        values = VALUES[obs.options.faces]
        opts = obs.options
        compulsory = opts.capture == "compulsory"
        unseen = [c for c in range(52) if (obs.unseen_mask() >> c) & 1]
        counts = [3] * n
        for i in range(seg_start, len(plays)):
            a = plays[i]
            j = seats[i]
            if a.kind == CLAIM:
                continue
            if j != obs.seat:
                table_i, piles_i = before[i]
                claim = None
                if i > seg_start and plays[i - 1].kind == LAY and opts.claims:
                    prev_table = before[i - 1][0]
                    if prev_table:
                        claim = (plays[i - 1].card, prev_table)
                # the cards j held then that it has played since (it held them all)
                later = [plays[k].card for k in range(i, len(plays)) if seats[k] == j and plays[k].kind != CLAIM]
                hand = tuple(later)
                view = View(j, n, hand, table_i, claim, piles_i, values, opts, counts, obs.deck_left,
                            obs.last_capturer)

                def weight_of(c: int) -> float:
                    caps = captures_on(table_i, values[c], values) if table_i else []
                    acts = [Action(CAPTURE, c, t) for t in caps]
                    if not (caps and compulsory):
                        acts.append(Action(LAY, c))
                    return sum(math.exp(max(-30.0, min(30.0, score_action(view, x)[0] / TEMPERATURE)))
                               for x in acts)

                k_i = sum(weight_of(c) for c in later)
                e_i = {c: weight_of(c) for c in unseen}
                self.moves.append((j, k_i, e_i))
                self.tables.append(table_i)
            counts[j] -= 1

    def weight(self, hands: list[tuple[int, ...]]) -> float:
        """Likelihood (up to a constant) of the observed moves in a sample
        that gives these hands to the seats."""
        w = 1.0
        for j, k_i, e_i in self.moves:
            z = k_i
            for c in hands[j]:
                z += e_i.get(c, 0.0)
            w /= z
        return w


def pick(evidence: Evidence, sample: Callable[[random.Random], Any], rng: random.Random,
         candidates: int = CANDIDATES) -> Any:
    """Draw ``candidates`` hidden hands with ``sample(rng)`` (a list of hands,
    one per seat) and keep one with probability proportional to its weight
    (sampling-importance-resampling)."""
    draws = [sample(rng) for _ in range(candidates if evidence.moves else 1)]
    if len(draws) == 1:
        return draws[0]
    ws = [evidence.weight(h) for h in draws]
    total = sum(ws)
    if not total > 0:
        return draws[0]
    x = rng.random() * total
    for h, w in zip(draws, ws):
        x -= w
        if x <= 0:
            return h
    return draws[-1]
