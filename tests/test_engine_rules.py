"""Table-driven tests of every Chkobba rule and option (RULES.md)."""

from __future__ import annotations

import pytest

from chkobba.actions import parse_action
from chkobba.cards import card, code
from chkobba.games.chkobba.state import ANSWER, CUT, DEAL, OVER, PLAY, REDEAL, ChkobbaState, card_values, score_round
from chkobba.errors import IllegalAction, InvalidAction, InvalidOptions
from chkobba.options import ChkobbaOptions
from positions import cards, deck_for, position, session_with


class Legal(list[str]):
    """Legal action texts; ``in`` accepts any order of captured cards."""

    def __contains__(self, text: object) -> bool:
        return str(parse_action(text)) in list(self)


def legal(s: ChkobbaState) -> Legal:
    return Legal(str(a) for a in s.legal_actions())


def canon(texts: list[str]) -> list[str]:
    return sorted(str(parse_action(t)) for t in texts)


# ----------------------------------------------------------------- card values
@pytest.mark.parametrize("faces,q,j,k", [("QJK", 8, 9, 10), ("JQK", 9, 8, 10)])
def test_face_values(faces: str, q: int, j: int, k: int) -> None:
    v = card_values(faces)
    assert [v[card(c)] for c in "QH JH KH".split()] == [q, j, k]
    assert [v[card(c)] for c in "AD 2D 3D 4D 5D 6D 7D".split()] == [1, 2, 3, 4, 5, 6, 7]


def test_faces_option_changes_captures() -> None:
    # a queen takes a 7 and an ace under QJK (8), a 7 and a 2 under JQK (9)
    s = position(["QH", "KC"], "7C AS 2D", options={"faces": "QJK"})
    assert "QHx7CAS" in legal(s)
    s = position(["QH", "KC"], "7C AS 2D", options={"faces": "JQK"})
    assert "QHx2D7C" in legal(s) and "QHx7CAS" not in legal(s)


# ----------------------------------------------------------------------- deal
def test_keep_deal_two_players() -> None:
    deck = deck_for("", [])
    sess = session_with(deck, first_dealer=0)
    s = sess.state
    assert s.phase == CUT and s.to_act() == 1
    assert s.observation(1).cut_card == card(deck[0])
    assert s.observation(0).cut_card == -1  # only the cutter sees the cut card
    s = s.apply("keep")
    assert sorted(s.hands[1]) == sorted(cards(" ".join(deck[0:3])))
    assert s.table == tuple(cards(" ".join(deck[3:7])))
    assert sorted(s.hands[0]) == sorted(cards(" ".join(deck[7:10])))
    assert s.phase == PLAY and s.to_act() == 1 and s.deck_left == 30


def test_keep_deal_four_players_order_of_play() -> None:
    deck = deck_for("", [])
    s = session_with(deck, options={"players": 4}, first_dealer=2).state
    assert s.to_act() == 3  # the cutter is on the dealer's right
    s = s.apply("keep")
    got = {seat: sorted(s.hands[seat]) for seat in range(4)}
    want = {3: deck[0:3], 0: deck[3:6], 1: deck[6:9], 2: deck[13:16]}
    assert got == {k: sorted(cards(" ".join(v))) for k, v in want.items()}
    assert s.table == tuple(cards(" ".join(deck[9:13])))
    assert s.to_act() == 3


def test_table_deal() -> None:
    deck = deck_for("", [])
    s = session_with(deck, options={"players": 4}, first_dealer=0).state.apply("table")
    assert s.table == tuple(cards(" ".join(deck[0:4])))
    for k, seat in enumerate([1, 2, 3, 0]):
        assert sorted(s.hands[seat]) == sorted(cards(" ".join(deck[4 + 3 * k:7 + 3 * k])))
    assert s.deck_left == 40 - 16


