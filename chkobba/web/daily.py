"""The daily deal at a game table (docs/daily.md): start the date's deal,
the daily computers' choices (a fixed budget, the same on every device), par,
and the result against par with its share text and the daily results.

A daily table is an ordinary table whose save says ``"daily": date``: it
replays like any save, refuses take-backs (mode ``daily``) and stops after
its one round. ``daily_choose``, ``daily_par`` and ``daily_result`` are thought in
web/ai.py's short slices (par plays a whole round: seconds on a slow phone).

Par is also computed a step at a time (``daily_par_step``: one computer
decision per call, kept in this process per date and game), so the page's
interpreter thinks it in short slices (web/ai.py) while the player plays;
``daily_par``, ``daily_result`` and ``daily_replay`` then find it done.
``daily_replay`` gives the replay link of a past day's par round (every
hand shown), refused while the day is not over in Tunisia.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Callable

from .. import daily as D
from .. import links
from .. import stats as S
from .. import daily_results as R
from .. import messages as M
from ..links.challenge import Result, decode_result_moves, encode_result
from ..actions import Action
from ..errors import ChkobbaError
from ..protocol import JSONDict
from ..records import parse_record
from ..session import Session
from .edge import SEED_LIMIT
from .edge import Args, Seat, WebError, api, seat_index, show, table_id
from .saves import ON_RESET, STORE, Table, check_replays, daily_of, load, save_object, takebacks_of
from .tables import state_of

M.register({
    "web.save.daily": "its daily deal {value} is not the deal of its cards",
    "web.daily.at": "The moment must be a whole number of seconds from 0 to 2^53, not {value}",
    "web.daily.not_daily": "This game is not a daily deal",
    "web.daily.over": "over must be true or false, not {value}",
    "web.daily.not_yet": "The deal of {date} can be replayed with every hand shown once that day is over "
                         "(today is {today} in Tunisia)",
})

M.register({
    "web.check.options": "This game does not count: it was not played with the table options it was dealt for",
    "web.check.seats": "This game does not count: its players or the computers' levels are not the ones "
                       "it was dealt for",
    "web.check.takebacks": "This game does not count: {count} moves were taken back, which it does not allow",
    "web.check.cards": "This game does not count: its cards are not the ones its deal gives",
    "web.check.move": "This game does not count: in round {round}, move {ply} ({action}) is not the "
                      "computer's move there ({expected})",
    "web.check.replay": "This game does not count: in round {round}, move {ply} ({action}) does not replay: "
                        "{reason}",
})

_RUNS_KEPT = 16                     # par runs kept in the process (dates x games)
_CHECKS_KEPT = 8                    # re-derivations kept in the process (saves)
_DECIDED_KEPT = 2048                # computer decisions remembered (positions)


class ParRun:
    """Par of a daily deal, played one computer decision per :meth:`step`
    (the same round as :func:`chkobba.daily.par`: the daily computers in
    every seat, each deciding from its own seeded rng). A decision's search
    may be handed out and finished elsewhere (web/ai.py) before the step
    applies it: nothing changes here until the decision is made."""

    def __init__(self, deal: D.Daily) -> None:
        self.deal = deal
        self.session = deal.session()
        self.decisions = 0
        self.par: D.Par | None = None

    def step(self) -> bool:
        """One decision (or none once done); whether par is known."""
        if self.par is None and not D.round_over(self.session):
            seat = self.session.to_act()
            if seat is not None:
                action = D.computer_choice(self.deal, self.session, seat)   # may hand its search out
                self.session.apply(action)
                self.decisions += 1
        if self.par is None and (D.round_over(self.session) or self.session.to_act() is None):
            first = self.session.summary()["rounds"][0]
            self.par = {"date": self.deal.date, "game": self.deal.game,
                        "result": D.round_result(self.deal, first),
                        "record": json.loads(self.session.record_json())}
        return self.par is not None


_RUNS: dict[tuple[str, str], ParRun] = {}


def par_run(deal: D.Daily) -> ParRun:
    """The par run of a deal in this process (made on first use)."""
    key = (deal.date, deal.game)
    run = _RUNS.get(key)
    if run is None:
        if len(_RUNS) >= _RUNS_KEPT:
            del _RUNS[next(iter(_RUNS))]          # the oldest
        run = _RUNS[key] = ParRun(deal)
    return run


def par_of(deal: D.Daily) -> D.Par:
    """Par of a deal: the run's, finished here if it is not done yet."""
    run = par_run(deal)
    while not run.step():
        pass
    assert run.par is not None
    return run.par


