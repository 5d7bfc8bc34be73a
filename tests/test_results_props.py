"""Results you can trust, as a property (issue 37, "Done when"): any
sequence of the page's facade calls, mixing ordinary tables (Chkobba 1 v 1
and 2 v 2, Seven Diamonds; easy and medium computers), today's daily deal
and a past day's (both games), challenges started from links made of the
run's own finished matches, legal moves by index (cut, re-deal questions
and answers included: they are legal actions), take-backs, resumes of the
current save after a reload (``reset_tables``), and at a round's or match's
end the result recorded the way the page records it (``daily_result`` with
``stats``; ``challenge_result`` then ``stats_add`` for a challenge;
``stats_add`` for an ordinary match), and again after a reload.

Invariants, at every answer seat 0 gets:

- no card of the deck being played that a view since taken back showed
  seat 0, other than the cards other seats played (``Sight``,
  tests/test_results_takeback.py);
- no view shows seat 0 a card it has not been dealt or seen: what the
  observation sees and every card the answer names (hand, table, cut card,
  words, claim, history; the moves of this round and the round before) is
  among the cards the record has dealt to seat 0, laid on the table, shown
  it at the cut or had played since the deck being played was dealt (a
  Seven Diamonds round's end shows every hand left: its scoring);
- a refused take-back changes nothing; a take-back cuts the record's round
  (a prefix of it) and counts one.

And after every write of the statistics, every result they store is the
replay's: each match row's won, rounds, points, chkobbas and take-backs are
what replaying its save's record from scratch (``python -m chkobba replay``:
``records.summary(records.replay(...))``, the replay cache emptied first)
gives, and each daily row's points are its save's replayed first round and
its par the par round played apart (``chkobba.daily.par``); no row comes
from anywhere else, and a result recorded again (a reload at the end)
changes nothing.

``CHKOBBA_FUZZ=N`` runs N times more examples (random, not derandomized):
``CHKOBBA_FUZZ=5 .venv/bin/python -m pytest -q tests/test_results_props.py``.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule, run_state_machine_as_test

from chkobba import cards as C
from chkobba import daily as D
from chkobba import records, stats, web
from chkobba.session import Session
from facade_calls import call, ok
from test_results_takeback import REDEAL_SEED, Sight

FUZZ = max(1, int(os.environ.get("CHKOBBA_FUZZ", "1")))
TODAY, PAST = "2026-12-01", "2026-11-20"
NOON = 1_796_126_400            # 2026-12-01 12:00 UTC: "today" for every daily call
HUMAN = {"kind": "human"}
TABLES: dict[str, tuple[str, dict[str, Any], int]] = {
    "chkobba 1v1": ("chkobba", {"players": 2}, 2),
    "chkobba 1v1 re-deal": ("chkobba", {"players": 2}, 2),     # seed 48 against medium: a re-deal proposed and accepted
    "chkobba 2v2": ("chkobba", {"players": 4}, 4),
    "seven diamonds": ("seven_diamonds", {"timers": False, "target": 100}, 4),
}
CHOOSE = {"table": "choose", "daily": "daily_choose", "challenge": "challenge_choose"}
REFUSED = {"takeback.nothing", "takeback.dealt", "takeback.round_over"}
DAILY_ROUNDS = 2                # fresh daily deals per sequence (the daily computer's budget is fixed)
PLAY_OUTS = 3                   # rounds or matches played to their end per sequence
CARD = re.compile(r"[A2-9TJQK][DHSC]")
SEEN = {"answers": 0, "takebacks": 0, "refused": 0, "refused_dealt": 0, "daily": 0, "matches": 0, "challenges": 0,
        "redeals": 0, "resumes": 0}


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


# ------------------------------------------------------------ what seat 0 may see

def named(value: Any) -> int:
    """The cards named in ``value``'s texts (card codes, action texts), as a mask."""
    if isinstance(value, str):
        return C.mask_of(C.card(c) for c in CARD.findall(value))
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        out = 0
        for v in value:
            out |= named(v)
        return out
    return 0


def _mask(cards: Any) -> int:
    return cards if isinstance(cards, int) else C.mask_of(cards)


def _shows(state: Any, seat: int = 0) -> int:
    """What the position ``state`` puts before ``seat``: its hand, the table,
    the cut card to the cutter; every card at a Seven Diamonds round's end
    (the hands left are shown and counted)."""
    out = _mask(state.hands[seat]) | _mask(state.table)
    if state.game == "chkobba" and state.phase == "cut" and state.cutter == seat and state.deck:
        out |= 1 << state.deck[0]
    if state.game == "seven_diamonds" and not any(state.hands):
        out |= C.mask_of(state.full_deck())
    return out


