"""Stateful property test of the facade's call sequences (issue 21): game
tables (one person against the computer, pass-and-play partners, Seven
Diamonds) and embeds (a replay and a "play from here" opened from the
tables' own Share links), driven by good calls and bad ones in any order.

Invariants after every step:
- a refused call changes nothing: every table's and embed's answer is the
  same before and after it;
- every answer speaks to its reader's seat: the reader's own moves in the
  second person (``move.you.*``) and nobody else's; no "you" at all for a
  spectator (a replay); the result line names the reader's side ("You
  win"/"Your side wins" exactly when the reader's side won), and a
  spectator's names the winning side by number.

``CHKOBBA_FUZZ=N`` runs N times more examples (the documented long run:
``CHKOBBA_FUZZ=20 .venv/bin/python -m pytest -q tests/test_facade_machine.py``).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from chkobba import web
from chkobba.messages import MESSAGES

FUZZ = max(1, int(os.environ.get("CHKOBBA_FUZZ", "1")))
EASY = {"kind": "computer", "level": "easy"}
HUMAN = {"kind": "human"}
TABLES: dict[str, dict[str, Any]] = {
    "solo": {"game": "chkobba", "options": {"players": 2, "target": 11}, "seats": [HUMAN, EASY]},
    "rivals": {"game": "chkobba", "options": {"players": 2, "target": 11}, "seats": [HUMAN, HUMAN]},
    "partners": {"game": "chkobba", "options": {"players": 4, "target": 11}, "seats": [HUMAN, EASY, HUMAN, EASY]},
    "seven": {"game": "seven_diamonds", "options": {"players": 4, "target": 100, "timers": False},
              "seats": [HUMAN, EASY, EASY, EASY]},
}
EMBEDS = ("watch", "here")
SEEN = {"you": 0, "result": 0, "spectator_result": 0}   # what the run reached (printed with -s)
WINS = {"you": True, "your_side": True, "computer": False, "opponent": False, "other_side": False}


def call(name: str, **args: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(web.call(name, json.dumps(args)))
    assert set(out) in ({"ok"}, {"error", "code", "params"}), out
    return out


def check_speaks_to_reader(st: dict[str, Any]) -> None:
    """The answer ``st`` speaks to its reader (``human``; none if ``spectator``)."""
    reader = None if st["spectator"] else st["human"]
    moves = st["moves"] + st["last_round_moves"] + ([st["view"]["last"]] if st["view"].get("last") else [])
    for m in moves:
        code = m["code"]
        if reader is None or m["seat"] != reader:
            assert not code.startswith("move.you."), (reader, m)
        elif "move.you." + code.split(".", 1)[1].removeprefix("you.") in MESSAGES:
            assert code.startswith("move.you."), (reader, m)
    SEEN["you"] += any(m["code"].startswith("move.you.") for m in moves)
    result = st["sheet"]["result"]
    if result is None:
        return
    SEEN["result" if reader is not None else "spectator_result"] += 1
    code, params = result["code"], result["params"]
    who = next(w for w in ("your_side", "other_side", "side", "you", "computer", "opponent") if code.endswith("_" + w))
    winner = params["side"]
    if reader is None:
        assert who == "side" and result["text"].startswith(f"Side {winner + 1} "), result
    else:
        mine = next(i for i, seats in enumerate(st["sides"]) if reader in seats)
        assert who in WINS and WINS[who] == (winner == mine), (reader, result)
        if who in ("computer", "opponent"):     # a person across the table is not "the computer"
            other = next(i for i in range(len(st["seats"])) if i != reader)
            assert (who == "opponent") == (st["seats"][other]["kind"] == "human"), (st["seats"], result)


class FacadeCalls(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        web.reset_tables()
        self.open: set[str] = set()
        self.embeds: set[str] = set()
        self.answers: list[dict[str, Any]] = []

    # ---------------------------------------------------------- what is there
    def snapshot(self) -> dict[str, Any]:
        out = {tid: call("state", table=tid) for tid in sorted(self.open)}
        for eid in sorted(self.embeds):
            e = web.STORE.embeds.items.get(eid)
            out["embed:" + eid] = None if e is None else json.dumps(e.to_json(), sort_keys=True)
        return out

    def answered(self, out: dict[str, Any]) -> dict[str, Any]:
        if "ok" in out:
            st = out["ok"].get("state", out["ok"])
            if isinstance(st, dict) and "sheet" in st:
                self.answers.append(st)
        return out

    def refused_changes_nothing(self, name: str, **args: Any) -> dict[str, Any]:
        before = self.snapshot()
        out = call(name, **args)
        if "error" in out:
            assert out["error"] and "\n" not in out["error"]
            assert self.snapshot() == before, (name, args, out)
        return self.answered(out)

    # ------------------------------------------------------------------ tables
    @rule(tid=st.sampled_from(sorted(TABLES)), seed=st.integers(0, 50))
    def start(self, tid: str, seed: int) -> None:
        out = self.answered(call("start", table=tid, seed=seed, **TABLES[tid]))
        assert "ok" in out, out
        self.open.add(tid)

    @precondition(lambda self: self.open)
    @rule(data=st.data(), moves=st.integers(1, 200))
    def play(self, data: st.DataObject, moves: int) -> None:
        """Good moves, as the page makes them: the person shown plays, the
        computer's move comes from ``choose``; hand-offs revealed and the
        device handed over after a round."""
        tid = data.draw(st.sampled_from(sorted(self.open)))
        rng = random.Random(data.draw(st.integers(0, 2**16)))
        for _ in range(moves):
            st_ = call("state", table=tid)["ok"]
            seat = st_["to_act"]
            if seat is None:
                return
            if st_["handoff"] is not None:
                self.answered(call("reveal", table=tid))
                continue
            if st_["seats"][seat]["kind"] == "human" and seat != st_["human"]:
                out = self.answered(call("hand_off", table=tid))
                assert out["ok"]["handoff"] == seat, out
                continue
            if st_["seats"][seat]["kind"] == "human":
                legal = web.table_session(tid).legal()
                action = rng.choice([a for a in legal if a != "timeout"] or legal)
            else:
                action = web.choose(st_["save"], seat)["action"]
            out = self.answered(call("act", table=tid, action=action, seat=seat))
            assert "ok" in out, out

    @precondition(lambda self: self.open)
    @rule(data=st.data(), action=st.sampled_from(["7D", "keep", "pass", "claim 7Dx7H", "", "zz", "timeout"]),
          seat=st.one_of(st.integers(-1, 4), st.sampled_from([None, "0", True])))
    def act_anyhow(self, data: st.DataObject, action: str, seat: Any) -> None:
        """Any action by any seat: played if it is a legal move of the seat
        whose turn it is and who holds the device, else refused unchanged."""
        tid = data.draw(st.sampled_from(sorted(self.open)))
        self.refused_changes_nothing("act", table=tid, action=action, seat=seat)

    @rule(name=st.sampled_from(["reveal", "hand_off", "state", "link_step", "link_act", "link_computer",
                                "link_judge", "share", "resume", "nope"]),
          table=st.sampled_from(sorted(TABLES) + list(EMBEDS) + ["none", "", "a b"]),
          extra=st.sampled_from([{}, {"index": -1}, {"index": 10**6}, {"action": "7D"}, {"save": {"v": 9}},
                                 {"reveal": "no"}, {"x": 1}]))
    def other_calls(self, name: str, table: str, extra: dict[str, Any]) -> None:
        self.refused_changes_nothing(name, table=table, **extra)

    # ------------------------------------------------------------------ embeds
    @precondition(lambda self: self.open)
    @rule(data=st.data(), which=st.sampled_from(["game", "position"]))
    def share_and_open(self, data: st.DataObject, which: str) -> None:
        tid = data.draw(st.sampled_from(sorted(self.open)))
        save = call("state", table=tid)["ok"]["save"]
        links = call("share", save=save, last_round=True)
        assert "ok" in links, links
        eid = "watch" if which == "game" else "here"
        out = self.answered(call("link_open", table=eid, link=links["ok"][which]))
        assert "ok" in out, out
        self.embeds.add(eid)

    @precondition(lambda self: "watch" in self.embeds)
    @rule(index=st.integers(-2, 400))
    def step(self, index: int) -> None:
        self.refused_changes_nothing("link_step", table="watch", index=index)

    @precondition(lambda self: "watch" not in self.embeds)
    @rule(seed=st.integers(0, 50))
    def watch_a_finished_match(self, seed: int) -> None:
        """A whole match played at the "rivals" table (random legal moves,
        hand-offs as the page does them), then watched to its end."""
        rng = random.Random(seed)
        if "rivals" not in self.open:
            self.start("rivals", seed)
        st_ = call("state", table="rivals")["ok"]
        while st_["to_act"] is not None:
            seat = st_["to_act"]
            if st_["handoff"] is not None:
                st_ = self.answered(call("reveal", table="rivals"))["ok"]
            elif seat != st_["human"]:
                st_ = self.answered(call("hand_off", table="rivals"))["ok"]
            else:
                legal = web.table_session("rivals").legal()
                st_ = self.answered(call("act", table="rivals", action=rng.choice(legal), seat=seat))["ok"]
        links = call("share", save=st_["save"], last_round=True)["ok"]
        assert "ok" in self.answered(call("link_open", table="watch", link=links["game"]))
        self.embeds.add("watch")
        self.step_to_the_end()

    @precondition(lambda self: "watch" in self.embeds)
    @rule()
    def step_to_the_end(self) -> None:
        e = web.STORE.embeds.items.get("watch")
        if e is not None:
            out = self.answered(call("link_step", table="watch", index=len(e.positions) - 1))
            assert "ok" in out, out

    @precondition(lambda self: "here" in self.embeds)
    @rule(data=st.data())
    def play_here(self, data: st.DataObject) -> None:
        e = web.STORE.embeds.items.get("here")
        if e is None or e.link.mode != "play" or e.session.to_act() is None:
            return
        if e.session.to_act() == e.reader:
            legal = e.session.legal()
            action = data.draw(st.sampled_from([a for a in legal if a != "timeout"] or legal))
            self.refused_changes_nothing("link_act", table="here", action=action)
        else:
            self.refused_changes_nothing("link_computer", table="here")

    # --------------------------------------------------------------- invariant
    @invariant()
    def every_answer_speaks_to_its_reader(self) -> None:
        for st_ in self.answers:
            check_speaks_to_reader(st_)
        self.answers.clear()


def test_facade_call_sequences() -> None:
    run_state_machine_as_test(FacadeCalls, settings=settings(
        max_examples=8 * FUZZ, stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))
    print("reached:", SEEN)
