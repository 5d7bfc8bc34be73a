"""A learnt play policy for two-player Chkobba (expert iteration, issue 26).

Medium scores each move with a hand-written estimate (:func:`.chkobba.score_action`,
in expected round points). This policy adds a linear correction over features of
the move, fitted to what the hard search found each move to be worth: the
per-move action values (mean rollout results on the same sampled deals) of hard's
searches in self-play positions (``bench/learn_policy.py``). The features see
only what the seat to act may see (its :class:`.chkobba.View`), like medium.

Inference is pure Python: a few bit counts per move on top of medium's own
estimate, so the policy can stand in for medium in the search's playouts
(``ChkobbaModel(playout=learnt_playout())``). The weights are in
:mod:`chkobba.agents.policy_weights` with the command that rebuilds them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import CAPTURE, CLAIM, Action
from ..games.chkobba.observation import ChkobbaObservation
from ..games.chkobba.state import DIAMONDS, HAYA_BIT, PLAY, SEVENS, SIXES, VALUES
from .chkobba import PlayFn, View, pile_eval, score_action, word_decision

# One name per feature, in the order move_features returns them.
FEATURES = (
    "medium",          # medium's estimate of the move (expected round points)
    "sweep_risk",      # chance the next player can sweep the table left
    "pile_gain",       # change of the pile evaluation from the cards taken
    "capture",         # a capture or a claim
    "claim",
    "cards_taken",     # cards into my pile / 4
    "takes_7d",
    "sevens_taken",
    "diamonds_taken",
    "sixes_taken",
    "chkobba",         # the table is cleared (not on the round's last card)
    "lay_value",       # a lay: the card's value / 10
    "lay_seven",
    "lay_diamond",
    "lay_7d",
    "lay_six",
    "lay_pair_kept",   # a lay while I keep another card of the same value
    "lay_unseen_same",  # a lay: unseen cards of its value / 4
    "lay_on_empty",    # a lay on an empty table
    "table_cards",     # cards left on the table / 4
    "table_sum_10",    # the table left adds up to 10 or less (one card can sweep it)
    "table_sum",       # its total value / 10 (capped at 2)
    "follow_up",       # a card I keep can take something from the table left
    "late",            # share of the round gone (0 at the start, 1 at its last card)
    "late_medium",     # late x medium's estimate
    "late_capture",    # late x capture
    "last_hand",       # my last card of this hand of three (the next move deals or ends)
    "left_7d",         # the seven of diamonds stays on the table
    "left_sevens",     # sevens left on the table
    "left_diamonds",   # diamonds left on the table
    "follow_sweep",    # a card I keep adds up to the whole table left (10 or less)
    "last_deal_medium",   # the deck is empty: medium's estimate again (the endings are exact there)
    "last_deal_capture",  # the deck is empty: a capture
)
N_FEATURES = len(FEATURES)


def move_features(view: View, a: Action) -> list[float]:
    """The features of move ``a`` (a claim, capture or lay) for the seat of ``view``."""
    values = view.values
    medium, risk = score_action(view, a)
    kind = a.kind
    cap = kind in (CAPTURE, CLAIM)
    table = view.table
    c = a.card
    if cap:
        got = 1 << c
        for t in a.take:
            got |= 1 << t
        if kind == CLAIM:
            left = [x for x in table if x != c and x not in a.take]
        else:
            left = [x for x in table if x not in a.take]
        keep = [x for x in view.hand if x != c] if kind == CAPTURE else list(view.hand)
        gain = pile_eval(view.mine | got, view.theirs) - view.base
        chk = 1.0 if not left and not (view.last and kind == CAPTURE) else 0.0
        lay = (0.0,) * 7
    else:
        got = 0
        left = list(table) + [c]
        keep = [x for x in view.hand if x != c]
        gain = 0.0
        chk = 0.0
        v = values[c]
        bit = 1 << c
        pair = 1.0 if any(values[x] == v for x in keep) else 0.0
        lay = (v / 10.0, 1.0 if bit & SEVENS else 0.0, 1.0 if bit & DIAMONDS else 0.0,
               1.0 if bit & HAYA_BIT else 0.0, 1.0 if bit & SIXES else 0.0, pair,
               view.by_value[v] / 4.0)
    total = 0
    tvals = set()
    lmask = 0
    for x in left:
        total += values[x]
        tvals.add(values[x])
        lmask |= 1 << x
    follow = follow_sweep = 0.0
    if left:
        for x in keep:
            vx = values[x]
            if vx == total:
                follow = follow_sweep = 1.0
            elif vx in tvals:
                follow = 1.0
    # cards still to come to the hands (deck and hands), of the 36 played after the deal of four
    left_in_round = view.n_unseen + len(view.hand) - (0 if kind == CLAIM else 1)
    late = 1.0 - min(1.0, max(0.0, left_in_round / 36.0))
    capf = 1.0 if cap else 0.0
    last_deal = view.n_unseen == view.next_hand   # nothing unseen but the next player's hand
    return [
        medium, risk, gain, capf, 1.0 if kind == CLAIM else 0.0,
        (got.bit_count() / 4.0), 1.0 if got & HAYA_BIT else 0.0,
        float((got & SEVENS).bit_count()), float((got & DIAMONDS).bit_count()), float((got & SIXES).bit_count()),
        chk, *lay, 1.0 if not cap and not table else 0.0,
        len(left) / 4.0, 1.0 if 0 < total <= 10 else 0.0, min(total, 20) / 10.0, follow,
        late, late * medium, late * capf, 1.0 if len(view.hand) == 1 and kind != CLAIM else 0.0,
        1.0 if lmask & HAYA_BIT else 0.0, float((lmask & SEVENS).bit_count()), float((lmask & DIAMONDS).bit_count()),
        follow_sweep, medium if last_deal else 0.0, capf if last_deal else 0.0,
    ]


def score(weights: Sequence[float], feats: Sequence[float]) -> float:
    s = 0.0
    for w, f in zip(weights, feats):
        s += w * f
    return s


def value(view: View, a: Action, w: Sequence[float]) -> float:
    """``score(w, move_features(view, a))`` without building the features: the
    same terms added in the same order (the zero ones left out, which changes
    no bit of the sum), for the playouts."""
    values = view.values
    medium, risk = score_action(view, a)
    kind = a.kind
    table = view.table
    c = a.card
    s = w[0] * medium
    if risk:
        s += w[1] * risk
    if kind == CAPTURE or kind == CLAIM:
        got = 1 << c
        take = a.take
        for t in take:
            got |= 1 << t
        if kind == CLAIM:
            left = [x for x in table if x != c and x not in take]
            keep: Sequence[int] = view.hand
        else:
            left = [x for x in table if x not in take]
            keep = [x for x in view.hand if x != c]
        gain = pile_eval(view.mine | got, view.theirs) - view.base
        if gain:
            s += w[2] * gain
        s += w[3]
        if kind == CLAIM:
            s += w[4]
        s += w[5] * (got.bit_count() / 4.0)
        if got & HAYA_BIT:
            s += w[6]
        k = (got & SEVENS).bit_count()
        if k:
            s += w[7] * k
        k = (got & DIAMONDS).bit_count()
        if k:
            s += w[8] * k
        k = (got & SIXES).bit_count()
        if k:
            s += w[9] * k
        if not left and not (view.last and kind == CAPTURE):
            s += w[10]
        capf = 1.0
    else:
        left = [*table, c]
        keep = [x for x in view.hand if x != c]
        v = values[c]
        bit = 1 << c
        s += w[11] * (v / 10.0)
        if bit & SEVENS:
            s += w[12]
        if bit & DIAMONDS:
            s += w[13]
        if bit & HAYA_BIT:
            s += w[14]
        if bit & SIXES:
            s += w[15]
        for x in keep:
            if values[x] == v:
                s += w[16]
                break
        u = view.by_value[v]
        if u:
            s += w[17] * (u / 4.0)
        if not table:
            s += w[18]
        capf = 0.0
    total = 0
    lmask = 0
    for x in left:
        total += values[x]
        lmask |= 1 << x
    follow = follow_sweep = False
    if left:
        for x in keep:
            vx = values[x]
            if vx == total:
                follow = follow_sweep = True
            elif not follow:
                for y in left:
                    if values[y] == vx:
                        follow = True
                        break
    if left:
        s += w[19] * (len(left) / 4.0)
    if 0 < total <= 10:
        s += w[20]
    if total:
        s += w[21] * (min(total, 20) / 10.0)
    if follow:
        s += w[22]
    left_in_round = view.n_unseen + len(view.hand) - (0 if kind == CLAIM else 1)
    late = 1.0 - min(1.0, max(0.0, left_in_round / 36.0))
    if late:
        s += w[23] * late
        if medium:
            s += w[24] * (late * medium)
        if capf:
            s += w[25] * late
    if len(view.hand) == 1 and kind != CLAIM:
        s += w[26]
    if lmask & HAYA_BIT:
        s += w[27]
    k = (lmask & SEVENS).bit_count()
    if k:
        s += w[28] * k
    k = (lmask & DIAMONDS).bit_count()
    if k:
        s += w[29] * k
    if follow_sweep:
        s += w[30]
    if view.n_unseen == view.next_hand:
        if medium:
            s += w[31] * medium
        if capf:
            s += w[32]
    return s


def learnt_scores(view: View, legal: Sequence[Action], weights: Sequence[float] | None = None) -> list[float]:
    """The policy's value of each legal play (expected round points, up to a constant per position)."""
    if weights is None:
        from .policy_weights import WEIGHTS
        weights = WEIGHTS
    return [value(view, a, weights) for a in legal]


