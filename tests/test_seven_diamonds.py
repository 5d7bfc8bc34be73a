"""Table-driven tests of every Seven Diamonds rule (RULES.md), its records,
its error messages and its view."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

import pytest

from chkobba.actions import Action, LAY
from chkobba.cards import card, code, mask_of
from chkobba.errors import IllegalAction, InvalidAction, InvalidRecord
from chkobba.records import replay, summary
from chkobba.games.seven_diamonds.state import (CALLS, DEAL, DECK, DECK_MASK, PLAY, Event, SevenDiamondsState,
                                    score_round)
from chkobba.session import Session

EXAMPLES = Path(__file__).parent / "examples"   # copies of the shared examples (tests/examples/README.md)
REPO = Path(__file__).resolve().parent.parent

NO_CALLS = {"calls": False, "timers": False}


def deck_for(hands: Sequence[str], dealer: int) -> list[int]:
    """The deck that deals ``hands`` (by seat, eight codes each) when ``dealer`` deals."""
    out: list[int] = []
    for k in range(4):
        out += [card(c) for c in hands[(dealer + 1 + k) % 4].split()]
    assert sorted(out) == sorted(DECK), "the hands must be the 32 cards"
    return out


def state(hands: Sequence[str], options: dict[str, Any] | None = None, dealer: int = 3) -> SevenDiamondsState:
    return SevenDiamondsState.new(options if options is not None else NO_CALLS, dealer, deck_for(hands, dealer))


def run(s: SevenDiamondsState, actions: str) -> SevenDiamondsState:
    for t in actions.split(","):
        s = s.apply(t.strip())
    return s


def legal(s: SevenDiamondsState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def events(s: SevenDiamondsState) -> list[list[Any]]:
    return [e.to_json() for e in s.event_log()]


# Each seat holds one suit: nobody ever passes, seat 0 goes out first.
SUITED = ["7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
          "7S 8S 9S TS JS QS KS AS", "7C 8C 9C TC JC QC KC AC"]
# Seat 0 holds every 7 and 8: after the opening the three others must pass.
LADDER = ["7D 7H 7S 7C 8D 8H 8S 8C", "9D 9H 9S 9C TD TH TS TC",
          "JD JH JS JC QD QH QS QC", "KD KH KS KC AD AH AS AC"]


# ------------------------------------------------------------------ deal
def test_deal_eight_each_from_the_dealers_right() -> None:
    deck = list(DECK)
    for dealer in range(4):
        s = SevenDiamondsState.new({}, dealer, deck)
        for k in range(4):
            assert s.hands[(dealer + 1 + k) % 4] == mask_of(deck[8 * k:8 * k + 8])
        assert s.phase == CALLS and s.to_act() == (dealer + 1) % 4


def test_dealer_moves_right_each_round() -> None:
    s = state(SUITED, dealer=2)
    s = run(s, ",".join(["7D", "7H", "7S", "7C"] + [f"{r}{x}" for r in "89TJQK" for x in "DHSC"] + ["AD"]))
    assert s.needs_deal and s.dealer == 3 and s.round_over()


@pytest.mark.parametrize("deck, message", [
    (DECK[:31], "a Seven Diamonds deck has 32 cards, this one has 31"),
    (DECK[:31] + (DECK[0],), "7D is twice in the deck"),
    (DECK[:31] + (card("6D"),), "6D is not a card of the Seven Diamonds deck (7 up to ace only)"),
])
def test_deck_validation(deck: Sequence[int], message: str) -> None:
    s = SevenDiamondsState.new({}, 0)
    with pytest.raises(InvalidAction) as e:
        s.deal(deck)
    assert str(e.value) == message
    assert s.needs_deal


# ----------------------------------------------------------------- calls
CALLS_CASES = [
    # actions so far (first speaker is seat 0), legal now, multiplier after all four
    ("", ["pass", "double"], None),
    ("pass", ["pass", "double"], None),
    ("double", ["pass", "triple"], None),                 # seat 1, other team: may triple
    ("double,pass", ["pass"], None),                      # seat 2, the doubler's partner: pass only
    ("double,pass,pass", ["pass", "triple"], None),       # seat 3, other team
    ("double,triple", ["pass"], None),                    # tripled once: nothing more
    ("pass,double", ["pass", "triple"], None),            # seat 2 (team 0) answers seat 1's double
    ("pass,double,pass", ["pass"], None),                 # seat 3 is the doubler's partner
    ("pass,pass,pass", ["pass", "double"], None),         # the last speaker may still double
    ("pass,pass,pass,pass", None, 1),
    ("double,pass,pass,pass", None, 2),
    ("pass,pass,pass,double", None, 2),
    ("double,pass,pass,triple", None, 3),
    ("pass,double,triple,pass", None, 3),
]


@pytest.mark.parametrize("actions, legal_now, multiplier", CALLS_CASES)
def test_calls(actions: str, legal_now: list[str] | None, multiplier: int | None) -> None:
    s = SevenDiamondsState.new({"timers": False}, 3, list(DECK))
    if actions:
        s = run(s, actions)
    if legal_now is not None:
        assert s.phase == CALLS and legal(s) == legal_now
    if multiplier is not None:
        assert s.phase == PLAY and s.multiplier == multiplier


@pytest.mark.parametrize("actions, bad, message", [
    ("", "triple", 'nobody has doubled: say "double" or "pass"'),
    ("double,pass", "triple", 'only the other team can triple: say "pass"'),
    ("double,triple", "triple", 'the round is already tripled: say "pass"'),
    ("double,triple", "double", 'the round is already tripled: say "pass"'),
    ("double", "double", 'the round is already doubled: say "triple" or "pass"'),
    ("double,pass", "double", 'the round is already doubled: say "pass"'),
    ("", "7D", 'it is the time for calls: seat 0 says "pass" or "double", not "7D"'),
    ("", "timeout", "there are no timers at this table"),
    ("pass,pass,pass,pass", "double", '"double" is a call, and the calls are over: lay a card'),
])
def test_call_errors(actions: str, bad: str, message: str) -> None:
    s = SevenDiamondsState.new({"timers": False}, 3, list(DECK))
    if actions:
        s = run(s, actions)
    before = s.observation(0), s.history(), s.hands[:]
    with pytest.raises(IllegalAction) as e:
        s.apply(bad)
    assert str(e.value) == message
    assert (s.observation(0), s.history(), s.hands) == before


def test_calls_off_skips_to_the_opening() -> None:
    s = state(LADDER, {"calls": False})
    assert s.phase == PLAY and s.to_act() == 0 and s.multiplier == 1
    assert legal(s) == ["7D", "timeout"]


def test_call_timeout_is_a_pass() -> None:
    s = SevenDiamondsState.new({}, 3, list(DECK))
    assert legal(s) == ["pass", "double", "timeout"]
    s = run(s, "timeout,double,timeout")
    assert s.to_act() == 3 and legal(s) == ["pass", "timeout"]
    assert events(s) == [[0, "timeout"], [0, "pass"], [1, "double"], [2, "timeout"], [2, "pass"]]
    assert [str(a) for a in s.history()] == ["timeout", "double", "timeout"]


# ------------------------------------------------------------------ play
def test_the_7d_holder_opens_with_it() -> None:
    for holder in range(4):
        hands = [SUITED[(k - holder) % 4] for k in range(4)]  # seat `holder` has the diamonds
        s = state(hands, {"calls": True, "timers": False}, dealer=0)
        s = run(s, "pass,pass,pass,pass")
        assert s.to_act() == holder and legal(s) == ["7D"]


def test_opening_error() -> None:
    s = state(LADDER)
    with pytest.raises(IllegalAction, match="^you hold 7D: the game opens with it$"):
        s.apply("7H")


def test_forced_passes_are_automatic_and_public() -> None:
    s = run(state(LADDER), "7D")
    assert s.to_act() == 0  # seats 1, 2 and 3 hold nothing that fits
    assert events(s) == [[0, "7D"], [1, "passed"], [2, "passed"], [3, "passed"]]
    assert [str(a) for a in s.history()] == ["7D"]  # forced passes are not actions
    assert legal(s) == ["8D", "7H", "7S", "7C"]  # a 7 opens a new suit; order D H S C
    gone = mask_of([card(c) for c in "8D 7H 7S 7C".split()])
    assert s.voids == (0, gone, gone, gone)
    s = s.apply("8D")
    assert s.to_act() == 1 and legal(s) == ["9D"]


def test_must_play_if_able() -> None:
    s = run(state(LADDER), "7D")
    with pytest.raises(IllegalAction) as e:
        s.apply("pass")
    assert str(e.value) == '"pass" is not a move now: you must lay a card when one fits (8D, 7H, 7S, 7C)'


@pytest.mark.parametrize("actions, bad, message", [
    ("7D", "8H", "8H can't be played: 7H is not on the table yet"),
    ("7D,7H", "9H", "9H is not in your hand"),
    ("7D,7H,7S", "7H", "7H is already on the table"),
    ("7D", "9D", "9D is not in your hand"),
])
def test_card_errors(actions: str, bad: str, message: str) -> None:
    s = run(state(LADDER), actions)
    before = (s.hands[:], s.table, s.playable, s.turn, events(s), s.history())
    with pytest.raises(IllegalAction) as e:
        s.apply(bad)
    assert str(e.value) == message
    assert (s.hands, s.table, s.playable, s.turn, events(s), s.history()) == before


def test_building_up_needs_the_card_below() -> None:
    # seat 0 lays 7D, then 7H (the others pass both times), then 8D: seat 1
    # may lay 9D but holds 9H while 8H is not down
    s = run(state(LADDER), "7D,7H,8D")
    assert s.to_act() == 1 and legal(s) == ["9D"]
    with pytest.raises(IllegalAction, match="^9H can't be played: 8H is not on the table yet$"):
        s.apply("9H")


@pytest.mark.parametrize("bad, message", [
    ("6D", '"6D": 6D is not a card of the Seven Diamonds deck (7 up to ace only)'),
    ("2C", '"2C": 2C is not a card of the Seven Diamonds deck (7 up to ace only)'),
    ("QHx7D", '"QHx7D": nothing is captured in Seven Diamonds; lay one card, like "9H"'),
])
def test_nothing_below_seven(bad: str, message: str) -> None:
    s = run(state(LADDER), "7D")
    with pytest.raises(InvalidAction) as e:
        s.apply(bad)
    assert str(e.value) == message


def test_last_card_is_announced() -> None:
    s = state(SUITED)
    s = run(s, ",".join(["7D", "7H", "7S", "7C"] + [f"{r}{x}" for r in "89TJQ" for x in "DHSC"] + ["KD"]))
    assert s.hands[0].bit_count() == 1
    assert events(s)[-1] == [0, "last card"]
    assert s.observation(2).events[-1] == Event(0, "last card")


# ---------------------------------------------------------------- timeout
TIMEOUT_CASES = [
    # actions before, the card the timeout lays (first legal in D H S C, then rank)
    ("", "7D"),                     # the opening
    ("7D", "8D"),                   # 8D 7H 7S 7C legal: diamonds first
    ("7D,8D,9D", "7H"),             # seat 0 again (seats 2 and 3 passed, seat... see test)
]


@pytest.mark.parametrize("before, played", TIMEOUT_CASES)
def test_card_timeout_plays_the_first_legal_card(before: str, played: str) -> None:
    s = state(LADDER, {"calls": False})
    if before:
        s = run(s, before)
    seat = s.to_act()
    assert seat is not None and legal(s)[-1] == "timeout"
    first = legal(s)[0]
    assert first == played
    after = s.apply("timeout")
    assert str(after.history()[-1]) == "timeout"
    assert after.event_log()[len(s.event_log()):][:2] == [Event(seat, "timeout"), Event(seat, "lay", card(played))]


def test_timeout_skipping_a_suit_is_a_public_void() -> None:
    # seat 1 may lay 7H or 7S (no diamond fits): a timeout lays 7H
    hands = ["7D 8D 9D TD JD QD KD AD", "7H 7S 8H 8S 9H 9S TH TS",
             "JH JS QH QS KH KS AH AS", "7C 8C 9C TC JC QC KC AC"]
    s = run(state(hands, {"calls": False}), "7D")
    assert s.to_act() == 1 and legal(s) == ["7H", "7S", "timeout"]
    s = s.apply("timeout")
    assert s.table & (1 << card("7H"))
    assert s.voids[1] == mask_of([card("8D")])  # 8D was playable and the rule would have laid it


# --------------------------------------------------------------- scoring
def hands_of(*hs: str) -> list[int]:
    return [mask_of([card(c) for c in h.split()]) for h in hs]


SCORING = [
    # winner, hands left (seat 0..3), last card, multiplier, bonus option -> cards, bonus, points
    (0, ("", "AH KH", "AS", "QC 9C"), "8D", 1, 200, 40, 0, (40, 0)),        # partner's AS never counts
    (0, ("", "AH KH", "AS", "QC 9C"), "7H", 1, 200, 40, 200, (240, 0)),     # last card a 7
    (0, ("", "AH KH", "AS", "QC 9C"), "7H", 2, 200, 40, 200, (480, 0)),     # multiplier after the bonus
    (0, ("", "AH KH", "AS", "QC 9C"), "7H", 3, 0, 40, 0, (120, 0)),         # bonus option 0
    (3, ("TD 9D 8D", "JH", "TC 9C", ""), "KS", 1, 200, 0, 0, (0, 0)),       # tens (and below) count 0
    (1, ("AD KD QD JD", "", "TS AS", "AC"), "9S", 2, 200, 70, 0, (0, 140)),  # seat 3's ace never counts
    (2, ("AD", "KH QH JH", "", "7C 8C"), "7S", 3, 500, 30, 500, (1590, 0)),
]


@pytest.mark.parametrize("winner, hands, last, mult, bonus_opt, cards, bonus, points", SCORING)
def test_scoring(winner: int, hands: tuple[str, ...], last: str, mult: int, bonus_opt: int,
                 cards: int, bonus: int, points: tuple[int, int]) -> None:
    r = score_round(winner, hands_of(*hands), card(last), mult, bonus_opt)
    assert (r.winner_team, r.cards, r.bonus, r.points, r.multiplier) == (winner & 1, cards, bonus, points, mult)
    assert r.to_dict() == {"game": 0, "winner_team": winner & 1, "multiplier": mult, "cards": cards,
                           "bonus": bonus, "points": list(points)}


def test_a_whole_round_scored() -> None:
    s = state(SUITED, {"calls": True, "timers": False})
    s = run(s, "double,triple,pass,pass,7D,7H,7S,7C")
    s = run(s, ",".join(f"{r}{x}" for r in "89TJQK" for x in "DHSC") + ",AD")
    assert s.needs_deal and s.round_over()
    assert s.results[0].to_dict() == {"game": 0, "winner_team": 0, "multiplier": 3, "cards": 40,
                                      "bonus": 0, "points": [120, 0]}
    assert s.score == (120, 0) and s.winner is None and s.games == (0, 0)
    assert events(s)[-2:] == [[0, "AD"], [0, "out"]]


# A random round (Session seed 1049): seat 1 doubles, seat 0 triples, seat 0
# goes out with 7C. Left: seat 1 TH QH TC AC (30), seat 3 JH AH 9C (30);
# seat 2's KH 8C JC QC KC are the partner's and never count.
BONUS_RECORD = {
    "game": "seven_diamonds",
    "options": {"players": 4, "calls": True, "target": 700, "last_seven_bonus": 200, "timers": False},
    "first_dealer": 0,
    "rounds": [{"decks": [["7H", "TS", "QS", "QH", "AC", "KS", "TH", "TC", "AS", "QC", "KC", "8S", "KH", "8C",
                           "TD", "JC", "JH", "JD", "8D", "AH", "7S", "JS", "9S", "9C", "7C", "AD", "9D", "7D",
                           "8H", "QD", "9H", "KD"]],
                "actions": ["double", "pass", "pass", "triple", "7D", "7H", "8D", "9D", "TD", "JD", "QD", "7S",
                            "KD", "8S", "9S", "AD", "TS", "JS", "8H", "QS", "9H", "KS", "AS", "7C"]}],
}


def test_bonus_and_triple_record_reaches_the_target() -> None:
    s = replay(BONUS_RECORD)
    assert summary(s) == {"game": "seven_diamonds",
                          "rounds": [{"game": 0, "winner_team": 0, "multiplier": 3, "cards": 60, "bonus": 200,
                                      "points": [780, 0]}],
                          "score": [780, 0], "games": [1, 0], "winner": 0, "complete": True}
    assert s.is_over and s.to_act() is None and s.legal_actions() == []
    assert s.results[0].details()["left"][1] == ["TH", "QH", "TC", "AC"]
    with pytest.raises(IllegalAction, match="^the game is over$"):
        s.apply("pass")


def test_below_target_the_game_goes_on() -> None:
    rec = json.loads(json.dumps(BONUS_RECORD))
    rec["options"]["target"] = 781
    s = replay(rec)
    assert s.phase == DEAL and s.score == (780, 0) and s.winner is None and s.dealer == 1
    assert summary(s)["complete"] is True


# --------------------------------------------------------------- records
def test_example_record() -> None:
    rec = json.loads((EXAMPLES / "seven-diamonds-game.json").read_text())
    expected = json.loads((EXAMPLES / "seven-diamonds-game.expected.json").read_text())
    assert summary(replay(rec)) == expected


def test_example_record_from_the_command_line() -> None:
    out = subprocess.run([sys.executable, "-m", "chkobba", "replay", str(EXAMPLES / "seven-diamonds-game.json")],
                         capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads((EXAMPLES / "seven-diamonds-game.expected.json").read_text())


def _example() -> dict[str, Any]:
    return json.loads((EXAMPLES / "seven-diamonds-game.json").read_text())


def _edit(r: int, i: int, text: str) -> dict[str, Any]:
    rec = _example()
    rec["rounds"][r]["actions"][i] = text
    return rec


@pytest.mark.parametrize("edit, message", [
    ((0, 2, "triple"), 'round 1, action 2 "triple": only the other team can triple: say "pass"'),
    ((0, 1, "double"), 'round 1, action 1 "double": the round is already doubled: say "triple" or "pass"'),
    ((0, 4, "8D"), 'round 1, action 4 "8D": you hold 7D: the game opens with it'),
    ((0, 5, "5S"), 'round 1, action 5 "5S": 5S is not a card of the Seven Diamonds deck (7 up to ace only)'),
    ((1, 4, "pass"), 'round 2, action 4 "pass": "pass" is not a move now: you must lay a card when one fits (7D)'),
])
def test_record_errors(edit: tuple[int, int, str], message: str) -> None:
    rec = _edit(*edit)
    with pytest.raises(InvalidRecord) as e:
        replay(rec)
    assert str(e.value) == message


def test_record_error_on_the_command_line() -> None:
    rec = _edit(0, 2, "triple")
    out = subprocess.run([sys.executable, "-m", "chkobba", "replay", "-"], input=json.dumps(rec),
                         capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.strip() == 'round 1, action 2 "triple": only the other team can triple: say "pass"'


def test_record_deck_errors() -> None:
    rec = _example()
    rec["rounds"][0]["decks"][0][5] = "6D"
    with pytest.raises(InvalidRecord) as e:
        replay(rec)
    assert str(e.value) == "round 1, deck 1: 6D is not a card of the Seven Diamonds deck (7 up to ace only)"
    rec = _example()
    rec["rounds"][0]["decks"][0].pop()
    with pytest.raises(InvalidRecord, match=r"^round 1, deck 1: a Seven Diamonds deck has 32 cards, this one has 31$"):
        replay(rec)


def test_record_stopping_mid_round() -> None:
    rec = _example()
    rec["rounds"] = rec["rounds"][:2]
    rec["rounds"][1]["actions"] = rec["rounds"][1]["actions"][:10]
    s = replay(rec)
    out = summary(s)
    assert out["complete"] is False and len(out["rounds"]) == 1 and out["score"] == [0, 80]
    assert s.phase == PLAY and len(s.history()) == 10


def test_record_after_the_game_is_over() -> None:
    rec = _example()
    rec["rounds"].append(rec["rounds"][0])
    with pytest.raises(InvalidRecord, match="^round 6: the match was already over after round 5$"):
        replay(rec)


# ----------------------------------------------------------- session/view
def test_session_view_hides_other_hands() -> None:
    ses = Session.new("seven_diamonds", {"timers": {"call": 10, "card": 12}}, seed=7)
    seat = ses.to_act()
    assert seat is not None
    v = ses.view(seat)
    json.dumps(v)
    assert v["game"] == "seven_diamonds" and v["phase"] == "calls" and len(v["hand"]) == 8
    assert v["legal"] == ["pass", "double", "timeout"]
    assert v["timer"] == {"kind": "call", "seconds": 10}
    other = ses.view((seat + 1) % 4)
    assert other["legal"] == [] and other["hand"] != v["hand"]
    assert set(other["hand"]).isdisjoint(v["hand"])
    text = json.dumps(other)
    for c in v["hand"]:
        assert f'"{c}"' not in text  # nothing of seat's hand shows in another view
    for a in ["pass"] * 4:
        ses.apply(a)
    v = ses.view(0)
    assert v["phase"] == "play" and v["timer"] == {"kind": "card", "seconds": 12}
    assert v["calls"] == [[s, "pass"] for s in [(ses.state.dealer + 1 + k) % 4 for k in range(4)]]
    assert v["table"] == {"D": [], "H": [], "S": [], "C": []} and v["multiplier"] == 1


def test_session_view_after_the_opening() -> None:
    ses = Session.new("seven_diamonds", {"calls": False, "timers": False}, seed=3)
    opener = ses.to_act()
    assert opener is not None and ses.legal() == ["7D"]
    ses.apply("7D")
    v = ses.view(opener)
    assert v["table"]["D"] == ["7D"] and v["events"][0] == [opener, "7D"]
    assert v["hand_counts"][opener] == 7 and v["last"]["action"] == "7D"


def test_observation_legal_actions_match_the_state() -> None:
    ses = Session.new("seven_diamonds", {}, seed=11)
    import random
    rng = random.Random(0)
    for _ in range(20):
        seat = ses.to_act()
        assert seat is not None
        assert ses.observation(seat).legal_actions() == ses.legal_actions()
        ses.apply(rng.choice(ses.legal()))


def test_action_text_round_trips() -> None:
    s = state(LADDER)
    for a in s.legal_actions():
        assert s.parse(str(a)) == a
    assert s.parse("7D") == Action(LAY, card("7D"))
    for loose in (" 7D ", "7D\n", "\t7D", "7D\u00a0"):  # strict reading: one canonical text
        with pytest.raises(InvalidAction, match="without spaces"):
            s.parse(loose)


def test_deck_is_the_32_cards() -> None:
    """Against an independent list: the 7 up to the ace of each suit, each once."""
    written = ("7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH "
               "7S 8S 9S TS JS QS KS AS 7C 8C 9C TC JC QC KC AC").split()
    assert len(DECK) == 32 and len(set(DECK)) == 32
    assert sorted(code(c) for c in DECK) == sorted(written)
    assert DECK_MASK.bit_count() == 32 and all((DECK_MASK >> card(c)) & 1 for c in written)
    assert SevenDiamondsState.full_deck() == DECK
    # the deal checks the mask: a deck with a 6 in place of a 7, or a card twice, is refused
    deck = list(DECK)
    for bad, why in [(deck[:-1] + [card("6D")], "not a card of the Seven Diamonds deck"),
                     (deck[:-1] + [deck[0]], "twice in the deck"), (deck[:-1], "has 31")]:
        with pytest.raises(InvalidAction, match=why):
            SevenDiamondsState.new({}, 0, bad)