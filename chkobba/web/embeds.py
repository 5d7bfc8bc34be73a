"""Embeds and shared links (docs/facade.md "Embeds", docs/embeds.md).

A link (:mod:`chkobba.links`, docs/links.md) opened at an embed table:
replay steps through its record (read by a spectator), play seats the
reader at its position against the computer (thinking here, on the page's
thread: an embed starts no worker), puzzle judges the reader's move with the
coach. Each answer is the one state answer (:func:`chkobba.web.answer.answer`)
for the embed's reader. ``share`` makes a saved game's links.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from .. import links
from ..agents import Budget, make_agent
from ..agents import hint as coach_hint
from ..errors import ChkobbaError
from ..positions import every_position, position
from ..protocol import JSON, JSONDict
from ..records import parse_record
from ..session import Session
from .answer import Reader, answer
from .edge import (Args, Seat, WebError, action, api, as_message, error_answer, flag, quote, render, safe, show,
                   table_id)
from .saves import STORE, load
from .tables import reason_message

EMBED_LEVEL = "medium"
PUZZLE_ROLLOUTS = 300


@dataclass
class Embed:
    """An open link: where it stands and whom it is read by.

    ``reader``: the seat the reader plays (play, puzzle), None for a replay;
    ``seat``: whose view is shown; ``every``: every hand shown (a replay
    without a seat to show); ``ranking``: the coach's, once worked out (a
    puzzle); ``marks``: the cards the reader may lay are marked (play);
    ``level``: the computer's, named only where it plays (play from here)."""

    id: str
    link: links.Link
    positions: list[tuple[int, int]]
    index: int
    session: Session
    reader: int | None
    seat: int
    every: bool = False
    marks: bool = False
    level: str | None = None
    ranking: list[JSONDict] | None = None     # the coach's (chkobba.agents.hint's actions)

    def seats(self) -> list[Seat]:
        # the players of a replayed record, a puzzle or a lesson were whoever they were
        return [Seat("human") if i == self.reader else Seat("computer", self.level)
                for i in range(self.session.players)]

    def state(self) -> dict[str, object]:
        """The state answer, seen from the embed's seat: its hand, or every
        hand (``view.hands``) when shown; worded for the reader (a replay's
        is a spectator)."""
        reader = Reader(seat=self.seat, speaks_to=self.reader, acts=self.reader is not None, every=self.every,
                        marks=self.marks)
        return answer(self.session, reader, self.seats(), table=self.id)

    def to_json(self) -> dict[str, object]:
        link = self.link
        here = self.positions[self.index]
        return {"table": self.id, "mode": link.mode, "game": link.record.game,
                "players": self.session.players, "show": link.show, "reasons": link.reasons,
                "reader": self.reader, "index": self.index, "count": len(self.positions),
                "over": self.session.is_over, "state": self.state(),
                # where the replay stands: (round, ply) and the actions of that round
                "at": list(here) if link.mode == "replay" else None,
                "plies": max(p for r, p in self.positions if r == here[0])}


def _embed(args: Args, mode: str) -> Embed:
    """The open embed table of the call, whose link must be in ``mode``."""
    tid = table_id(args)
    e = STORE.embeds.get(tid)
    if e is None:
        raise WebError("web.embed.no_table", table=quote(tid))
    if e.link.mode != mode:
        raise WebError("web.embed.mode", mode=e.link.mode)
    return e


def _replay_at(link: links.Link, at: tuple[int, int]) -> Session:
    """The session of a replay at ``at``, one of ``every_position(record)``
    ((0, 0): a record with no round, shown as it starts)."""
    session = Session.from_record(link.record, seed=0, at=None if at == (0, 0) else at)
    if at != (0, 0) and session.decks_dealt > sum(len(r.decks) for r in link.record.rounds):
        # The record ends at a round's end and the session dealt the next
        # round from seed 0: that deal is not in the link. Show the round's
        # end (the state before the deal) instead of an invented deal.
        session.state = position(link.record, at)[1]
    return session


@api("link")
def _link_open(args: Args) -> dict[str, object]:
    """Open a link (a ``c1.`` text) at an embed table: its mode, the view
    settings and the state at its position. A replay opened without a
    position opens at the first one (the deal, before the first move), as
    its label says; one with a position opens there."""
    tid = table_id(args)
    link = links.decode(args["link"])          # link.* refusals in words
    # only what the record holds: no deal drawn from seed 0 (every_position)
    positions = every_position(link.record) or [(0, 0)]
    at = link.at
    if at is None and link.mode == "replay":
        index = 0                       # a whole game replays from its start
    else:
        index = positions.index(at) if at in positions else len(positions) - 1
    if link.mode == "replay":
        session = _replay_at(link, positions[index])
    else:
        session = link.session(seed=0)
    reader = link.reader_seat() if link.mode != "replay" else None
    seat = reader if reader is not None else (link.show if link.show is not None else 0)
    play = link.mode == "play"
    e = Embed(tid, link, positions, index, session, reader, seat, every=link.show is None and link.mode == "replay",
              marks=play, level=(link.level or EMBED_LEVEL) if play else None)
    STORE.embeds.put(tid, e)
    return e.to_json()


