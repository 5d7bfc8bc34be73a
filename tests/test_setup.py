"""The public position builders: ``games/chkobba/setup.py`` and
``games/seven_diamonds/setup.py``. A position built from its parts plays on
exactly like the same position reached by play; bad parts are refused with
one error saying what is wrong."""

from __future__ import annotations

import random
from typing import Any

import pytest

from chkobba import cards as C
from chkobba.errors import ChkobbaError, IllegalAction, InvalidAction, InvalidOptions
from chkobba.games.chkobba.setup import setup as chkobba_setup
from chkobba.games.seven_diamonds.setup import setup as seven_setup
from chkobba.games.seven_diamonds.state import CALLS, DEAL, OVER, PLAY
from chkobba.session import Session

# Seat 0 holds 7D; a full deal of the 32 cards, 8 each.
DEAL_8 = ["7D 8D 9D TD 7S 8S KC QH", "JD QD KD AD 8H 9H TH JH",
          "7H 9S TS JS QS KS AS 7C", "8C 9C TC JC QC AC KH AH"]
# The same after 7D 8D 7H 7S were laid (seat 0: 7D 8D 7S; seat 2: 7H).
LAID_4 = ["9D TD 8S KC QH", "JD QD KD AD 8H 9H TH JH", "9S TS JS QS KS AS 7C", "8C 9C TC JC QC AC KH AH"]
NO_CALLS = {"calls": False, "timers": False}


def refused(error: type[ChkobbaError], build: Any, *args: Any, **kwargs: Any) -> str:
    """The one error ``build`` raises, as its English text (one line)."""
    with pytest.raises(error) as e:
        build(*args, **kwargs)
    text = str(e.value)
    assert text and len(text.splitlines()) == 1
    return text


# ------------------------------------------------------------------ chkobba
def test_chkobba_score_and_games_play_on_from_the_position() -> None:
    s = chkobba_setup(["2H", ""], piles=("7D 7H 6D AD", "AC"), score=(9, 3))
    assert s.score == (9, 3) and s.games == (0, 0)
    after = s.apply("2H")     # karta, dinari, barmila, haya: 4 - 0
    assert after.score == (13, 3) and after.winner == 0 and after.phase == OVER
    s = chkobba_setup(["2H", ""], piles=("7D 7H 6D AD", "AC"), score=(10, 0), games=(1, 1),
                      options={"match": 3})
    assert s.game_index == 2
    after = s.apply("2H")
    assert after.games == (2, 1) and after.winner == 0 and after.results[-1].game == 2


def test_chkobba_level_past_the_target_is_a_game_in_play() -> None:
    s = chkobba_setup(["2H", ""], piles=("7D 2C", "7H 3C AD"), score=(11, 11))
    assert s.apply("2H").score == (12, 12)     # haya against karta: still level, plays on


@pytest.mark.parametrize("score", [(11, 3), (3, 12), (-1, 0), (1, 2, 3), "9-3", (1.0, 2), (True, 0)])
def test_chkobba_bad_score(score: Any) -> None:
    text = refused(InvalidAction, chkobba_setup, ["2H", ""], score=score)
    assert text.startswith("the score must be two whole numbers from 0 that do not end the game (target 11), not ")


def test_chkobba_bad_games() -> None:
    assert refused(InvalidAction, chkobba_setup, ["2H", ""], games=(1, 0)) == \
        "the games won must be two whole numbers from 0 to 0 (best of 1), not (1, 0)"
    assert refused(InvalidAction, chkobba_setup, ["2H", ""], games=(2, 0), options={"match": 3}) == \
        "the games won must be two whole numbers from 0 to 1 (best of 3), not (2, 0)"


def test_chkobba_bad_cards_and_seats() -> None:
    assert refused(InvalidAction, chkobba_setup, ["9H", ""]).startswith("9H is not a card of the Chkobba deck")
    assert refused(InvalidAction, chkobba_setup, ["2H", "2H"]) == "2H is twice in the deck"
    assert refused(InvalidAction, chkobba_setup, ["2H", "3H", "4H"], options={"players": 2}) == \
        "a 2-player position needs 2 hands, not 3"
    assert refused(InvalidAction, chkobba_setup, ["2H 3H 4H 5H", ""]) == "a hand holds at most 3 cards, not 4"
    assert refused(InvalidAction, chkobba_setup, ["2H", ""], turn=2) == "the seat to play must be from 0 to 1, not 2"


