"""The engines behave exactly as v0.1 did: a differential check kept as hashes.

Seeded random games of every option set are played through ``legal_actions``
and ``play`` (and, on the way, ``apply`` and ``copy``); every step's phase,
seat to act, legal actions (texts, in order), the visible state fields the
agents read, and every round's scoring feed one SHA-256 per group of option
sets. The literals below were computed on v0.1's engines (commit 91c6593,
before any speed work), so a faster engine must give the very same games:
same legal actions in the same order, same states, same scores.

If a rule change is ever intended, these hashes change with it: recompute them
with ``python tests/test_engine_equivalence.py`` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from typing import Any

import pytest

from chkobba.actions import CAPTURE, CLAIM, LAY, Action
from chkobba import cards as C
from chkobba.cards import CODES
from chkobba.games.chkobba.setup import setup
from chkobba.games.chkobba.state import DECK, VALUES, ChkobbaState, captures_on
from chkobba.games.seven_diamonds.state import SevenDiamondsState
from chkobba.options import ChkobbaOptions, SevenDiamondsOptions

MATCHES = 3  # random matches per Chkobba option set


def chkobba_groups() -> dict[str, list[dict[str, Any]]]:
    """Every combination of the rule options, grouped by players, capture and faces;
    each group also plays a few longer targets and matches."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for players, capture, faces in itertools.product((2, 4), ("optional", "compulsory"), ("QJK", "JQK")):
        sets = []
        for missed, sweep, redeal, alld in itertools.product((False, True), repeat=4):
            sets.append({"players": players, "capture": capture, "faces": faces, "missed_capture": missed,
                         "last_card_sweep": sweep, "redeal": redeal, "all_diamonds_wins": alld})
        sets.append({"players": players, "capture": capture, "faces": faces, "target": 21, "match": 3})
        sets.append({"players": players, "capture": capture, "faces": faces, "target": 31, "match": 5,
                     "all_diamonds_wins": True})
        groups[f"{players}-{capture}-{faces}"] = sets
    return groups


def _chkobba_visible(s: ChkobbaState) -> str:
    return repr((s.phase, s.to_act(), s.turn, s.dealer, s.hands, s.table, s.piles, s.chkobbas, s.claim,
                 s.last_capturer, s.deck_left, s.score, s.games, s.game_index, s.round_index, s.winner,
                 s.last_actor, s.redeal_next, s.log_len))


def chkobba_hash(option_sets: list[dict[str, Any]], seed: int) -> str:
    h = hashlib.sha256()
    for k, od in enumerate(option_sets):
        opts = ChkobbaOptions.from_dict(od)
        rng = random.Random(seed * 1000 + k)
        for _ in range(MATCHES):
            s = ChkobbaState.new(opts, rng.randrange(opts.players))
            rounds = 0
            while not s.is_over:
                if s.needs_deal:
                    if s.round_index >= 0 and not s.redeal_next:
                        h.update(repr([str(a) for a in s.history()]).encode())
                    deck = list(s.full_deck())
                    rng.shuffle(deck)
                    s.deal(deck)
                    rounds += 1
                    assert rounds < 1000
                    continue
                acts = s.legal_actions()
                h.update(("|".join([str(a) for a in acts]) + "#" + _chkobba_visible(s)).encode())
                a = acts[rng.randrange(len(acts))]
                r = rng.random()
                if r < 0.05:
                    # apply: a checked copy; the state it came from is left alone
                    before = _chkobba_visible(s)
                    t = s.apply(str(a))
                    assert _chkobba_visible(s) == before
                    s = t
                elif r < 0.08:
                    # a copy played on for a while leaves the original alone
                    before = _chkobba_visible(s)
                    c = s.copy()
                    for _ in range(rng.randrange(1, 12)):
                        if c.needs_deal or c.is_over:
                            break
                        la = c.legal_actions()
                        c.play(la[rng.randrange(len(la))])
                    assert _chkobba_visible(s) == before
                    s.play(a)
                else:
                    s.play(a)
            h.update(repr([r.details() for r in s.results]).encode())
            h.update(_chkobba_visible(s).encode())
    return h.hexdigest()[:16]


SEVEN_DIAMONDS_SETS: list[dict[str, Any]] = [
    {"calls": calls, "timers": timers, "target": target, "last_seven_bonus": bonus}
    for calls, timers, target, bonus in itertools.product(
        (False, True), (False, {"call": 10, "card": 12}), (1, 150, 500), (0, 200))
]


def _sd_visible(s: SevenDiamondsState) -> str:
    return repr((s.phase, s.to_act(), s.turn, s.dealer, s.hands, s.table, s.playable, s.spoken, s.multiplier,
                 s.doubler, s.voids, s.score, s.games, s.round_index, s.winner, s.last_actor, s.log_len,
                 s.legal_cards()))