@api("index")
def _link_step(args: Args) -> dict[str, object]:
    """Replay: the state at position ``index`` of the record (0 to count - 1)."""
    e = _embed(args, "replay")
    last = len(e.positions) - 1
    index = args["index"]
    if type(index) is not int or not 0 <= index <= last:
        raise WebError("web.embed.index", last=last, value=show(index))
    e.session = _replay_at(e.link, e.positions[index])
    e.index = index
    return e.to_json()


@api("action")
def _link_act(args: Args) -> dict[str, object]:
    """Play: the reader's move at the embed table (the engine's reason if illegal)."""
    e = _embed(args, "play")
    text = action(args["action"])
    s = e.session
    if s.to_act() is None:
        raise WebError("web.game_over")
    if s.to_act() != e.reader:
        raise WebError("web.embed.not_reader")
    fork = s.copy()
    fork.apply(text)
    e.session = fork
    return e.to_json()


@api()
def _link_computer(args: Args) -> dict[str, object]:
    """Play: the computer's move at the embed table; answers the state and the action."""
    e = _embed(args, "play")
    s = e.session
    seat = s.to_act()
    if seat is None:
        raise WebError("web.game_over")
    if seat == e.reader:
        raise WebError("web.embed.not_computer")
    history = s.state.history()
    rng = random.Random(f"embed/{s.state.round_index}/{len(history)}/{seat}")
    obs = s.observation(seat)
    text = str(make_agent(s.game, e.level or EMBED_LEVEL).choose(obs, obs.legal_actions(), rng))
    fork = s.copy()
    fork.apply(text)
    e.session = fork
    out = e.to_json()
    out["action"] = text
    return out


@api("action", optional=("reveal",))
def _link_judge(args: Args) -> dict[str, object]:
    """Puzzle: is the reader's move the best one? The engine's reason for an
    illegal move; the coach's ranking (kept for the table) for a legal one;
    the coach's reasons only when the link allows them."""
    e = _embed(args, "puzzle")
    text = action(args["action"])
    reveal = flag(args.get("reveal", False), "web.embed.reveal")
    s = e.session
    try:
        a = s.state.parse(text)
        s.state.verify_action(a)
    except ChkobbaError as exc:
        return {"right": False, "legal": False, "code": exc.code, "params": safe(exc.params),
                "text": error_answer(exc)["error"], "best": None}
    if e.ranking is None:
        assert e.reader is not None   # a puzzle has a reader
        e.ranking = coach_hint(s.observation(e.reader), random.Random("puzzle"),
                               Budget(rollouts=PUZZLE_ROLLOUTS, ms=10_000))["actions"]
    ranking = e.ranking
    best = [str(i["action"]) for i in ranking if i.get("rank", 1) == ranking[0].get("rank", 1)] or \
        [str(ranking[0]["action"])]
    right = str(a) in {str(s.state.parse(b)) for b in best}
    code = "web.embed.right" if right else "web.embed.wrong"
    out: dict[str, object] = {"right": right, "legal": True, "code": code, "params": {},
                              "text": render(code, {}), "best": None}
    if e.link.reasons:
        mine = next((i for i in ranking if str(i["action"]) == str(a)), None)
        top = ranking[0]
        out["reason"] = str((mine or {}).get("reason") or "")
        out["reason_message"] = _safe_message(mine) if mine else None
        if right or reveal:
            out["best"] = {"action": str(top["action"]), "reason": str(top.get("reason") or ""),
                           "message": _safe_message(top)}
    return out


def _safe_message(item: Mapping[str, object]) -> dict[str, JSON]:
    said = reason_message(item)
    return {"code": said["code"], "params": safe(said["params"])}


@api("save", optional=("last_round",))
def _share(args: Args) -> dict[str, object]:
    """Links of a saved game (the Share dialog): the game so far (replay),
    its current position, and each round replayed with every hand shown
    (with ``last_round: true``, only the latest round's: the round summary
    asks for that one, and a long match's links cost time per round)."""
    table_id(args)
    last_only = flag(args.get("last_round", False), "web.share.last_round")
    session, seats, _ = load(args["save"])
    data = session.record_data()
    record = parse_record(data)
    try:
        game = links.encode(links.Link(record, None, "replay", None, False))
        rounds = data["rounds"]
        position = game
        if session.to_act() is not None and rounds:
            at = (len(rounds), len(rounds[-1]["actions"]))
            # play from here against the computer the game was played against
            level = next((seat.level for seat in seats if not seat.human), None)
            position = links.encode(links.Link(record, at, "play", None, False, level))
        per_round = []
        played = [r for r, rnd in enumerate(rounds, 1) if rnd["actions"]]
        for r in played[-1:] if last_only else played:
            per_round.append(links.encode(links.Link(record, (r, 0), "replay", None, False)))
    except ChkobbaError as exc:
        raise WebError("web.share.table", reason=as_message(exc)) from None
    return {"game": game, "position": position, "rounds": per_round}