# ------------------------------------------------------------ re-derivation

_DECIDED: "OrderedDict[str, str]" = OrderedDict()
_CHECKS: "OrderedDict[str, D.Rederivation]" = OrderedDict()
ON_RESET.extend([_DECIDED.clear, _CHECKS.clear])   # a fresh page remembers no decision


def _canonical(record: object) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def _position(kind: str, session: Session, seat: int) -> str:
    return f"{kind}|{session.seed}|{seat}|{_canonical(session.record_data())}"


def decided(kind: str, session: Session, seat: int, choose: Callable[[], Action]) -> str:
    """The computer's action at this position: remembered when this process
    made it already (``daily_choose``, ``challenge_choose`` or a check), else
    ``choose()`` (the fixed-budget computer: its search may be handed out)
    and remembered. Only the facade's own decisions are remembered, so a
    check that finds one is the check that would think it again."""
    key = _position(kind, session, seat)
    hit = _DECIDED.get(key)
    if hit is not None:
        _DECIDED.move_to_end(key)
        return hit
    action = str(choose())
    _DECIDED[key] = action
    while len(_DECIDED) > _DECIDED_KEPT:
        _DECIDED.popitem(last=False)
    return action


def check_setup(save: Mapping[str, object], session: Session, seat_list: list[Seat], fresh: Session,
                seats: tuple[str | None, ...]) -> None:
    """What a save of a daily deal or a challenge must be before any move is
    replayed: the options, seats, levels and first cards of ``fresh`` (the
    day's or the link's session), no take-back (``web.check.*``)."""
    rec, want = session.record_data(), fresh.record_data()
    if rec["options"] != want["options"]:
        raise WebError("web.check.options")
    if [None if s.human else s.level for s in seat_list] != list(seats) or any(
            not s.human and s.kind != "computer" for s in seat_list):
        raise WebError("web.check.seats")
    taken = takebacks_of(save)
    if taken:
        raise WebError("web.check.takebacks", count=taken)
    if rec.get("first_dealer") != want.get("first_dealer") or (
            rec["rounds"] and want["rounds"] and rec["rounds"][0]["decks"][:1] != want["rounds"][0]["decks"][:1]):
        raise WebError("web.check.cards")


def _kept_check(key: str, make: Callable[[], D.Rederivation]) -> D.Rederivation:
    """The re-derivation kept under ``key`` in this process (made on first use)."""
    run = _CHECKS.get(key)
    if run is None:
        run = _CHECKS[key] = make()
        while len(_CHECKS) > _CHECKS_KEPT:
            _CHECKS.popitem(last=False)
    else:
        _CHECKS.move_to_end(key)
    return run


def rederivation(kind: str, save: Mapping[str, object], session: Session, seat_list: list[Seat], fresh: Session,
                 seats: tuple[str | None, ...], choose: Callable[[Session, int], Action]) -> D.Rederivation:
    """The re-derivation of a save (kept per record in this process, made on
    first use), after :func:`check_setup`."""
    check_setup(save, session, seat_list, fresh, seats)   # every time: the run is kept per record only
    record = session.record_data()
    computers = frozenset(i for i, level in enumerate(seats) if level is not None)
    return _kept_check(f"{kind}|{session.seed}|{_canonical(record)}", lambda: D.Rederivation(
        fresh, record, computers, lambda s, seat: decided(kind, s, seat, lambda: choose(s, seat))))  # type: ignore[arg-type,return-value]


def checked(run: D.Rederivation) -> None:
    """Finish a re-derivation here (the decisions not made yet are thought
    now) and refuse the save if it differs (one ``web.check.*`` error)."""
    while not run.step():
        pass
    if run.error is not None:
        code, params = run.error
        raise WebError(code, **params)


def _daily_check(save: object) -> D.Rederivation:
    deal, session, seat_list = _daily_save(save)
    return rederivation("daily", save_object(save), session, seat_list, deal.session(), deal.seats,
                        lambda s, seat: D.computer_choice(deal, s, seat))


def _at(value: object) -> int:
    if type(value) is not int or not 0 <= value <= SEED_LIMIT:
        raise WebError("web.daily.at", value=show(value))
    return value


def _today(at: object = None) -> str:
    """Tunisia's date at the moment ``at`` (POSIX seconds: the page's clock),
    or at the facade's clock without it."""
    return D.tunis_date(_at(at) if at is not None else int(time.time()))