def seven_diamonds_hash(option_sets: list[dict[str, Any]], seed: int, games: int) -> str:
    h = hashlib.sha256()
    for k, od in enumerate(option_sets):
        opts = SevenDiamondsOptions.from_dict(od)
        rng = random.Random(seed * 1000 + k)
        for _ in range(games):
            s = SevenDiamondsState.new(opts, rng.randrange(4))
            rounds = 0
            while not s.is_over and rounds < 12:
                if s.needs_deal:
                    if s.round_index >= 0:
                        h.update(repr([str(a) for a in s.history()]).encode())
                    deck = list(s.full_deck())
                    rng.shuffle(deck)
                    s.deal(deck)
                    rounds += 1
                    continue
                acts = s.legal_actions()
                h.update(("|".join([str(a) for a in acts]) + "#" + _sd_visible(s)).encode())
                h.update(repr([e.to_json() for e in s.event_log()]).encode())
                a = acts[rng.randrange(len(acts))]
                r = rng.random()
                if r < 0.05:
                    before = _sd_visible(s)
                    t = s.apply(str(a))
                    assert _sd_visible(s) == before
                    s = t
                elif r < 0.08:
                    before = _sd_visible(s)
                    c = s.copy()
                    for _ in range(rng.randrange(1, 12)):
                        if c.needs_deal or c.is_over:
                            break
                        la = c.legal_actions()
                        c.play(la[rng.randrange(len(la))])
                    assert _sd_visible(s) == before
                    s.play(a)
                else:
                    s.play(a)
            h.update(repr([r.details() for r in s.results]).encode())
            h.update(repr([e.to_json() for e in s.event_log()]).encode())
            h.update(_sd_visible(s).encode())
    return h.hexdigest()[:16]


# Computed on v0.1's engines (commit 91c6593, also checked out there with its old
# module paths chkobba.engine / chkobba.seven_diamonds): see the module docstring.
CHKOBBA_HASHES: dict[str, str] = {
    "2-compulsory-JQK": "39a78800b00eb159",
    "2-compulsory-QJK": "6be55875d3c9b8bd",
    "2-optional-JQK": "60518d785e49abfd",
    "2-optional-QJK": "411ba5e335314173",
    "4-compulsory-JQK": "bff505702d3c106d",
    "4-compulsory-QJK": "f9f686684aca0808",
    "4-optional-JQK": "449f3dbd9ceb892a",
    "4-optional-QJK": "687c56d42fbe6d23",
}

SEVEN_DIAMONDS_HASHES: dict[str, str] = {
    "calls=False": "0c0b7a377eb9b1f6",
    "calls=True": "5a9f669bf550099e",
}


@pytest.mark.parametrize("group", sorted(chkobba_groups()))
def test_chkobba_games_as_in_v0_1(group: str) -> None:
    assert chkobba_hash(chkobba_groups()[group], 1) == CHKOBBA_HASHES[group]


@pytest.mark.parametrize("calls", [False, True])
def test_seven_diamonds_games_as_in_v0_1(calls: bool) -> None:
    sets = [d for d in SEVEN_DIAMONDS_SETS if d["calls"] == calls]
    assert seven_diamonds_hash(sets, 1, 6) == SEVEN_DIAMONDS_HASHES[f"calls={calls}"]


def reference_play_actions(s: ChkobbaState) -> list[Action]:
    """The legal actions in play, from ``captures_on`` (the plain search) card by card."""
    values = s.values
    out = []
    if s.claim is not None:
        laid, before = s.claim
        out += [Action(CLAIM, laid, take) for take in captures_on(before, values[laid], values)]
    for c in s.hands[s.turn]:
        caps = captures_on(s.table, values[c], values) if s.table else []
        out += [Action(CAPTURE, c, take) for take in caps]
        if not (caps and s.options.capture == "compulsory"):
            out.append(Action(LAY, c))
    return out


@pytest.mark.parametrize("faces", ["QJK", "JQK"])
@pytest.mark.parametrize("capture", ["optional", "compulsory"])
def test_legal_actions_agree_with_the_plain_capture_search(faces: str, capture: str) -> None:
    """Random tables of every size (small values crowded in too), hands and claims:
    the fast generator (table summaries, cached sum recipes) lists what the plain
    search finds, in the same order, and agrees with itself on a second call."""
    rng = random.Random(f"{faces}{capture}")
    values = VALUES[faces]
    small = [c for c in DECK if values[c] <= 4]
    for trial in range(3000):
        pool = small if trial % 3 == 0 else list(DECK)
        cards = rng.sample(pool, min(len(pool), rng.randrange(2, 16)))
        hand = tuple(sorted(cards[:rng.randrange(1, 4)]))
        table = tuple(cards[len(hand):])
        options = {"faces": faces, "capture": capture}
        if table and capture == "optional" and rng.random() < 0.5 and len(table) > 1:
            # seat 0 lays the table's last card: seat 1 may claim its missed captures
            s = setup([[CODES[table[-1]]], C.codes(hand)], C.codes(table[:-1]), turn=0, options=options)
            s = s.apply(Action(LAY, table[-1]))
            assert s.claim == (table[-1], table[:-1])
        else:
            s = setup([[], C.codes(hand)], C.codes(table), turn=1, options=options)
        expected = reference_play_actions(s)
        assert s.legal_actions() == expected, (faces, capture, hand, table, s.claim)
        assert s.legal_actions() == expected


def test_the_hash_sees_a_different_game() -> None:
    """The check can fail: another seed gives another hash."""
    sets = chkobba_groups()["2-optional-QJK"][:2]
    assert chkobba_hash(sets, 1) != chkobba_hash(sets, 2)
    assert seven_diamonds_hash(SEVEN_DIAMONDS_SETS[:2], 1, 1) != seven_diamonds_hash(SEVEN_DIAMONDS_SETS[:2], 2, 1)


if __name__ == "__main__":
    for g, sets in sorted(chkobba_groups().items()):
        print(f'    "{g}": "{chkobba_hash(sets, 1)}",')
    for calls in (False, True):
        sets = [d for d in SEVEN_DIAMONDS_SETS if d["calls"] == calls]
        print(f'    "calls={calls}": "{seven_diamonds_hash(sets, 1, 6)}",')