def test_new_hands_dealt_from_dealers_right_when_all_empty() -> None:
    deck = deck_for("KD KH KS KC", ["AD 2D 3D", "AH 2H 3H"], rest="4D 5D 6D 4H 5H 6H")
    sess = session_with(deck, first_dealer=0, options={"redeal": False},
                        actions=["table", "AD", "AH", "2D", "2H", "3D", "3H"])
    s = sess.state
    assert sorted(s.hands[1]) == cards("4D 5D 6D") and sorted(s.hands[0]) == cards("4H 5H 6H")
    assert s.to_act() == 1 and len(s.table) == 10


# ------------------------------------------------------------------- captures
CAPTURE_CASES = [
    # hand card, table, legal capture texts for that card
    ("5H", "5C 2D 3S", ["5Hx5C"]),                     # value before sum
    ("5H", "2D 3S 4C AC", ["5HxAC4C", "5Hx2D3S"]),      # several sums: player chooses
    ("7D", "7C 7S", ["7Dx7C", "7Dx7S"]),                # two singles: player chooses
    ("KD", "AC 2C 3C 4C", ["KDxAC2C3C4C"]),             # a four-card sum
    ("AH", "2C 3C", []),                                # nothing to take
    ("6S", "AC AD 4C", ["6SxACAD4C"]),
]


@pytest.mark.parametrize("hand,table,want", CAPTURE_CASES)
def test_capture_options(hand: str, table: str, want: list[str]) -> None:
    s = position([hand, "KC"], table)
    caps = [t for t in legal(s) if "x" in t]
    assert sorted(caps) == canon(want)
    assert hand in legal(s)  # optional capture: laying is always allowed


def test_sum_refused_when_value_on_table() -> None:
    s = position(["5H", "KC"], "5C 2D 3S")
    with pytest.raises(IllegalAction, match="5C is worth 5 like 5H: a card of the same value must be taken before any sum"):
        s.apply("5Hx2D3S")


@pytest.mark.parametrize("action,reason", [
    ("QHx7D", "QH is worth 8 and 7D is worth 7"),
    ("7Dx5C2D", "7D is not in your hand"),
    ("QHx5C2D", "QH is worth 8 and those cards add up to 7"),
    ("QHxAS", "AS is not on the table"),
    ("claim QHx7D", "there is no missed capture to claim now"),
    ("keep", '"keep" is not a move now'),
])
def test_illegal_moves_explained_and_state_unchanged(action: str, reason: str) -> None:
    s = position(["QH 3C", "KC"], "7D 5C 2D")
    before = (s.hands[:], s.table, s.piles[:], s.turn, s.log)
    with pytest.raises(IllegalAction) as e:
        s.apply(action)
    assert reason in str(e.value)
    assert (s.hands, s.table, s.piles, s.turn, s.log) == before


def test_capture_moves_cards_to_side_pile() -> None:
    s = position(["QH 3C", "KC"], "7D AS 2D").apply("QHx7DAS")
    assert s.table == (card("2D"),)
    assert s.piles[0] == (1 << card("QH")) | (1 << card("7D")) | (1 << card("AS"))
    assert s.last_capturer == 0 and s.to_act() == 1


# ----------------------------------------------------------- capture option
def test_compulsory_capture() -> None:
    opts = {"capture": "compulsory"}
    s = position(["5H 6C", "KC"], "5C 2D", options=opts)
    assert "5H" not in legal(s)
    with pytest.raises(IllegalAction, match="capture is compulsory"):
        s.apply("5H")
    assert "6C" in legal(s)  # a card that can't capture is laid
    s = position(["5H 6C", "KC"], "5C 2D", options={"capture": "optional"})
    assert "5H" in legal(s)


def test_compulsory_table_has_no_claims() -> None:
    s = position(["6C", "KC"], "2D", options={"capture": "compulsory"}).apply("6C")
    assert s.claim is None


# ------------------------------------------------------------ missed capture
def test_claim_of_missed_capture() -> None:
    s = position(["7S 2C", "AH 4H"], "3C 4D 5S")
    s = s.apply("7S")                                 # could have taken 3C 4D
    assert "claim 7Sx3C4D" in legal(s)
    s = s.apply("claim 7Sx3C4D")
    assert s.table == (card("5S"),)
    assert s.piles[1] == (1 << card("7S")) | (1 << card("3C")) | (1 << card("4D"))
    assert s.to_act() == 1                            # then the claimer plays as usual
    assert not any(a.startswith("claim") for a in legal(s))