def _deal(args: Args) -> D.Daily:
    """The deal named by ``date`` (``YYYY-MM-DD``) or, without it, by the
    moment ``at`` (POSIX seconds: the page's clock) in Tunisia: a deal that
    can be played today (``daily.future`` for a later date, saying when it
    opens; today is Tunisia's date at ``at``, or at the facade's clock)."""
    game = args.get("game", "chkobba")
    if "date" in args:
        deal = D.daily(D.parse_date(args["date"]).isoformat(), game)   # DailyError in words (a text only)
        D.playable(deal.date, _today(args.get("at")))
        return deal
    deal = D.daily(_at(args.get("at")), game)
    D.playable(deal.date, deal.date)
    return deal


def _derive(deal: D.Daily) -> Callable[[Session], JSONDict | None]:
    """A daily round's result from the session its moves give: None unless
    its first round is over and no move goes past it."""
    def derive(session: Session) -> JSONDict | None:
        rounds = session.record_data()["rounds"]
        if not D.round_over(session) or any(r["actions"] for r in rounds[1:]):
            return None
        return D.round_result(deal, session.summary()["rounds"][0])
    return derive


def _friend(args: Args, deal: D.Daily) -> Result | None:
    """The sender's result a shared link carries (``vs``: an ``r1.`` or
    ``r2.`` text of this deal, chkobba/links/challenge.py), checked strictly:
    an ``r2.`` text's moves are replayed from the day's cards and must give the
    result it claims (``link.result_moves``); None without one."""
    if "vs" not in args:
        return None
    res, _ = decode_result_moves(args["vs"], deal.date, deal.game, deal.session(), _derive(deal))
    return res


def _friend_check(args: Args, deal: D.Daily) -> tuple[Result | None, D.Rederivation | None]:
    """The sender's result a link's ``vs`` carries and, for an ``r2.`` text,
    the re-derivation of its moves (kept per moves, like a save's: every
    computer move in them must be the daily computer's); no re-derivation
    for an ``r1.`` text (made before links carried moves), nothing without
    ``vs``."""
    if "vs" not in args:
        return None, None
    res, played = decode_result_moves(args["vs"], deal.date, deal.game, deal.session(), _derive(deal))
    if played is None:
        return res, None
    record = played.record_data()
    computers = frozenset(i for i, level in enumerate(deal.seats) if level is not None)
    return res, _kept_check(f"daily-vs|{played.seed}|{_canonical(record)}", lambda: D.Rederivation(
        deal.session(), record, computers,
        lambda s, seat: decided("daily", s, seat, lambda: D.computer_choice(deal, s, seat))))  # type: ignore[arg-type,return-value]


def _friend_checked(args: Args, deal: D.Daily) -> tuple[Result | None, bool, dict[str, M.Param] | None]:
    """The sender's result, whether it is checked, and why it is refused:
    an ``r2.`` text's re-derivation is finished here (``daily_par_step``
    with ``vs`` thinks it in slices first, so this finds it done); one whose
    computer moves are not the daily computer's gives no result and its
    ``web.check.*`` message; an ``r1.`` text is shown not checked."""
    res, run = _friend_check(args, deal)
    if run is None:
        return res, False, None
    while not run.step():
        pass
    if run.error is not None:
        code, params = run.error
        return None, False, M.message(code, **params).to_json()
    return res, True, None


def _in_progress(deal: D.Daily) -> Table | None:
    """An open table playing this deal's round, not over yet (the one used
    last, when there are several)."""
    for table in reversed(list(STORE.tables.items.values())):
        if (table.daily == deal.date and table.session.game == deal.game
                and not D.round_over(table.session)):
            return table
    return None


def _kept_results(args: Args) -> R.Results | None:
    """The daily results the call was given: ``stats``' daily key (null: none
    yet) or an older page's ``results``; None when given neither."""
    if "stats" in args:
        return {"days": []} if args["stats"] is None else S.daily_of(S.from_file(args["stats"]))   # stats.file
    if args.get("results") is not None:
        return R.from_file(args["results"])   # stats.file in words
    return None


def _practice(deal: D.Daily, results: R.Results | None) -> bool:
    """Whether the day's result of this deal is in already: then playing it
    again is practice, which never changes the result nor the streak."""
    return results is not None and any((r[0], r[1]) == (deal.date, deal.game) for r in results["days"])