# ----------------------------------------------------------- seven diamonds
def test_seven_diamonds_calls_position() -> None:
    s = seven_setup(DEAL_8, dealer=3)
    assert s.phase == CALLS and s.to_act() == 0 and s.multiplier == 1
    assert [str(a) for a in s.legal_actions()] == ["pass", "double", "timeout"]
    s = seven_setup(DEAL_8, calls=["double"], dealer=3, score=(100, 200))
    assert s.to_act() == 1 and s.multiplier == 2 and s.score == (100, 200)
    assert [str(a) for a in s.legal_actions()] == ["pass", "triple", "timeout"]
    assert [e.kind for e in s.event_log()] == ["double"]
    # without a dealer, the one that makes ``turn`` the next speaker
    s = seven_setup(DEAL_8, calls=["pass", "double"], turn=2)
    assert s.dealer == 3 and s.to_act() == 2 and str(s.legal_actions()[1]) == "triple"


def test_seven_diamonds_after_the_calls_7d_opens() -> None:
    s = seven_setup(DEAL_8, calls=["pass", "double", "triple", "pass"], dealer=1)
    assert s.phase == PLAY and s.multiplier == 3 and s.to_act() == 0
    assert [str(a) for a in s.legal_actions()] == ["7D", "timeout"]
    s = seven_setup(DEAL_8, options=NO_CALLS)
    assert s.phase == PLAY and s.to_act() == 0 and s.multiplier == 1


def test_seven_diamonds_rows_on_the_table() -> None:
    s = seven_setup(LAID_4, laid="8D 7S 7D 7H", turn=0, options=NO_CALLS, score=(40, 0))
    assert C.codes(C.cards_of(s.table)) == ["7D", "8D", "7H", "7S"]
    assert [str(a) for a in s.legal_actions()] == ["9D", "8S"]
    s = seven_setup(LAID_4, laid="7D 8D 7H 7S", turn=1, calls=["pass"] * 4, dealer=2)
    assert s.multiplier == 1 and [str(a) for a in s.legal_actions()] == ["8H", "timeout"]


def test_seven_diamonds_round_scored_from_the_position() -> None:
    """Hand-checked against RULES.md: seat 1 lays its last card, 9D, and wins
    the round for team 1; the losing team (seats 0 and 2) still holds TD (0),
    KC (10) and AS (20): 30 points, no bonus (9D is not a 7), doubled: 60."""
    s = seven_setup(["TD KC", "9D", "AS", "JD QD KD AD AC"],
                    "7D 8D 7H 8H 9H TH JH QH KH AH 7S 8S 9S TS JS QS KS 7C 8C 9C TC JC QC",
                    turn=1, calls=["double", "pass", "pass", "pass"], dealer=3, score=(0, 250))
    after = s.apply("9D")
    res = after.results[-1]
    assert (res.winner_seat, res.winner_team, res.cards, res.bonus, res.multiplier, res.points) == \
        (1, 1, 30, 0, 2, (0, 60))
    assert after.score == (0, 310) and after.phase == DEAL and after.dealer == 0


def test_seven_diamonds_position_plays_on_like_the_game_it_comes_from() -> None:
    """Random games: at a random point of the first round's play, the state
    built from its hands, rows, calls, turn, dealer and score has the same
    legal moves at every step and ends the round with the same result."""
    for seed in range(12):
        rng = random.Random(seed)
        options: dict[str, Any] = {"timers": False} if seed % 3 else {"calls": False, "timers": False}
        sess = Session.new("seven_diamonds", options, seed=seed)
        stop = rng.randrange(0, 90)     # plies of play: often a later round, with a score
        while not (sess.state.phase == PLAY and stop <= 0) and not sess.is_over:
            if sess.state.phase == PLAY:
                stop -= 1
            sess.apply(rng.choice(sess.legal()))
        s: Any = sess.state
        if sess.is_over:
            continue
        calls = [str(a) for a in s.history() if str(a) in ("pass", "double", "triple")]
        built = seven_setup([C.codes(C.cards_of(h)) for h in s.hands], C.codes(C.cards_of(s.table)),
                            turn=s.turn, calls=calls, dealer=s.dealer, score=s.score, options=options)
        assert (built.multiplier, built.doubler, built.turn) == (s.multiplier, s.doubler, s.turn)
        while s.phase == PLAY:
            assert built.legal_actions() == s.legal_actions()
            a = rng.choice(s.legal_actions())
            s, built = s.apply(a), built.apply(a)
        assert built.results[-1].to_dict() == s.results[-1].to_dict()
        assert (built.score, built.phase, built.dealer) == (s.score, s.phase, s.dealer)