def test_claim_judged_on_table_before_the_laid_card() -> None:
    # 7H laid next to 7C: it could only take 7C (value before sum), not 3D 4S
    s = position(["7H 2C", "AH 4H"], "7C 3D 4S").apply("7H")
    assert [t for t in legal(s) if t.startswith("claim")] == canon(["claim 7Hx7C"])
    with pytest.raises(IllegalAction, match="a card of the same value must be taken before any sum"):
        s.apply("claim 7Hx3D4S")
    # AH laid on 4C 3S could take nothing, even though it now sits beside them
    s = position(["AH 2C", "5H 4H"], "4C 3S").apply("AH")
    assert not [t for t in legal(s) if t.startswith("claim")]
    with pytest.raises(IllegalAction, match="could not have captured"):
        s.apply("claim AHx4C")


def test_claim_that_sweeps_is_a_chkobba() -> None:
    s = position(["5H 2C", "AH 4H"], "2D 3S").apply("5H").apply("claim 5Hx2D3S")
    assert s.table == () and s.chkobbas[1] == (card("5H"),)


def test_claim_chance_gone_after_the_turn() -> None:
    s = position(["5H 2C", "AH 4H"], "2D 3S").apply("5H").apply("AH")
    assert not any(t.startswith("claim") for t in legal(s))
    # the player after next can't claim either
    with pytest.raises(IllegalAction):
        s.apply("claim 5Hx2D3S")


def test_claims_off() -> None:
    s = position(["5H 2C", "AH 4H"], "2D 3S", options={"missed_capture": False}).apply("5H")
    assert not any(t.startswith("claim") for t in legal(s))
    with pytest.raises(IllegalAction, match="can't be claimed at this table"):
        s.apply("claim 5Hx2D3S")


def test_last_card_of_round_cannot_be_claimed() -> None:
    s = position(["5H", "AH"], "2D 3S", turn=1).apply("AH").apply("5H")
    # the round is over: the last card (5H) was laid and nobody plays after it
    assert s.phase in (DEAL, OVER) and s.claim is None


# --------------------------------------------------------------------- sweeps
def test_sweep_scores_chkobba_with_face_up_card() -> None:
    s = position(["7D 2C", "AH"], "3C 4S").apply("7Dx3C4S")
    assert s.chkobbas[0] == (card("7D"),)


@pytest.mark.parametrize("option,counted", [(False, 0), (True, 1)])
def test_sweep_with_last_card(option: bool, counted: int) -> None:
    s = position(["KH", ""], "KC", turn=0, options={"last_card_sweep": option}).apply("KHxKC")
    assert s.results[-1].chkobba == (counted, 0)
    assert s.results[-1].cards == (2, 0)


def test_sweep_earlier_in_last_hand_counts() -> None:
    s = position(["KH AS", "2C"], "KC", turn=0).apply("KHxKC")
    assert s.chkobbas[0] == (card("KH"),)
    s = s.apply("2C").apply("AS")
    assert s.results[-1].chkobba[0] == 1


# ----------------------------------------------------------- end of a round
def test_leftovers_go_to_last_capturer_without_chkobba() -> None:
    s = position(["2H", "3S"], "2C 5D", turn=0).apply("2Hx2C").apply("3S")
    r = s.results[-1]
    assert r.leftovers_to == 0 and set(r.leftovers) == set(cards("5D 3S"))
    assert r.cards == (4, 0) and r.chkobba == (0, 0)


def test_leftovers_go_to_nobody_if_nobody_captured() -> None:
    s = position(["2H", "3S"], "5D", turn=0).apply("2H").apply("3S")
    r = s.results[-1]
    assert r.leftovers_to is None and r.cards == (0, 0)


# -------------------------------------------------------------------- scoring
def _masks(a: str, b: str) -> list[int]:
    from chkobba.cards import mask_of
    return [mask_of(cards(a)), mask_of(cards(b))]


