"""THE state answer for a seat: everything a page draws of one position.

:func:`answer` is the one builder the game tables, the embeds (replay, play
from here, puzzle), the lessons and (next) remote seats use: the view of a
seat (its hand, or every hand), the words it may say, the claim window, the
moves of this round and the last, the score sheet with the result in words,
the game's own extras (the registry's ``extras``: Seven Diamonds' ``seven``
block) and, for a game table, its save. Every answer worded for a reader
takes the reader's seat: the result says "You win" only to the winner, and
a spectator (a replay) reads which side won.

On purpose the answer offers no card play as a button: the player points at
what they take, the page builds the action text, and the engine accepts it
or says why not. Only the non-card decisions are offered as words. (A game's
extras may list what its page needs to finish a pointing: Chkobba's legal
``captures`` for the quicker capture, Seven Diamonds' playable cards.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from ..messages import Param, for_reader
from ..protocol import JSONDict
from ..registry import game as registered
from ..session import Session
from .edge import Seat, render


@dataclass(frozen=True)
class Reader:
    """Whom an answer is for.

    ``seat``: whose view is shown (whose hand, who may act); ``every``: every
    hand shown (a replay), the view still placed at ``seat``; ``hidden``: the
    pass-and-play hand-off screen is up (nothing of the hand is sent);
    ``speaks_to``: the seat the result is worded for, None for a spectator;
    ``acts``: whether the seat plays here (words and marks are offered only
    then); ``marks``: the cards the seat may lay are marked (Seven Diamonds)."""

    seat: int
    speaks_to: int | None
    acts: bool = True
    every: bool = False
    hidden: bool = False
    marks: bool = True


@dataclass(frozen=True)
class Ended:
    """A game of the match that has ended, as the engine's results say."""

    game: int          # from 1
    winner: int        # the side
    running: tuple[int, int]
    by: str            # "target" or "all_diamonds"


def sides(session: Session) -> list[list[int]]:
    """The seats of each side."""
    out: list[list[int]] = [[], []]
    for seat in range(session.players):
        out[session.state.side_of(seat)].append(seat)
    return out


class Worded(TypedDict):
    """A message with its English text."""

    code: str
    params: dict[str, Param]
    text: str


class SheetRound(TypedDict):
    """One line of the score sheet: a round's points and the running total."""

    round: int
    game: int
    points: list[int]
    running: list[int]
    breakdown: JSONDict
    game_over: bool
    game_winner: int | None


class Sheet(TypedDict):
    """The score sheet across rounds and the result in words."""

    rounds: list[SheetRound]
    score: list[int]
    games: list[int]
    target: int | None
    match: int
    over: bool
    winner: int | None
    result: Worded | None


def sheet(session: Session, speaks_to: int | None, seats: Sequence[Seat] = ()) -> Sheet:
    """The score sheet across rounds, and the result in words: each game's
    winner is the engine's (``RoundResult.game_winner``)."""
    st = session.state
    opts = st.options
    rounds: list[SheetRound] = []
    running = (0, 0)
    ended: list[Ended] = []
    results = list(st.results)
    for i, res in enumerate(results):
        if i and results[i - 1].game != res.game:
            running = (0, 0)
        points = [int(res.points[0]), int(res.points[1])]
        running = (running[0] + points[0], running[1] + points[1])
        winner = res.game_winner
        rounds.append({"round": i + 1, "game": res.game + 1, "points": points, "running": list(running),
                       "breakdown": res.to_dict(), "game_over": winner is not None, "game_winner": winner})
        if winner is not None:
            ended.append(Ended(res.game + 1, winner, running, res.game_won_by or "target"))
    result: Worded | None = None
    if ended and rounds[-1]["game_over"] and (st.is_over or not st.history()):
        result = _result(session, ended, speaks_to, seats)
    return {"rounds": rounds, "score": list(st.score), "games": list(st.games),
            "target": opts.target_points, "match": opts.match_games, "over": st.is_over,
            "winner": st.winner, "result": result}


def _who(session: Session, side: int, speaks_to: int | None, seats: Sequence[Seat] = ()) -> str:
    if speaks_to is None:
        return "side"
    mine = side == session.state.side_of(speaks_to)
    if session.players == 2:
        if mine:
            return "you"
        other = 1 - speaks_to
        # a person across the table (pass and play, a friend online) is not "the computer"
        return "opponent" if len(seats) == 2 and seats[other].level is None else "computer"
    return "your_side" if mine else "other_side"