BAD_SEVEN: list[tuple[str, type[ChkobbaError], list[Any], dict[str, Any], str]] = [
    ("three hands", InvalidAction, [DEAL_8[:3]], {}, "a 4-player position needs 4 hands, not 3"),
    ("foreign card", InvalidAction, [[DEAL_8[0].replace("7S", "6S")] + DEAL_8[1:]], {},
     "6S is not a card of the Seven Diamonds deck (7 up to ace only)"),
    ("twice", InvalidAction, [[DEAL_8[0].replace("7S", "AH")] + DEAL_8[1:]], {}, "AH is twice in the deck"),
    ("missing", InvalidAction, [[DEAL_8[0].replace(" 7S", "")] + DEAL_8[1:]], {},
     "7S is nowhere: in a Seven Diamonds position each of the 32 cards is in a hand or laid"),
    ("gap in a row", InvalidAction, [["TD 8S KC QH", "JD QD KD AD 8H 9H TH JH 8D"] + LAID_4[2:], "7D 9D 7H 7S"],
     {"options": NO_CALLS}, "9D can't be played: 8D is not on the table yet"),
    ("a 7 before 7D", InvalidAction, [["7D 8D 9D TD 8S KC QH"] + LAID_4[1:], "7H 7S"], {"options": NO_CALLS},
     "7H can't be played: 7D is not on the table yet"),
    ("nine cards", InvalidAction, [[DEAL_8[0] + " 7H", DEAL_8[1], DEAL_8[2].replace("7H ", ""), DEAL_8[3]]], {},
     "a hand in play holds 1 to 8 cards, not 9"),
    ("turn out of range", InvalidAction, [LAID_4, "7D 8D 7H 7S"], {"turn": 4, "options": NO_CALLS},
     "the seat to play must be from 0 to 3, not 4"),
    ("turn without a card", InvalidAction, [LAID_4, "7D 8D 7H 7S"], {"turn": 3, "options": NO_CALLS},
     "seat 3 holds none of the cards that fit (9D, 8H, 8S, 7C): its turn would be passed, "
     "so it cannot be the seat to play"),
    ("7D opens", InvalidAction, [DEAL_8], {"turn": 2, "options": NO_CALLS},
     "seat 2 holds none of the cards that fit (7D): its turn would be passed, so it cannot be the seat to play"),
    ("cards laid in the calls", IllegalAction, [LAID_4, "7D 8D 7H 7S"], {"calls": ["pass"], "dealer": 3},
     'it is the time for calls: seat 1 says "pass" or "double", not "7D"'),
    ("speaker", InvalidAction, [DEAL_8], {"calls": ["pass"], "dealer": 3, "turn": 3},
     "with seat 3 dealing and 1 call(s) spoken, seat 1 speaks next, not seat 3"),
    ("a call the rules refuse", IllegalAction, [DEAL_8], {"calls": ["pass", "triple"]},
     'nobody has doubled: say "double" or "pass"'),
    ("a call after the calls", IllegalAction, [DEAL_8], {"calls": ["pass"] * 5},
     '"pass" is not a move now: you must lay a card when one fits (7D)'),
    ("score at the target", InvalidAction, [DEAL_8], {"score": (500, 0)},
     "the score must be two whole numbers from 0 that do not end the game (target 500), not (500, 0)"),
    ("score of one team", InvalidAction, [DEAL_8], {"score": (20,)},
     "the score must be two whole numbers from 0 that do not end the game (target 500), not (20,)"),
    ("dealer", InvalidAction, [DEAL_8], {"dealer": 4}, "the first dealer must be a seat from 0 to 3, not 4"),
    ("option", InvalidOptions, [DEAL_8], {"options": {"match": 3}}, 'unknown option "match" for seven diamonds (known: calls, last_seven_bonus, players, target, timers)'),
]


@pytest.mark.parametrize("name,error,args,kwargs,message", BAD_SEVEN, ids=[b[0] for b in BAD_SEVEN])
def test_seven_diamonds_bad_positions(name: str, error: type[ChkobbaError], args: list[Any],
                                      kwargs: dict[str, Any], message: str) -> None:
    text = refused(error, seven_setup, *args, **kwargs)
    assert text == message
