"""Helpers of the embed and tutorial e2e tests: links made in CPython, and
playing a move in a table mounted in any element (by clicks)."""

from __future__ import annotations

import base64
import random
import zlib
from typing import Any

from chkobba.errors import ChkobbaError
from chkobba.links import Link, decode, encode
from chkobba.session import Session

WORDS = ("keep", "table", "propose", "pass", "accept", "refuse")


def sample_record(seed: int = 5, rounds: int = 1) -> dict[str, Any]:
    """A whole Chkobba record of ``rounds`` rounds played at random."""
    s = Session.new("chkobba", {}, seed=seed)
    rng = random.Random(seed)
    while s.state.round_index < rounds and s.to_act() is not None:
        s.apply(rng.choice(s.view(s.to_act())["legal"]))
    return s.record()


def rich_position(record: dict[str, Any]) -> tuple[int, int]:
    """The first position of round 1 where the seat to act has 3+ card plays."""
    for ply in range(1, len(record["rounds"][0]["actions"])):
        s = Session.from_record(record, seed=0, at=(1, ply))
        seat = s.to_act()
        if seat is not None and len([a for a in s.view(seat)["legal"] if a not in WORDS]) >= 3:
            return (1, ply)
    raise AssertionError("no position with a choice")


def links(record: dict[str, Any]) -> dict[str, str]:
    at = rich_position(record)
    return {"replay": encode(Link(record, None, "replay", None, False)),
            "replay_seat": encode(Link(record, (1, 3), "replay", 0, False)),
            "play": encode(Link(record, at, "play", None, False)),
            "puzzle": encode(Link(record, at, "puzzle", None, True)),
            "at": f"{at[0]},{at[1]}"}


def legal_at(record: dict[str, Any], at: tuple[int, int]) -> tuple[int, list[str]]:
    s = Session.from_record(record, seed=0, at=at)
    seat = s.to_act()
    assert seat is not None
    return seat, list(s.view(seat)["legal"])


def reseal(body: bytes) -> str:
    crc = zlib.crc32(b"c1." + body)
    return "c1." + base64.urlsafe_b64encode(body + crc.to_bytes(4, "big")).decode().rstrip("=")


def illegal_move_link(text: str) -> tuple[str, str]:
    """A link with a correct checksum whose body no longer replays (an action
    or record the engine refuses): (text, its code)."""
    raw = base64.urlsafe_b64decode(text[3:] + "=" * (-len(text[3:]) % 4))[:-4]
    for i in range(len(raw) - 1, 20, -1):
        for bit in range(8):
            body = bytearray(raw)
            body[i] ^= 1 << bit
            t = reseal(bytes(body))
            try:
                decode(t)
            except ChkobbaError as e:
                if e.code in ("link.action", "link.record", "link.after_end"):
                    return t, e.code
    raise AssertionError("no damaged body found")


def point(scope: Any, root: str, action: str) -> None:
    """Play ``action`` by clicks in the table mounted at ``root`` of ``scope``
    (a page or a frame): words by their button, cards by picking the hand
    card, then the table cards, then Take / Lay."""
    if action in WORDS:
        scope.click(f'{root} .choices button[data-action="{action}"]')
        return
    if action.startswith("claim "):
        card, take = action[6:].split("x")
        for code in [card] + [take[i:i + 2] for i in range(0, len(take), 2)]:
            scope.click(f'{root} .table-cards .card[data-card="{code}"]')
        scope.click(f'{root} .controls [data-act="claim"]')
    elif "x" in action:
        card, take = action.split("x")
        scope.click(f'{root} .hand-you .card[data-card="{card}"]')
        for code in [take[i:i + 2] for i in range(0, len(take), 2)]:
            scope.click(f'{root} .table-cards .card[data-card="{code}"]')
        scope.click(f'{root} .controls [data-act="take"]')
    else:
        scope.click(f'{root} .hand-you .card[data-card="{action}"]')
        scope.click(f'{root} .controls [data-act="lay"]')


# ------------------------------------------------------------ Seven Diamonds

def sd_record(seed: int = 3, rounds: int = 1) -> dict[str, Any]:
    """A Seven Diamonds record of ``rounds`` whole rounds played at random
    (never letting the clock run out)."""
    s = Session.new("seven_diamonds", {}, seed=seed)
    rng = random.Random(seed)
    while s.state.round_index < rounds and s.to_act() is not None:
        legal = s.view(s.to_act())["legal"]
        s.apply(rng.choice([a for a in legal if a != "timeout"] or legal))
    return s.record()


def sd_choice(record: dict[str, Any]) -> tuple[int, int]:
    """The first position of round 1 in the play phase where the seat to act
    may lay 2 or more cards and holds a card it may not lay."""
    for ply in range(1, len(record["rounds"][0]["actions"])):
        s = Session.from_record(record, seed=0, at=(1, ply))
        seat = s.to_act()
        if seat is None:
            continue
        v = s.view(seat)
        cards = [a for a in v["legal"] if a not in ("timeout", "pass", "double", "triple")]
        if v["phase"] == "play" and len(cards) >= 2 and len(v["hand"]) > len(cards):
            return (1, ply)
    raise AssertionError("no Seven Diamonds position with a choice")


def sd_links(record: dict[str, Any]) -> dict[str, str]:
    at = sd_choice(record)
    return {"replay": encode(Link(record, None, "replay", None, False)),
            "play": encode(Link(record, at, "play", None, False)),
            "puzzle": encode(Link(record, at, "puzzle", None, True)),
            "at": f"{at[0]},{at[1]}"}


# What most embed tests use: one Chkobba round and one Seven Diamonds round,
# their links and the positions those links stop at (read-only: never change them).
READY = "body[data-state=ready]"
ROOT = ".embed-table"
RECORD = sample_record()
LINKS = links(RECORD)
AT = tuple(int(x) for x in LINKS["at"].split(","))
SD_RECORD = sd_record()
SD_LINKS = sd_links(SD_RECORD)
SD_AT = tuple(int(x) for x in SD_LINKS["at"].split(","))
