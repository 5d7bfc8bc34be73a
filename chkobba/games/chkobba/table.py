"""What the edges around the engine need of Chkobba besides the protocol:
the words a seat may say at a table, the view with its hand hidden
(pass-and-play), the lines of the terminal, the labels of a statistics
group and what a lesson step's move brings about. The registry
(:mod:`chkobba.registry`) declares them; nothing outside this package
branches on the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ... import cards as C
from ...cards import pretty
from ...messages import MESSAGES, Param, Params
from ...protocol import JSON, GameState, JSONDict, Observation
from .state import chkobba_state

# The non-card decisions offered as words; each is labelled by ``word.<action>``.
WORDS = ("keep", "table", "propose", "pass", "accept", "refuse")


def words(state: GameState[Observation], legal: Sequence[str]) -> list[JSONDict]:
    """The words the seat to act may say now (the non-card decisions)."""
    return [{"action": a, "label": MESSAGES[f"word.{a}"], "code": f"word.{a}", "params": {}}
            for a in legal if a in WORDS]


def extras(state: GameState[Observation], viewer: int, legal: Sequence[str], to_act: int | None,
           show_playable: bool) -> JSONDict:
    """The captures the seat to act may make (``captures``: their action
    texts, RECORDS.md), for the page's quicker capture: a tap on a table card
    takes at once only when one of them alone contains what the player
    pointed at (web/table/core.js). Empty when another seat is to act, at the
    hand-off screen and for a replay (``legal`` is empty then)."""
    return {"captures": [a for a in legal if "x" in a and not a.startswith("claim")]}


def hide(view: JSONDict) -> None:
    """The view with nothing of the seat's hand (the hand-off screen is up)."""
    view["hand"] = []
    view["cut_card"] = None
    view["cut_visible"] = False


def _pretty(codes: JSON) -> str:
    return pretty([str(c) for c in codes] if isinstance(codes, list) else [])


def terminal(view: Mapping[str, JSON]) -> list[str]:
    """The table in lines of text, for the command line (besides the hands)."""
    score, games, piles, chk = view["score"], view["games"], view["piles"], view["chkobba_cards"]
    assert isinstance(score, list) and isinstance(games, list) and isinstance(piles, list) and isinstance(chk, list)
    lines = [f"score {score[0]}-{score[1]} (target {view['target']}), "
             f"games {games[0]}-{games[1]}, deck {view['deck']}, dealer seat {view['dealer']}",
             f"table: {_pretty(view['table'])}"]
    for side in (0, 1):
        lines.append(f"side {side} pile: {piles[side]} cards, chkobbas: {_pretty(chk[side])}")
    if view.get("cut_card"):
        lines.append(f"cut card (only you see it): {_pretty([view['cut_card']])}")
    return lines


def stats_labels(variant: Mapping[str, JSON]) -> list[tuple[str, JSONDict]]:
    """The labels of a statistics group's variant (docs/stats.md): message codes and params."""
    return [("stats.players", {"players": variant["players"]}), (f"stats.capture.{variant['capture']}", {}),
            ("stats.target", {"target": variant["target"]}), (f"stats.match.{variant['match']}", {})]


def lesson_outcome(before: GameState[Observation], after: GameState[Observation], seat: int) -> JSONDict:
    """What a move brought about, in the terms a lesson's ``expect`` uses:
    ``taken``, ``chkobba`` and ``table`` (docs/links.md)."""
    b, a = chkobba_state(before), chkobba_state(after)
    side = seat & 1
    out: JSONDict = {}
    if len(a.results) == len(b.results):
        gained = a.piles[side] & ~b.piles[side]
        out["taken"] = sorted(C.codes(C.cards_of(gained)))
        out["chkobba"] = len(a.chkobbas[side]) > len(b.chkobbas[side])
        out["table"] = sorted(C.codes(a.table))
    else:
        out["chkobba"] = a.results[-1].chkobba[side] > len(b.chkobbas[side])
    return out


_DAILY_CATEGORIES = ("karta", "dinari", "barmila", "haya")


def daily_round(summary_round: Mapping[str, JSON], side: int) -> JSONDict:
    """A finished daily round for ``side`` (chkobba.daily): the categories
    (karta, dinari, barmila, haya) it won and its chkobbas."""
    def count(key: str) -> int:
        pair = summary_round[key]
        assert isinstance(pair, list)
        value = pair[side]
        assert isinstance(value, int)
        return value
    return {"categories": [c for c in _DAILY_CATEGORIES if count(c) > 0], "chkobbas": count("chkobba")}


def daily_share(res: Mapping[str, Param], you: Mapping[str, Param], margin: Params) -> tuple[str, Params]:
    """The daily share text's code and params (chkobba.daily.share): the
    categories won and the chkobbas, never a card."""
    won = you["categories"]
    assert isinstance(won, list)
    categories: list[Param] = [{"code": f"daily.category.{c}", "params": {}} for c in won]
    return "daily.share.chkobba", {
        "date": res["date"], "points": res["points"], "par": res["par_points"], "margin": margin,
        "categories": categories or [{"code": "daily.category.none", "params": {}}],
        "chkobbas": you["chkobbas"]}


#: One round: 36 cards are played (40 less the 4 dealt to the table); after
#: the first sweep, a sweep needs two plays at least (a card laid on the empty
#: table, then the one that takes it), so at most 18 sweeps between both
#: sides (one more is allowed, never to refuse a real round).
MAX_SWEEPS = 19


def _count(res: Mapping[str, object], name: str) -> int:
    value = res[name]
    assert type(value) is int   # the result link checked each field's kind first
    return value


def daily_check(res: Mapping[str, object]) -> str | None:
    """The field of a daily result no round can have (None: a round can have
    it): one point a category won and one a sweep, the other side no more
    than the rest."""
    won = res["categories"]
    assert isinstance(won, list)
    cats, sweeps = len(won), _count(res, "chkobbas")
    if sweeps > MAX_SWEEPS:
        return "chkobbas"
    if _count(res, "points") != cats + sweeps:
        return "points"
    if _count(res, "other") > (len(_DAILY_CATEGORIES) - cats) + (MAX_SWEEPS - sweeps):
        return "other"
    return None