SCORING_CASES = [
    # pile 0, pile 1, chkobbas, expected (karta, dinari, barmila, haya, points)
    ("7D 7H 6D", "AC", (0, 0), ((1, 0), (1, 0), (1, 0), (1, 0), (4, 0))),
    ("7D 2C", "7H 3C", (0, 0), ((0, 0), (1, 0), (0, 0), (1, 0), (2, 0))),       # baji on karta and sevens
    ("7H 6H 2C", "7S 6S 6C", (0, 0), ((0, 0), (0, 0), (0, 1), (0, 0), (0, 1))),  # barmila falls back to sixes
    ("7H 6H", "7S 6S", (0, 0), ((0, 0), (0, 0), (0, 0), (0, 0), (0, 0))),        # still tied: nobody
    ("AD 2D 3H", "7D AS", (2, 1), ((1, 0), (1, 0), (0, 1), (0, 1), (4, 3))),
]


@pytest.mark.parametrize("a,b,chk,want", SCORING_CASES)
def test_scoring(a: str, b: str, chk: tuple[int, int], want: tuple[tuple[int, int], ...]) -> None:
    r = score_round(_masks(a, b), chk, game=0)
    assert (r.karta, r.dinari, r.barmila, r.haya, r.points) == want


# ------------------------------------------------------------------- winning
def _end_round(score: tuple[int, int], pile0: str, pile1: str, options: dict[str, object] | None = None,
               games: tuple[int, int] = (0, 0)) -> ChkobbaState:
    """Play the last card of a round whose piles are given, from ``score``."""
    s = position(["2H", ""], "", turn=0, options=options, piles=(pile0, pile1), score=score, games=games)
    return s.apply("2H")


def test_one_side_reaches_target() -> None:
    s = _end_round((9, 3), "7D 7H 6D AD", "AC")
    assert s.score == (13, 3) and s.winner == 0 and s.phase == OVER and s.games == (1, 0)


def test_both_reach_target_higher_wins() -> None:
    s = _end_round((10, 10), "7D 7H 6D AD", "AC")     # 4 points to 0
    assert s.winner == 0 and s.score == (14, 10)


def test_both_reach_target_equal_plays_on() -> None:
    s = _end_round((10, 10), "7D 2C", "7H 3C AD")      # side 0: haya; side 1: karta -> 11 - 11
    assert s.score == (11, 11) and s.winner is None and s.phase == DEAL


def test_best_of_three_games() -> None:
    opts = {"match": 3}
    s = _end_round((10, 0), "7D 7H 6D AD", "AC", options=opts)
    assert s.games == (1, 0) and s.winner is None and s.score == (0, 0) and s.game_index == 1
    s = _end_round((10, 0), "7D 7H 6D AD", "AC", options=opts, games=(1, 1))
    assert s.games == (2, 1) and s.winner == 0 and s.phase == OVER and s.score == (14, 0)


def test_all_diamonds_wins_game_at_once() -> None:
    diamonds = "AD 2D 3D 4D 5D 6D 7D JD QD KD"
    s = _end_round((0, 10), diamonds, "7H 7S 7C 6H 6S AC AH AS", options={"all_diamonds_wins": True})
    assert s.winner == 0 and s.results[-1].all_diamonds == 0
    # side 1 reaches 11 in the same round, but all ten diamonds win whatever the score
    assert s.results[-1].points == (3, 1) and s.score == (3, 11) and s.games == (1, 0)
    s = _end_round((0, 0), diamonds, "AC", options={"all_diamonds_wins": False})
    assert s.winner is None


def test_dealer_rotates_and_cutter_plays_first() -> None:
    sess = session_with(deck_for("", []), first_dealer=1)
    assert sess.state.dealer == 1 and sess.to_act() == 0
    s = position(["2H", ""], "", turn=0, dealer=1)
    s = s.apply("2H")
    assert s.dealer == 0 and s.phase == DEAL


# -------------------------------------------------------------------- re-deal
REDEAL_DECK = deck_for("5C 5D 5H 2S", [])