def allowed(s: Session, seat: int = 0) -> int:
    """Every card ``seat`` has been dealt or seen since the deck being played
    was dealt, from the session's record alone: its round replayed from the
    round's start, one action at a time, each new deck of the round (a
    re-deal) starting afresh."""
    rec = records.parse_record(s.record())
    rnd = rec.rounds[-1]
    state = records.round_starts(rec)[-1].copy()
    dealt = 1
    out = _shows(state, seat)
    for text in rnd.actions:
        out |= named(text)                                  # played (and what it took from the table)
        a = state.parse(text)
        state = state.copy()
        state.play(a)
        out |= _shows(state, seat)
        if state.needs_deal and not state.is_over and state.deal_continues_round() and dealt < len(rnd.decks):
            state.deal([C.card(c) for c in rnd.decks[dealt]])
            dealt += 1
            out = _shows(state, seat)                       # a new deck: the old one's cards are no part of it
    return out


def played(s: Session, round_index: int) -> int:
    rounds = s.record()["rounds"]
    return named(rounds[round_index]["actions"]) if 0 <= round_index < len(rounds) else 0


def check_view(answer: dict[str, Any], s: Session, sight: Sight) -> None:
    """The answer seat 0 gets shows it only cards it was dealt or has seen."""
    ok_now = allowed(s)
    seen = sight.seen_now(s)
    assert not seen & ~ok_now, f"seat 0 sees {C.codes(C.cards_of(seen & ~ok_now))}, never dealt to it nor shown"
    view = answer["view"]
    assert "hands" not in view, "another seat's hand in seat 0's view"
    # (a Seven Diamonds view's own ``playable`` is the layout's open places: public)
    fields = [view.get(k) for k in ("hand", "table", "cut_card", "chkobba_cards", "history", "claim", "last_card")]
    fields += [answer["words"], answer["claim"], (answer.get("seven") or {}).get("playable")]
    shown = named(fields)
    assert not shown & ~ok_now, f"the answer shows seat 0 {C.codes(C.cards_of(shown & ~ok_now))}"
    latest = s.latest_round()
    for moves, r in ((answer["moves"], latest), (answer["last_round_moves"], latest - 1),
                     ([view["last"]] if view.get("last") else [], latest)):
        extra = named([[m["action"], m["card"], m["cards"]] for m in moves]) & ~played(s, r)
        assert not extra, f"a move shown names {C.codes(C.cards_of(extra))}, never played in its round"
    assert answer["save"]["record"] == s.record()


# ------------------------------------------------------------ the statistics, replayed

def replayed(record: dict[str, Any]) -> dict[str, Any]:
    """The replay output of a record, replayed from scratch (``python -m
    chkobba replay``'s: no kept replay reused)."""
    records.forget()
    out: dict[str, Any] = records.summary(records.replay(records.parse_record(json.dumps(record))))
    return out


def check_stats(data: dict[str, Any], matches: dict[str, dict[str, Any]],
                days: dict[tuple[str, str], dict[str, Any]]) -> None:
    """Every result the statistics ``data`` store is the replay's, and only
    the results recorded (``matches`` by id, ``days`` by date and game: their
    saves)."""
    assert {row[0] for row in data["matches"]} == set(matches), "a match counted that was not recorded, or lost"
    for row in data["matches"]:
        save = matches[row[0]]
        record = save["record"]
        out = replayed(record)
        group = data["groups"][row[1]]
        assert group["game"] == record["game"] and group["variant"] == stats.variant_of(record["game"],
                                                                                        record["options"])
        assert group["level"] == stats.level_of(save["seats"])
        rounds = out["rounds"]
        chkobbas = sum(r["chkobba"][0] for r in rounds) if record["game"] == "chkobba" else 0
        assert row[3:7] == [out["winner"] == 0, len(rounds), sum(r["points"][0] for r in rounds), chkobbas], \
            (row, out)
        assert (row[7] if len(row) > 7 else 0) == save.get("takebacks", 0)
    rows = data.get("daily", {"days": []})["days"]
    assert {(r[0], r[1]) for r in rows} == set(days), "a daily result counted that was not recorded, or lost"
    for date, game, points, par_points in rows:
        save = days[(date, game)]
        record = save["record"]
        fresh = D.daily(date, game).session().record()
        assert (record["options"], record["first_dealer"], record["rounds"][0]["decks"][0]) == \
            (fresh["options"], fresh["first_dealer"], fresh["rounds"][0]["decks"][0]), "not the day's deal"
        assert "takebacks" not in save
        assert points == replayed(record)["rounds"][0]["points"][0]
        assert par_points == D.par(date, game)["result"]["points"]      # par played apart, not the facade's