@api(optional=("date", "at", "game", "vs", "stats"))
def _daily_start(args: Args) -> dict[str, object]:
    """Start the daily deal of a date (or of the moment ``at``) and game at a
    table: its state (the save says ``daily``). ``vs``: the sender's result
    from a shared link, checked here (the page keeps it for the end).

    **One attempt**: a round of this deal in progress at an open table is
    resumed (``resumed: true``, at this table), never dealt afresh, so
    starting again shows no card and no answer of the computers that the
    round in progress has not shown. Given ``stats`` (the stored statistics,
    null for none), ``practice`` says whether the day's result is in
    already: playing again is then practice (``daily_result`` counts it
    nowhere)."""
    tid = table_id(args)
    deal = _deal(args)
    _friend(args, deal)
    practice = _practice(deal, _kept_results(args))
    going = _in_progress(deal)
    if going is not None:
        table = going if going.id == tid else dataclasses.replace(going, id=tid)
        if going.id != tid:
            STORE.tables.items.pop(going.id, None)   # one round in progress, at the table asked for
        out = state_of(table)
        STORE.tables.put(tid, table)
        return {**out, "resumed": True, "practice": practice}
    session = deal.session()
    check_replays(session)
    seat_list = [Seat("human") if level is None else Seat("computer", level) for level in deal.seats]
    table = Table.seated(tid, session, seat_list)
    table.daily = deal.date
    out = state_of(table)
    STORE.tables.put(tid, table)
    return {**out, "resumed": False, "practice": practice}


@api(optional=("at",))
def _daily_today(args: Args) -> dict[str, object]:
    """The date in Tunisia at the moment ``at`` (POSIX seconds), the day
    before it (whose deal can be replayed with every hand), the daily games."""
    table_id(args)
    today = D.tunis_date(_at(args.get("at")))
    return {"date": today, "yesterday": D.day_before(today), "games": list(D.GAMES)}


def _daily_save(save: object) -> tuple[D.Daily, Session, list[Seat]]:
    session, seat_list, _ = load(save)
    date = daily_of(save_object(save))   # load has checked it is an object
    if date is None:
        raise WebError("web.daily.not_daily")
    return D.daily(date, session.game), session, seat_list


def _played(deal: D.Daily, args: Args) -> None:
    """Refuse a deal dated after today (``daily.future``): Tunisia's date at
    ``at``, or at the facade's clock."""
    D.playable(deal.date, _today(args.get("at")))


@api("save", "seat", optional=("at",))
def _daily_choose(args: Args) -> dict[str, object]:
    """The daily computer's action for ``seat`` in the save's position (thought
    in web/ai.py's slices): hard with the daily budget, seeded from the deal, never the clock."""
    table_id(args)
    deal, session, seat_list = _daily_save(args["save"])
    _played(deal, args)
    seat = seat_index(args["seat"], session.players)
    if seat_list[seat].level is None:
        raise WebError("web.not_computer", seat=seat)
    action = decided("daily", session, seat, lambda: D.computer_choice(deal, session, seat))   # daily.not_turn in words
    return {"action": action, "level": "hard"}


@api(optional=("date", "at", "game", "save", "vs"))
def _daily_par(args: Args) -> D.Par:
    """Par of a daily deal (in web/ai.py's slices; the page keeps it per date and game).
    Given a finished round's ``save``, also its re-derivation, finished here
    (``daily_result`` then finds it done): one ``web.check.*`` error if the
    save is not what the day's seed and computers give. Given a friend's
    ``vs``, its re-derivation too (``daily_result`` says if it failed)."""
    table_id(args)
    deal = _deal(args)
    out = par_of(deal)
    if "save" in args:
        checked(_daily_check(args["save"]))
    _friend_checked(args, deal)
    return out


def _replayable(deal: D.Daily, at: object) -> None:
    """Refuse a deal whose day is not over in Tunisia at the moment ``at``
    (POSIX seconds; the facade's clock without it)."""
    moment = _at(at) if at is not None else int(time.time())
    if not D.day_over(deal.date, moment):
        raise WebError("web.daily.not_yet", date=deal.date, today=D.tunis_date(moment))


