"""What the edges need of High Card besides the protocol."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from chkobba.protocol import JSON, GameState, JSONDict, Observation

from .state import high_card_state


def words(state: GameState[Observation], legal: Sequence[str]) -> list[JSONDict]:
    return []   # every move is a card


def extras(state: GameState[Observation], viewer: int, legal: Sequence[str], to_act: int | None,
           show_playable: bool) -> JSONDict:
    return {"high_card": {"trick": high_card_state(state).view(viewer)["trick"]}}


def hide(view: JSONDict) -> None:
    view["hand"] = []


def terminal(view: Mapping[str, JSON]) -> list[str]:
    return [f"score {view['score']} (target {view['target']}), trick {view['trick']}, tricks {view['tricks']}"]


def stats_labels(variant: Mapping[str, JSON]) -> list[tuple[str, JSONDict]]:
    return [("stats.target", {"target": variant["target"]})]


def lesson_outcome(before: GameState[Observation], after: GameState[Observation], seat: int) -> JSONDict:
    return {"tricks": list(high_card_state(after).tricks)}