def learnt_play(view: View, legal: Sequence[Action], rng: random.Random | None = None,
                weights: Sequence[float] | None = None) -> int:
    """Index of the policy's play among ``legal`` (a play phase; ties broken by
    ``rng``, else the first). Like medium, a missed capture is always claimed
    first (the best claim by the policy's value)."""
    if weights is None:
        from .policy_weights import WEIGHTS
        weights = WEIGHTS
    best = -1e9
    best_i: list[int] = []
    claims = legal[0].kind == CLAIM
    for i, a in enumerate(legal):
        if claims and a.kind != CLAIM:
            break
        v = value(view, a, weights)
        if v > best + 1e-9:
            best = v
            best_i = [i]
        elif v > best - 1e-9:
            best_i.append(i)
    if rng is not None and len(best_i) > 1:
        return best_i[rng.randrange(len(best_i))]
    return best_i[0]


def learnt_playout(weights: Sequence[float] | None = None) -> PlayFn:
    """The learnt policy as a playout policy for ``ChkobbaModel(playout=...)``
    (the committed weights unless ``weights`` are given)."""
    if weights is None:
        from .policy_weights import WEIGHTS
        weights = WEIGHTS
    w = list(weights)

    def play(view: View, legal: Sequence[Action], rng: random.Random | None) -> int:
        return learnt_play(view, legal, rng, w)
    return play


def learnt_choose(obs: ChkobbaObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    """The learnt policy as a player (no search): medium's words off the play."""
    if obs.phase != PLAY:
        return word_decision(obs.phase, obs.hand, obs.table, obs.cut_card, VALUES[obs.options.faces], legal)
    return legal[learnt_play(View.of_obs(obs), legal, rng)]