@api(optional=("date", "at", "game", "over", "save", "vs"))
def _daily_par_step(args: Args) -> dict[str, object]:
    """One decision of par's round (kept per date and game): ``{done,
    decisions}``. With ``over: true``, refused (``web.daily.not_yet``) unless
    the day is over at ``at`` (the replay of a past day's deal). Given a
    round's ``save``, once par is done, one decision of that save's
    re-derivation (kept per save): ``done`` once both are; a save that
    differs answers its ``web.check.*`` error. Given a friend's ``vs`` (an
    ``r2.`` text), then one decision of its moves' re-derivation: a friend's
    moves that do not re-derive are said by ``daily_result``
    (``friend_refused``), not here."""
    table_id(args)
    over = args.get("over", False)
    if type(over) is not bool:
        raise WebError("web.daily.over", value=show(over))
    if over:
        deal = D.daily(D.parse_date(args.get("date")).isoformat(), args.get("game", "chkobba"))
        _replayable(deal, args.get("at"))
    else:
        deal = _deal(args)
    run = par_run(deal)
    if "save" not in args and "vs" not in args:
        return {"done": run.step(), "decisions": run.decisions}
    check = _daily_check(args["save"]) if "save" in args else None   # its setup is checked at once (web.check.*)
    _, friend = _friend_check(args, deal)   # the link read at once (link.*)
    if run.par is None:
        run.step()                          # par first, one decision a call
        return {"done": False, "decisions": run.decisions}
    parts = [p for p in (check, friend) if p is not None]
    for part in parts:                      # then the save's check, then the friend's
        if not part.done:
            part.step()
            break
    if check is not None and check.done and check.error is not None:
        code, params = check.error
        raise WebError(code, **params)
    # a friend's moves that do not re-derive are not this call's error: daily_result says so
    return {"done": all(p.done for p in parts), "decisions": run.decisions + sum(p.decisions for p in parts)}


@api("date", optional=("at", "game", "over"))
def _daily_replay(args: Args) -> dict[str, object]:
    """The replay link (every hand shown) of a past day's par round: the
    daily computers in every seat. Refused (``web.daily.not_yet``) for today's
    deal or a later one: the date is checked against Tunisia's date at ``at``
    (POSIX seconds: the page's clock), never by the page."""
    table_id(args)
    deal = D.daily(D.parse_date(args["date"]).isoformat(), args.get("game", "chkobba"))
    _replayable(deal, args.get("at"))
    par = par_of(deal)
    link = links.encode(links.Link(parse_record(par["record"]), (1, 0), "replay", None, False))
    return {"date": deal.date, "game": deal.game, "link": link, "result": par["result"]}


@api("save", optional=("results", "at", "stats", "vs"))
def _daily_result(args: Args) -> dict[str, object]:
    """A finished daily round against par: ``result`` (daily.result),
    ``share`` (a message the page words in its language), ``results`` (the
    daily results with this one added: the first result of a deal counts) and
    ``summary`` (streaks, best) as of the moment ``at``; ``vs`` (this
    result as a link's ``r2.`` text, for the shared link) and, given the
    sender's ``vs``, ``friend`` (their result, shown side by side),
    ``friend_checked`` (their moves re-derived) or ``friend_refused`` (the
    ``web.check.*`` message saying why their result is not shown: yours
    counts all the same). Given
    ``stats`` (the stored statistics file, null for none: the daily results
    live in it), the result is added to their ``daily`` key and the answer
    has ``stats`` too. ``practice``: the deal's result was in already (a
    second attempt): nothing is added, the streak stays, ``vs`` is null
    (practice makes no result link)."""
    table_id(args)
    deal, session, _ = _daily_save(args["save"])
    today = _today(args.get("at"))
    D.playable(deal.date, today)
    friend, friend_checked, friend_refused = _friend_checked(args, deal)
    if not D.round_over(session):
        raise D.DailyError("daily.not_over")
    checked(_daily_check(args["save"]))   # the round played again from the day's seed: one web.check.* error
    res = D.result(deal, session, par_of(deal)["result"])   # daily.not_over in words
    out: dict[str, object] = {}
    practice = _practice(deal, _kept_results(args))
    if "stats" in args:
        stats = S.empty() if args["stats"] is None else S.from_file(args["stats"])   # stats.file in words
        if not practice:
            stats = S.add_daily(stats, dict(res))
        kept = S.daily_of(stats)
        out["stats"] = S.to_file(stats)
    else:
        kept = R.from_file(args.get("results") or R.empty())   # stats.file in words
        if not practice:
            kept = R.add(kept, dict(res))
    # practice makes no result link: a link says the day's one attempt
    vs = None if practice else _result_link(deal, session, res["you"])
    return {"result": res, "share": D.share(res).to_json(), "results": kept, "summary": R.summary(kept, today),
            "vs": vs, "friend": friend, "friend_checked": friend_checked,
            "friend_refused": friend_refused, "practice": practice, **out}


def _result_link(deal: D.Daily, session: Session, you: JSONDict) -> str:
    """The result's ``r2.`` text: the result and the round's moves (a friend's
    page replays them); the ``r1.`` text without them if they do not fit."""
    moves = session.record_data()["rounds"][0]["actions"]
    try:
        return encode_result(deal.date, deal.game, you, deal.session(), moves, _derive(deal))
    except ChkobbaError:
        return encode_result(deal.date, deal.game, you)
