"""What the edges around the engine need of Seven Diamonds besides the
protocol: the calls a seat may say at a table (with the Arabic the Sahrat
table uses), what the table draws besides the view (the cards the acting
seat may lay, the order of speaking, the timer, the round's result with the
points of each hand left), the view with its hand hidden, the terminal's
line, the labels of a statistics group and what a lesson step's move brings
about. The registry (:mod:`chkobba.registry`) declares them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from ...cards import CODES
from ...messages import MESSAGES, Param, Params
from ...protocol import JSON, GameState, JSONDict, Observation
from .constants import PLAY, POINTS, speaking_order
from .state import seven_diamonds_state

CALLS: dict[str, tuple[str, str]] = {"pass": ("word.call_pass", ""), "double": ("word.double", "\u062f\u0628\u0644"),
                                     "triple": ("word.triple", "\u062b\u0631\u064a")}
ARABIC: dict[str, str] = {"double": "\u062f\u0628\u0644", "triple": "\u062b\u0631\u064a",
                          "forced_pass": "\u062c\u0644\u0651\u0629",
                          "last_card": "\u0622\u062e\u0631 \u0648\u0631\u0642\u0629"}


def words(state: GameState[Observation], legal: Sequence[str]) -> list[JSONDict]:
    """The calls the seat to act may say now (only the legal ones); never ``timeout``."""
    out: list[JSONDict] = []
    for a in legal:
        if a in CALLS:
            code, arabic = CALLS[a]
            out.append({"action": a, "label": MESSAGES[code], "code": code, "params": {}, "arabic": arabic})
    return out


def round_result(res: Mapping[str, JSON]) -> JSONDict:
    """A round's result (its ``details()``) with each hand left and the
    points of its cards (only the losing team's count)."""
    out: JSONDict = dict(res)
    left, winner_team, cards, bonus = res["left"], res["winner_team"], res["cards"], res["bonus"]
    assert isinstance(left, list) and isinstance(cards, int) and isinstance(bonus, int)
    hands: list[JSON] = []
    for seat, held in enumerate(left):
        assert isinstance(held, list)
        losing = seat & 1 != winner_team
        pts = [POINTS[CODES.index(str(c))] if losing else 0 for c in held]
        hands.append({"seat": seat, "cards": list(held), "points": list(pts), "total": sum(pts), "losing": losing})
    out["hands"] = hands
    out["before_multiplier"] = cards + bonus
    return out


def extras(state: GameState[Observation], viewer: int, legal: Sequence[str], to_act: int | None,
           show_playable: bool) -> JSONDict:
    """The ``seven`` block of a table's answer (docs/facade.md): the cards
    ``viewer`` may lay (only when it is to act and ``show_playable``), the
    order of speaking during the calls, the timer of the seat to act, the
    Arabic names and the latest round's result."""
    st = seven_diamonds_state(state)
    view = st.view(viewer)
    hand = view["hand"]
    mine = to_act == viewer and st.phase == PLAY and show_playable
    results = [r.details() for r in st.results]
    block: JSONDict = {
        "playable": [c for c in hand if c in legal] if mine and isinstance(hand, list) else [],
        "speaking_order": list(speaking_order(st.dealer)) if st.phase == "calls" else [],
        "timer": view["timer"] if to_act is not None else None,
        "timeout": "timeout" in legal,
        "arabic": dict(ARABIC),
        "last_result": round_result(results[-1]) if results else None,
    }
    return {"seven": block}


def hide(view: JSONDict) -> None:
    """The view with nothing of the seat's hand (the hand-off screen is up)."""
    view["hand"] = []
    view["playable"] = []


def terminal(view: Mapping[str, JSON]) -> list[str]:
    """The table in one line of text, for the command line (besides the hands)."""
    return [json.dumps({k: view[k] for k in view if k not in ("hand", "legal", "options")})]


def stats_labels(variant: Mapping[str, JSON]) -> list[tuple[str, JSONDict]]:
    """The labels of a statistics group's variant (docs/stats.md): message codes and params."""
    return [("stats.calls." + str(variant["calls"]).lower(), {}), ("stats.target", {"target": variant["target"]})]


def lesson_outcome(before: GameState[Observation], after: GameState[Observation], seat: int) -> JSONDict:
    """What a move brought about, in the terms a lesson's ``expect`` uses:
    ``multiplier`` and ``events`` (the public events of the move)."""
    b, a = seven_diamonds_state(before), seven_diamonds_state(after)
    old = len(b.event_log()) if len(a.results) == len(b.results) else 0
    return {"multiplier": a.multiplier, "events": [e.to_json() for e in a.event_log()[old:]]}


def daily_round(summary_round: Mapping[str, JSON], side: int) -> JSONDict:
    """A finished daily round for ``side`` (chkobba.daily): whether it went
    out first, the multiplier, the bonus and the points of the cards left."""
    def number(key: str) -> int:
        value = summary_round[key]
        assert isinstance(value, int)
        return value
    return {"won": summary_round["winner_team"] == side, "multiplier": number("multiplier"),
            "bonus": number("bonus"), "cards": number("cards")}


def daily_share(res: Mapping[str, Param], you: Mapping[str, Param], margin: Params) -> tuple[str, Params]:
    """The daily share text's code and params (chkobba.daily.share): won or
    lost, never a card."""
    outcome: Params = {"code": "daily.outcome.won" if you["won"] else "daily.outcome.lost", "params": {}}
    return "daily.share.seven_diamonds", {"date": res["date"], "points": res["points"],
                                          "par": res["par_points"], "margin": margin, "outcome": outcome}


#: The losing team's cards left are worth at most every ace (20), king, queen
#: and jack (10): 200; a daily deal's last-seven bonus is the default 200.
MAX_CARDS_LEFT = 4 * 20 + 12 * 10
DAILY_SEVEN_BONUS = 200


def _count(res: Mapping[str, object], name: str) -> int:
    value = res[name]
    assert type(value) is int   # the result link checked each field's kind first
    return value


def daily_check(res: Mapping[str, object]) -> str | None:
    """The field of a daily result no round can have (None: a round can have
    it): the bonus is none or the default, the cards left a multiple of 10 up
    to :data:`MAX_CARDS_LEFT`, and only the winners score."""
    bonus, cards = _count(res, "bonus"), _count(res, "cards")
    if bonus not in (0, DAILY_SEVEN_BONUS):
        return "bonus"
    if cards > MAX_CARDS_LEFT or cards % 10:
        return "cards"
    total = (cards + bonus) * _count(res, "multiplier")
    if [_count(res, "points"), _count(res, "other")] != ([total, 0] if res["won"] else [0, total]):
        return "points"
    return None
