"""Property tests (hypothesis) and a randomized soak of the Chkobba engine."""

from __future__ import annotations

import os
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import CHKOBBA_OPTIONS

from chkobba.cards import mask_of
from chkobba.games.chkobba.state import DEAL, DECK_MASK, OVER, ChkobbaState
from chkobba import determinize
from chkobba.options import ChkobbaOptions
from chkobba.records import replay, summary
from chkobba.session import Session

OPTIONS = st.fixed_dictionaries(CHKOBBA_OPTIONS)


def snapshot(s: ChkobbaState) -> tuple[Any, ...]:
    return tuple(getattr(s, k) if not isinstance(getattr(s, k), list) else tuple(getattr(s, k))
                 for k in ChkobbaState.__slots__)


def check_cards(s: ChkobbaState) -> None:
    """All 40 cards accounted for, each in exactly one place."""
    if s.phase in (DEAL, OVER):
        return
    parts = [mask_of(h) for h in s.hands] + [mask_of(s.table), s.piles[0], s.piles[1], mask_of(s.deck[s.pos:])]
    total = 0
    for p in parts:
        assert total & p == 0, "a card is in two places"
        total |= p
    assert total == DECK_MASK
    assert sum(len(h) for h in s.hands) + len(s.table) + sum(p.bit_count() for p in s.piles) + s.deck_left == 40


def check_scores(s: ChkobbaState) -> None:
    """Each round's points recounted from its card counts by RULES.md's
    "Scoring a round" (each point to the side with strictly more; barmila
    falls back to the sixes), and the counts add up to the deck."""
    for r in s.results:
        if r.leftovers_to is not None or not r.leftovers:   # every card ended in a pile
            assert (sum(r.cards), sum(r.diamonds), sum(r.sevens), sum(r.sixes)) == (40, 10, 4, 4)
            assert sorted(r.haya) == [0, 1], "7D is in one pile"
        else:   # nobody captured: the table's cards went to no one
            assert sum(r.cards) + len(r.leftovers) == 40
        for i, j in ((0, 1), (1, 0)):
            barmila = r.sevens[i] > r.sevens[j] or (r.sevens[i] == r.sevens[j] and r.sixes[i] > r.sixes[j])
            want = (r.cards[i] > r.cards[j]) + (r.diamonds[i] > r.diamonds[j]) + barmila + r.haya[i] + r.chkobba[i]
            assert r.points[i] == want, (i, r)
    current = [r for r in s.results if r.game == s.game_index]
    if s.winner is None:
        assert list(s.score) == [sum(r.points[i] for r in current) for i in (0, 1)]


def play_out(options: dict[str, Any], seed: int, steps: int, check_every: int = 1) -> Session:
    sess = Session.new("chkobba", options, seed=seed)
    rng = random.Random(seed)
    for i in range(steps):
        if sess.is_over:
            assert sess.legal() == []
            break
        s = sess.state
        acts = s.legal_actions()
        assert acts, "no legal action before the match is over"
        a = acts[rng.randrange(len(acts))]
        if i % check_every == 0:
            before = snapshot(s)
            after = s.apply(a)
            assert snapshot(s) == before, "apply changed its input"
            check_cards(after)
            seat = rng.randrange(s.n)
            obs = s.observation(seat)
            for k in range(2):
                assert determinize(obs, random.Random(k)).observation(seat) == obs
        sess.apply(a)
        check_cards(sess.state)
        check_scores(sess.state)
    return sess


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=st.integers(0, 2**31 - 1))
def test_invariants_along_random_games(options: dict[str, Any], seed: int) -> None:
    sess = play_out(options, seed, steps=120, check_every=3)
    # replay(save(game)) is the same game
    rec = sess.record()
    again = replay(rec)
    assert summary(again) == sess.summary()
    assert [str(a) for a in again.legal_actions()] == sess.legal()
    for seat in range(sess.players):
        assert again.observation(seat) == sess.state.observation(seat)


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**31 - 1))
def test_hidden_cards_do_not_change_observation(options: dict[str, Any], seed: int) -> None:
    """Two different hidden deals behind one observation look the same to that seat."""
    sess = play_out(options, seed, steps=random.Random(seed).randrange(1, 60), check_every=1000)
    s = sess.state
    for seat in range(s.n):
        obs = s.observation(seat)
        a, b = determinize(obs, random.Random(1)), determinize(obs, random.Random(2))
        assert a.observation(seat) == b.observation(seat) == obs
        assert a.legal_actions() == b.legal_actions() or a.to_act() != seat
        if s.to_act() == seat:
            assert a.legal_actions() == s.legal_actions()


def test_same_seed_same_game() -> None:
    a = play_out({"players": 4}, 5, steps=300, check_every=1000)
    b = play_out({"players": 4}, 5, steps=300, check_every=1000)
    assert a.record() == b.record()
    c = play_out({"players": 4}, 6, steps=300, check_every=1000)
    assert c.record() != a.record()


def _all_option_sets() -> list[dict[str, Any]]:
    out = []
    rng = random.Random(7)
    for players in (2, 4):
        for capture in ("optional", "compulsory"):
            for faces in ("QJK", "JQK"):
                for target in (11, 21, 31):
                    for match in (1, 3, 5):
                        out.append({"players": players, "capture": capture, "faces": faces, "target": target,
                                    "match": match, "missed_capture": rng.random() < 0.5,
                                    "last_card_sweep": rng.random() < 0.5, "redeal": rng.random() < 0.7,
                                    "all_diamonds_wins": rng.random() < 0.5})
    return out


def soak(matches: int, seed: int = 0) -> dict[str, int]:
    """Play ``matches`` complete random matches over every option combination."""
    option_sets = _all_option_sets()
    rng = random.Random(seed)
    seen = {"rounds": 0, "claims": 0, "chkobbas": 0, "redeals": 0, "all_diamonds": 0}
    for m in range(matches):
        opts = ChkobbaOptions.from_dict(option_sets[m % len(option_sets)])
        s = ChkobbaState.new(opts, rng.randrange(opts.players))
        decks = 0
        while not s.is_over:
            if s.needs_deal:
                deck = list(s.full_deck())
                rng.shuffle(deck)
                s.deal(deck)
                decks += 1
                assert decks < 500, "the match does not end"
                continue
            acts = s.legal_actions()
            a = acts[rng.randrange(len(acts))]
            if a.kind == "claim":
                seen["claims"] += 1
            if a.kind == "accept":
                seen["redeals"] += 1
            s.play(a)
        seen["rounds"] += len(s.results)
        seen["chkobbas"] += sum(sum(r.chkobba) for r in s.results)
        seen["all_diamonds"] += sum(r.all_diamonds is not None for r in s.results)
        check_scores(s)
        assert s.winner in (0, 1)
        assert s.games[s.winner] == opts.match // 2 + 1
    return seen


def test_soak_random_matches() -> None:
    n = int(os.environ.get("CHKOBBA_SOAK", "500"))
    seen = soak(n)
    assert seen["claims"] > 0 and seen["chkobbas"] > 0 and seen["redeals"] > 0