def _result(session: Session, ended: Sequence[Ended], speaks_to: int | None,
            seats: Sequence[Seat] = ()) -> Worded:
    st = session.state
    last = ended[-1]
    w = last.winner
    who = _who(session, w, speaks_to, seats)
    # a spectator counts the games side 1 first
    mine = st.side_of(speaks_to) if speaks_to is not None else 0
    games = [0, 0]
    for g in ended:
        games[g.winner] += 1
    pts = last.running
    params: dict[str, Param] = {"winner_points": pts[w], "loser_points": pts[1 - w], "game": last.game,
                              "your_games": games[mine], "their_games": games[1 - mine],
                              "winner_games": games[w], "loser_games": games[1 - w], "side": w,
                              "side_number": w + 1}
    diamonds = last.by == "all_diamonds"
    if st.is_over and st.options.match_games > 1:
        code = f"web.result.match_{who}"
    elif st.is_over:
        code = f"web.result.{'diamonds' if diamonds else 'game'}_{who}"
    else:
        code = f"web.result.{'match_diamonds' if diamonds else 'match_game'}_{who}"
    return {"code": code, "params": params, "text": render(code, params)}


def moves(session: Session) -> tuple[list[JSONDict], list[JSONDict]]:
    """The moves to show (this round, or the one just finished while the new
    one has none: ``Session.moves()``) and the moves of the round before."""
    index = session.latest_round()
    return session.moves(), (session.moves(index - 1) if index > 0 else [])


def worded(move: JSONDict, reader: int | None) -> JSONDict:
    """A move worded for its reader: the ``move.you.*`` form of the reader's
    own moves (:func:`chkobba.messages.for_reader`), its ``text`` too. This
    is the one place a move's code takes the reader's person: a page words
    a move from its ``code`` and ``params`` as they come (a renderer that
    words the moves it knows from their kind and seat does not read the code)."""
    if "code" not in move or reader is None:
        return move
    said = for_reader({"code": move["code"], "params": move.get("params") or {}}, reader)
    if said.code == move["code"]:
        return move
    return {**move, "code": said.code, "params": dict(said.params), "text": str(said)}


def answer(session: Session, reader: Reader, seats: Sequence[Seat], *, table: str,
           humans: Sequence[int] = (), coach: bool = False,
           save: dict[str, object] | None = None) -> dict[str, object]:
    """The state answer of ``session`` for ``reader`` (see the module doc)."""
    game = registered(session.game)
    seat = reader.seat
    view = session.view(None if reader.every else seat)
    to_act = session.to_act()
    shown_legal = view.pop("legal", [])
    legal = [a for a in shown_legal if isinstance(a, str)] if isinstance(shown_legal, list) else []
    if reader.every:
        hands = view["hands"]
        if not isinstance(hands, list) or not isinstance(hands[seat], list):
            raise TypeError(f"a view of every hand holds no list of hands: {hands!r}")
        view["hand"] = list(hands[seat])
        view["seat"] = seat
        view["side"] = session.state.side_of(seat)
    mine = reader.acts and to_act == seat and not reader.hidden
    if not mine:
        legal = []
    if reader.hidden:
        # The hand-off screen is up: nothing of the next player's hand is sent.
        game.hide(view)
    shown, before = moves(session)
    # the reader's own moves in the second person; a spectator's (a replay) as they are
    person = None if reader.speaks_to is None else seat
    shown = [worded(m, person) for m in shown]
    before = [worded(m, person) for m in before]
    last = view.get("last")
    if isinstance(last, dict):
        view["last"] = worded(last, person)
    return {
        "table": table,
        "game": session.game,
        "view": view,
        "seats": [s.to_json() for s in seats],
        "sides": sides(session),
        "human": seat,
        "humans": list(humans),
        # pass-and-play: the seat to hand the device to, while its view is hidden
        "handoff": seat if reader.hidden else None,
        # a replay is watched, not played: seats are named by where they sit, never "You"
        "spectator": reader.speaks_to is None,
        "to_act": to_act,
        "to_act_kind": seats[to_act].kind if to_act is not None else None,
        # Non-card decisions only; card plays are never listed (see module doc).
        "words": game.words(session.state, legal) if mine else [],
        "claim": view.get("claim"),
        "moves": shown,
        "last_round_moves": before,
        "sheet": sheet(session, reader.speaks_to, seats),
        "summary": session.summary(),
        "coach": coach,
        "save": save,
        **game.extras(session.state, seat, legal, to_act, mine and reader.marks),
    }
