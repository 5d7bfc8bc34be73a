"""Challenge a friend (docs/links.md, "Challenge and result links"): after a
match against the computer, a link with the same decks (the session seed),
options, seats and computer levels and the sender's result, never the
sender's moves; the friend plays the same match and sees both results.

A challenge's table is an ordinary table whose save says ``"challenge":
link``: it replays like any save, refuses take-backs (mode ``challenge``),
has no coach, and its computers decide with ``challenge_choose`` (in
web/ai.py's slices: the level's player, hard with a fixed number of rollouts, so every
phone meets the same opponent).
"""

from __future__ import annotations

import dataclasses

from .. import messages as M
from ..errors import ChkobbaError
from ..links import challenge as C
from ..session import Session
from .edge import Args, Seat, WebError, api, table_id
from .saves import STORE, Table, challenge_of, check_replays, daily_of, load, save_object, takebacks_of
from .daily import checked, decided, rederivation
from .tables import computer_to_act, state_of

M.register({
    "web.save.challenge": "its challenge link does not read: {reason}",
    "web.save.challenge_deal": "its challenge is not the game of its cards and seats",
    "web.challenge.not_over": "The match is not over yet: a challenge is made of a finished match",
    "web.challenge.not_computer": "Only a match of one person against the computer can be a challenge",
    "web.challenge.not_challenge": "This game is not a challenge",
})


def _finished(value: object) -> tuple[C.Challenge, Session]:
    """The challenge a finished game's save makes: its game, options, seed,
    seats, the person's result and how many moves they took back."""
    session, seat_list, _ = load(value)
    save = save_object(value)   # load has checked it is an object
    humans = [i for i, s in enumerate(seat_list) if s.human]
    if len(humans) != 1 or daily_of(save) is not None:
        raise WebError("web.challenge.not_computer")
    if not session.is_over:
        raise WebError("web.challenge.not_over")
    seats = tuple(None if s.human else s.level for s in seat_list)
    result = C.match_result(session, humans[0])
    moves = tuple(a for r in session.record_data()["rounds"] for a in r["actions"])
    return C.Challenge(session.game, session.record_data()["options"], session.seed, seats, result,
                       takebacks_of(save), moves), session


def _text(c: C.Challenge) -> str:
    """The challenge's ``x3.`` text (with the sender's moves, so a friend's
    page replays them); the ``x2.`` text without them when they do not fit
    the link or do not replay from the seed (a deck order a take-back shifted)."""
    try:
        return C.encode_challenge(c)
    except ChkobbaError:
        return C.encode_challenge(dataclasses.replace(c, moves=None))


@api("save")
def _challenge_link(args: Args) -> dict[str, object]:
    """The challenge of a finished match against the computer: ``link`` (the
    ``x2.`` text the page puts in ``?challenge=``), ``result`` (the
    person's, as the link carries it) and ``takebacks`` (how many moves they
    took back: the link says it to the friend)."""
    table_id(args)
    c, _ = _finished(args["save"])
    text = _text(c)
    return {"link": text, "result": c.result, "takebacks": c.takebacks,
            "checked": text.startswith(C.CHALLENGE_MOVES_PREFIX)}


@api("link")
def _challenge_start(args: Args) -> dict[str, object]:
    """Start a challenge's match at a table: the same cards, options and
    computers as the sender's (a bad link: one ``link.*`` error in words).
    The state has ``sender``: the sender's ``result`` and ``takebacks`` (how
    many moves they took back; null for an ``x1.`` link, which does not say)."""
    tid = table_id(args)
    text = args["link"]
    c = C.decode_challenge(text)
    session = c.session()
    check_replays(session)
    seat_list = [Seat("human") if level is None else Seat("computer", level) for level in c.seats]
    table = Table.seated(tid, session, seat_list)
    table.challenge = str(text)   # a text: decode_challenge reads nothing else
    out = state_of(table)
    STORE.tables.put(tid, table)
    return {**out, "sender": {"result": c.result, "takebacks": c.takebacks, "checked": c.moves is not None}}


def _challenge_save(save: object) -> tuple[C.Challenge, Session, list[Seat]]:
    session, seat_list, _ = load(save)
    text = challenge_of(save_object(save))   # load has checked it is an object
    if text is None:
        raise WebError("web.challenge.not_challenge")
    return C.decode_challenge(text), session, seat_list


def check_challenge(save: object) -> tuple[C.Challenge, Session, list[Seat]]:
    """A challenge's save re-derived (finished here): the match played again
    from the link's seed and options, no take-back, every computer move the
    link's computer's (one ``web.check.*`` error otherwise)."""
    c, session, seat_list = _challenge_save(save)
    checked(rederivation("challenge", save_object(save), session, seat_list, c.session(), c.seats,
                         lambda s, seat: C.computer_choice(c, s, seat)))
    return c, session, seat_list


@api("save")
def _challenge_check_step(args: Args) -> dict[str, object]:
    """One computer decision of a challenge save's re-derivation (kept per
    record in this process): ``{done, decisions}``; its setup is checked at
    once, and a save that differs answers its ``web.check.*`` error once the
    step that finds it is made. The page thinks it in slices (web/ai.py)
    before ``challenge_result`` and ``stats_add``, which then find it done."""
    table_id(args)
    c, session, seat_list = _challenge_save(args["save"])
    run = rederivation("challenge", save_object(args["save"]), session, seat_list, c.session(), c.seats,
                       lambda s, seat: C.computer_choice(c, s, seat))
    done = run.step()
    if done and run.error is not None:
        code, params = run.error
        raise WebError(code, **params)
    return {"done": done, "decisions": run.decisions}


@api("save", "seat")
def _challenge_choose(args: Args) -> dict[str, object]:
    """The challenge computer's action for ``seat`` in the save's position (in
    web/ai.py's slices): decided from the position and the seed, never the clock."""
    table_id(args)
    c, session, seat_list = _challenge_save(args["save"])
    seat, level = computer_to_act(args["seat"], session, seat_list)
    return {"action": decided("challenge", session, seat, lambda: C.computer_choice(c, session, seat)), "level": level}


@api("save")
def _challenge_result(args: Args) -> dict[str, object]:
    """A finished challenge, checked (the match replayed from the link's seed
    and options, every computer move the link's computer's, no take-back:
    else one ``web.check.*`` error): ``yours`` and ``theirs`` (the sender's, from the
    link), each ``{won, score, games, rounds[, chkobbas]}`` with the side's
    number first, ``verdict``: 1 you did better, -1 they did, 0 level, and
    ``sender_takebacks`` (how many moves the sender took back, the friend
    none: a challenge refuses take-backs; null for an ``x1.`` link)."""
    table_id(args)
    c, session, _ = check_challenge(args["save"])
    if not session.is_over:
        raise WebError("web.challenge.not_over")
    yours = C.match_result(session, c.seat)
    return {"game": c.game, "yours": yours, "theirs": c.result, "verdict": C.compare(yours, c.result),
            "levels": sorted({level for level in c.seats if level is not None}), "sender_takebacks": c.takebacks,
            "sender_checked": c.moves is not None}
