"""Take-backs never show a card you had not already seen in the game as it
stands (issue 37): through the facade's calls, the same the page makes.

The rule (docs/daily.md, "Take-backs"; the rules page): a take-back never
goes back past a deal. Once cards were dealt after your last move (the cut
handing out the hands, an accepted re-deal's new deck, a new hand of three),
that move stays; what a take-back may have shown you is only what the other
seats played (practice against the computer). A tracker keeps every card
each view showed seat 0, per deck, other than the cards another seat
played; at every answer, the cards so kept of the deck being played must all
be cards seat 0 sees now.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chkobba import cards as C
from chkobba import web
from chkobba.session import Session
from facade_calls import call, err, ok

VS_MEDIUM = [{"kind": "human"}, {"kind": "computer", "level": "medium"}]
REDEAL_SEED = 48   # 1v1 against medium: seat 0 may propose a re-deal and medium accepts


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


class Sight:
    """What seat 0 was shown, per deck (the deck's cards in order): every card
    a view showed it except those another seat played in that view's round."""

    def __init__(self, seat: int = 0) -> None:
        self.seat = seat
        self.kept: dict[tuple[str, ...], int] = {}

    @staticmethod
    def deck(s: Session) -> tuple[str, ...]:
        rounds = s.record()["rounds"]
        return tuple(rounds[-1]["decks"][-1]) if rounds else ()

    def seen_now(self, s: Session) -> int:
        obs = s.observation(self.seat)
        seen = C.mask_of(s.state.full_deck()) & ~obs.unseen_mask()
        cut = getattr(obs, "cut_card", -1)
        return seen | (1 << cut if cut >= 0 else 0)

    def look(self, s: Session) -> None:
        """Seat 0 gets a view of session ``s``: check it, then keep what it showed."""
        deck = self.deck(s)
        seen = self.seen_now(s)
        shown_before = self.kept.get(deck, 0)
        leaked = shown_before & ~seen
        assert not leaked, f"seat {self.seat} was shown {C.codes(C.cards_of(leaked))} of this deck in a view taken back"
        played = 0
        for m in s.moves(s.latest_round()):
            if m["seat"] != self.seat and isinstance(m.get("card"), str):
                played |= 1 << C.card(m["card"])
        self.kept[deck] = shown_before | (seen & ~played)


def to_human(st_: dict[str, Any], sight: Sight | None = None, choose: str = "choose") -> dict[str, Any]:
    """Let the computer seats play (their own choice, as the page asks) until seat 0 is to act."""
    while True:
        s = web.table_session("main")
        seat = s.to_act()
        if seat is None or seat == 0:
            return st_
        action = ok(choose, save=st_["save"], seat=seat)["action"]
        st_ = ok("act", action=action, seat=seat)
        if sight is not None:
            sight.look(web.table_session("main"))


def test_a_redeal_taken_back_is_never_dealt_later() -> None:
    """The finding: propose a re-deal, the computer accepts, look at the new
    hand and table, take back to the question, pass: the next round was dealt
    from the very deck looked at. Now the take-back past that deal is refused
    in words, and the question stays answered."""
    st_ = ok("start", seed=REDEAL_SEED, seats=VS_MEDIUM)
    st_ = to_human(st_)
    while "propose" not in web.table_session("main").legal():
        st_ = to_human(ok("act", action=web.table_session("main").legal()[0], seat=0))
    st_ = ok("act", action="propose", seat=0)
    st_ = to_human(st_)
    s = web.table_session("main")
    assert len(s.record()["rounds"][0]["decks"]) == 2, "medium accepts the re-deal"
    if s.state.phase == "cut":
        st_ = to_human(ok("act", action="keep", seat=0))
    shown = {c for c in st_["view"]["hand"] + st_["view"]["table"]}
    assert len(shown) == 7
    out = err("take_back")
    assert out["code"] == "takeback.dealt"
    assert "dealt" in out["error"]
    assert ok("state")["save"] == st_["save"]          # nothing changed
    # play the round out (passing, refusing), then round 2: not from the deck looked at
    while len(web.table_session("main").record()["rounds"]) < 2:
        s = web.table_session("main")
        legal = s.legal()
        pick = next((a for a in ("pass", "refuse") if a in legal), legal[0])
        st_ = to_human(ok("act", action=pick, seat=0))
    s = web.table_session("main")
    computer = set(s.view(None)["hands"][1])
    assert not computer <= shown


def test_a_new_hand_ends_what_can_be_taken_back() -> None:
    """After a new hand of three, the moves of the hand before stay: taking
    one back would show the next hand's cards at the position before it."""
    st_ = ok("start", seed=5, seats=VS_MEDIUM)
    st_ = to_human(st_)
    while True:
        s = web.table_session("main")
        before = s.observation(0).deck_left
        st_ = to_human(ok("act", action=s.legal()[0], seat=0))
        if web.table_session("main").observation(0).deck_left < before and \
                len(web.table_session("main").record()["rounds"]) == 1:
            break
    assert st_["takeback"]["possible"] is False
    assert err("take_back")["code"] == "takeback.dealt"
    st_ = ok("act", action=web.table_session("main").legal()[0], seat=0)
    st_ = to_human(st_)
    if len(web.table_session("main").record()["rounds"]) == 1:
        assert st_["takeback"]["possible"] is True
        ok("take_back")


# ------------------------------------------------------------ the property

MOVE, BACK, RESUME = "move", "back", "resume"


@st.composite
def scripts(draw: st.DrawFn) -> tuple[str, int, str, list[tuple[str, int]]]:
    game = draw(st.sampled_from(["chkobba", "chkobba4", "seven_diamonds"]))
    seed = draw(st.one_of(st.just(REDEAL_SEED), st.integers(0, 5000)))
    level = draw(st.sampled_from(["easy", "medium"]))
    steps = draw(st.lists(st.tuples(st.sampled_from([MOVE, MOVE, MOVE, BACK, BACK, RESUME]), st.integers(0, 60)),
                          min_size=1, max_size=60))
    return game, seed, level, steps


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts())
def test_no_take_back_shows_a_card_of_the_game_as_it_stands(script: tuple[str, int, str, list[tuple[str, int]]]) -> None:
    """Any sequence of moves (re-deal questions and answers included: a move
    is any legal action, chosen by index), take-backs and resumes of the
    save: no view shows seat 0 a card of the deck being played that it saw
    before in a view since taken back, except the cards the other seats
    played."""
    web.reset_tables()
    game, seed, level, steps = script
    name = "seven_diamonds" if game == "seven_diamonds" else "chkobba"
    players = 2 if game == "chkobba" else 4
    options = {"players": players} if name == "chkobba" else {"timers": False}
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": level}] * (players - 1)
    sight = Sight()
    st_ = ok("start", game=name, options=options, seats=seats, seed=seed)
    sight.look(web.table_session("main"))
    st_ = to_human(st_, sight)
    for kind, index in steps:
        s = web.table_session("main")
        if s.is_over:
            break
        if kind == MOVE:
            legal = s.legal()
            st_ = to_human(ok("act", action=legal[index % len(legal)], seat=0), sight)
        elif kind == BACK:
            out = call("take_back")
            if "error" in out:
                assert out["code"] in ("takeback.nothing", "takeback.dealt"), out
                assert ok("state")["save"] == st_["save"]
                continue
            st_ = out["ok"]
            assert st_["to_act"] == 0
        else:
            web.reset_tables()
            st_ = ok("resume", save=st_["save"])
        sight.look(web.table_session("main"))