# ------------------------------------------------------------ the machine

class Results(RuleBasedStateMachine):
    """One page: its main table, its stored statistics and the challenge
    links its finished matches made."""

    def __init__(self) -> None:
        super().__init__()
        web.reset_tables()
        self.st: dict[str, Any] | None = None      # the main table's latest answer
        self.kind = "table"                        # table | daily | challenge
        self.daily: tuple[str, str] | None = None  # the daily table's (date, game)
        self.sight = Sight()
        self.takebacks = 0
        self.recorded = False
        self.stats: dict[str, Any] | None = None
        self.matches: dict[str, dict[str, Any]] = {}
        self.days: dict[tuple[str, str], dict[str, Any]] = {}
        self.links: list[tuple[str, int]] = []     # (link, the sender's take-backs)
        self.clock = 1_764_500_000_000
        self.fresh_dailies = 0
        self.outs = 0

    # ---------------------------------------------------------- helpers
    def session(self) -> Session:
        return web.table_session("main")

    def finished(self) -> bool:
        s = self.session()
        return D.round_over(s) if self.kind == "daily" else s.is_over

    def new_game(self, kind: str) -> None:
        self.kind, self.sight, self.takebacks, self.recorded = kind, Sight(), 0, False
        self.daily = None

    def look(self, answer: dict[str, Any]) -> None:
        s = self.session()
        self.sight.look(s)
        check_view(answer, s, self.sight)
        SEEN["answers"] += 1
        SEEN["redeals"] += answer.get("view", {}).get("last") is not None and answer["view"]["last"]["action"] == "accept"
        self.st = answer

    def after(self, answer: dict[str, Any]) -> None:
        """Seat 0 got ``answer``: the computers play as the page asks, each
        answer looked at; at the end the result is recorded."""
        self.look(answer)
        while not self.finished():
            seat = self.session().to_act()
            if seat is None or seat == 0:
                break
            assert self.st is not None
            action = ok(CHOOSE[self.kind], save=self.st["save"], seat=seat)["action"]
            self.look(ok("act", action=action, seat=seat))
        if self.finished() and not self.recorded:
            self.record()
            self.recorded = True

    def record(self, again: bool = False) -> None:
        """The result recorded as the page does at the round's (daily) or the
        match's end; ``again``: after a reload, when it is in already."""
        assert self.st is not None
        save = self.st["save"]
        before = self.stats
        if self.kind == "daily":
            assert self.daily is not None
            out = ok("daily_result", save=save, stats=self.stats, at=NOON)
            practice = self.daily in self.days
            assert out["practice"] is practice
            if practice:
                assert out["vs"] is None and out["stats"] == before, "a second attempt changed the day's result"
            else:
                assert out["vs"] and not again
                self.days[self.daily] = save
                SEEN["daily"] += 1
            self.stats = out["stats"]
        else:
            if self.kind == "challenge":
                res = ok("challenge_result", save=save)
                assert res["verdict"] in (-1, 0, 1)
                SEEN["challenges"] += 1
            mid = stats.match_id(save["record"])
            out = ok("stats_add", save=save, stats=self.stats, at=self.clock)
            self.clock += 60_000
            assert out["added"] is (mid not in self.matches) and out["added"] is not again
            if again:
                assert out["stats"] == before
            self.matches[mid] = save
            self.stats = out["stats"]
            SEEN["matches"] += 1
            if self.kind == "table" and not again:
                link = ok("challenge_link", save=save)
                assert link["takebacks"] == self.takebacks == save.get("takebacks", 0)
                self.links.append((link["link"], self.takebacks))
        assert self.stats is not None
        check_stats(self.stats, self.matches, self.days)

    # ---------------------------------------------------------- starts
    @rule(table=st.sampled_from(sorted(TABLES)), level=st.sampled_from(["easy", "easy", "easy", "medium"]),
          seed=st.one_of(st.just(48), st.integers(0, 5000)))
    def start(self, table: str, level: str, seed: int) -> None:
        game, options, players = TABLES[table]
        if table.endswith("re-deal"):
            seed, level = REDEAL_SEED, "medium"
        self.new_game("table")
        seats = [HUMAN] + [{"kind": "computer", "level": level}] * (players - 1)
        self.after(ok("start", game=game, options=options, seats=seats, seed=seed))

    @precondition(lambda self: self.fresh_dailies < DAILY_ROUNDS)
    @rule(game=st.sampled_from(["chkobba", "seven_diamonds"]), past=st.booleans())
    def start_daily(self, game: str, past: bool) -> None:
        key = (PAST if past else TODAY, game)
        going = self.kind == "daily" and self.daily == key and not self.finished()
        args: dict[str, Any] = {"date": PAST} if past else {}
        out = ok("daily_start", game=game, at=NOON, stats=self.stats, **args)
        assert out["resumed"] is going, "a round in progress dealt afresh (or one over resumed)"
        assert out["practice"] is (key in self.days)
        if going:
            assert self.st is not None
            assert out["save"] == self.st["save"] and out["view"] == self.st["view"]
        else:
            self.new_game("daily")
            self.daily = key
            self.fresh_dailies += 1
        self.after(out)

    @precondition(lambda self: bool(self.links))
    @rule(pick=st.integers(0, 10))
    def start_challenge(self, pick: int) -> None:
        link, takebacks = self.links[pick % len(self.links)]
        self.new_game("challenge")
        out = ok("challenge_start", link=link)
        assert out["sender"]["takebacks"] == takebacks
        self.after(out)

    # ---------------------------------------------------------- play
    @precondition(lambda self: self.st is not None and not self.finished())
    @rule(index=st.integers(0, 60))
    def move(self, index: int) -> None:
        s = self.session()
        assert s.to_act() == 0
        legal = s.legal()
        self.after(ok("act", action=legal[index % len(legal)], seat=0))

    @precondition(lambda self: self.st is not None and not self.finished() and self.outs < PLAY_OUTS)
    @rule(pick=st.integers(0, 60))
    def play_out(self, pick: int) -> None:
        """Seat 0 plays its ``pick``-th legal action until the round (daily)
        or the match is over."""
        self.outs += 1
        for _ in range(2000):
            if self.finished():
                break
            legal = self.session().legal()
            self.after(ok("act", action=legal[pick % len(legal)], seat=0))
        assert self.finished()

    @precondition(lambda self: self.st is not None)
    @rule()
    def take_back(self) -> None:
        before = ok("state")
        old = before["save"]["record"]
        out = call("take_back")
        if "error" in out:
            if self.kind != "table":
                assert out["code"] == "takeback.mode", out
            else:
                assert out["code"] in REFUSED, out
            assert ok("state") == before, "a refused take-back changed the table"
            SEEN["refused"] += 1
            SEEN["refused_dealt"] += out["code"] == "takeback.dealt"
            return
        assert self.kind == "table", "a take-back at a daily or challenge table"
        self.takebacks += 1
        SEEN["takebacks"] += 1
        st_ = out["ok"]
        new = st_["save"]["record"]
        assert st_["to_act"] == 0 and st_["takeback"]["count"] == self.takebacks == st_["save"]["takebacks"]
        assert new["rounds"][:-1] == old["rounds"][:-1] and len(new["rounds"]) == len(old["rounds"])
        cut, was = new["rounds"][-1], old["rounds"][-1]
        assert cut["decks"] == was["decks"] and cut["actions"] == was["actions"][:len(cut["actions"])]
        assert len(cut["actions"]) < len(was["actions"])
        self.after(st_)

    @precondition(lambda self: self.st is not None and not self.finished())
    @rule(index=st.integers(0, 60))
    def move_and_take_back(self, index: int) -> None:
        """What practice against the computer is: a move, the computer's
        answer, and the move taken back (or refused)."""
        self.move(index)
        self.take_back()

    @precondition(lambda self: self.st is not None)
    @rule()
    def resume(self) -> None:
        """A reload: the page resumes its save."""
        assert self.st is not None
        save = self.st["save"]
        web.reset_tables()
        out = ok("resume", save=save)
        SEEN["resumes"] += 1
        assert out["save"] == save and out["view"] == self.st["view"]
        self.after(out)

    @precondition(lambda self: self.st is not None and self.recorded)
    @rule()
    def record_again(self) -> None:
        """The end recorded again: after a reload, a match's counts nothing;
        a daily round's is practice (in the same page: after a reload its
        re-derivation is the daily computer's whole round again, too slow
        to repeat here; tests/test_daily_attempt.py has it)."""
        assert self.st is not None
        if self.kind != "daily":
            save = self.st["save"]
            web.reset_tables()
            self.look(ok("resume", save=save))
        self.record(again=True)


def test_any_sequence_of_calls_shows_no_card_unseen_and_stores_only_replayed_results() -> None:
    run_state_machine_as_test(Results, settings=settings(
        max_examples=16 * FUZZ, stateful_step_count=20, deadline=None, derandomize=FUZZ == 1, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))
    print("reached:", SEEN)