def test_redeal_offered_when_three_of_a_value() -> None:
    sess = session_with(REDEAL_DECK, first_dealer=0, actions=["table"])
    s = sess.state
    assert s.phase == REDEAL and s.to_act() == 1 and legal(s) == ["pass", "propose"]
    s2 = s.apply("pass").apply("pass")
    assert s2.phase == PLAY and s2.to_act() == 1      # nobody proposed: play starts with the cutter
    s3 = s.apply("propose")
    assert s3.phase == ANSWER and s3.to_act() == 0 and legal(s3) == ["accept", "refuse"]
    assert s3.apply("refuse").phase == PLAY


def test_accepted_redeal_uses_next_deck_same_dealer() -> None:
    # a record stopping at "accept" must list the next deck (RECORDS.md, strict reading): the session deals it
    sess = session_with(REDEAL_DECK, first_dealer=0, actions=["table", "propose"])
    sess.apply("accept")
    assert sess.state.phase == CUT and sess.state.dealer == 0 and sess.to_act() == 1
    rec = sess.record()
    assert len(rec["rounds"]) == 1 and len(rec["rounds"][0]["decks"]) == 2


def test_redeal_four_players_answered_by_next_opponent() -> None:
    sess = session_with(REDEAL_DECK, options={"players": 4}, first_dealer=0, actions=["table", "pass"])
    s = sess.state
    assert s.to_act() == 2
    s = s.apply("propose")
    assert s.to_act() == 3


def test_redeal_off_and_two_of_a_value() -> None:
    assert session_with(REDEAL_DECK, options={"redeal": False}, actions=["table"]).state.phase == PLAY
    deck = deck_for("5C 5D 2H 2S", [])
    assert session_with(deck, actions=["table"]).state.phase == PLAY


def test_redeal_by_value_not_rank() -> None:
    # QJK: the queen is 8, so Q Q Q is three of a value; under JQK J J J is.
    deck = deck_for("QC QD QH 2S", [])
    assert session_with(deck, actions=["table"]).state.phase == REDEAL


# ---------------------------------------------------------------- actions text
@pytest.mark.parametrize("text", ["keep", "table", "propose", "pass", "accept", "refuse", "QH",
                                  "QHx7DAS", "claim QHx7DAS", "KDxAC2C3C4C"])
def test_action_text_round_trip(text: str) -> None:
    a = parse_action(text)
    assert parse_action(str(a)) == a
    assert sorted(str(a)) == sorted(text)


def test_capture_order_does_not_matter() -> None:
    assert parse_action("QHxAS7D") == parse_action("QHx7DAS")


@pytest.mark.parametrize("text", ["", "Q", "QHx", "ZZ", "claim QH", "QHxQH", "QHx7D7D", "8H"])
def test_bad_action_text(text: str) -> None:
    s = position(["QH", "KC"], "7D")
    with pytest.raises(InvalidAction):
        s.apply(text)


@pytest.mark.parametrize("options,fragment", [
    ({"target": 12}, '"target" must be one of 11, 21, 31'),
    ({"players": 3}, '"players" must be one of 2, 4'),
    ({"faces": "KQJ"}, '"faces"'),
    ({"colour": "red"}, 'unknown option "colour"'),
    ({"capture": "always"}, '"capture"'),
    ({"match": 2}, '"match"'),
    ({"redeal": "yes"}, '"redeal" must be true or false'),
])
def test_bad_options(options: dict[str, object], fragment: str) -> None:
    with pytest.raises(InvalidOptions) as e:
        ChkobbaOptions.from_dict(options)
    assert fragment in str(e.value)


def test_options_defaults() -> None:
    assert ChkobbaOptions.from_dict({}).to_dict() == {
        "players": 2, "faces": "QJK", "capture": "optional", "missed_capture": True,
        "last_card_sweep": False, "redeal": True, "target": 11, "match": 1, "all_diamonds_wins": False}


def test_cards_codes() -> None:
    assert code(card("7D")) == "7D"
    with pytest.raises(InvalidAction):
        card("1D")
