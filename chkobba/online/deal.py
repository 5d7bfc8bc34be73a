"""No phone chooses the cards: each round's decks come from seeds every
phone commits to before any is revealed, and every phone can audit a round.

For round ``r`` (from 1, as the record's round entries), every phone at the
table draws a random 128-bit seed and sends its SHA-256 (:func:`commitment`).
Only once the host has every commitment, and has sent the list to every
phone, does any phone reveal its seed (to the host only, over the encrypted
channel). The round's seed is the SHA-256 of every revealed seed in seat
order (:func:`round_seed`); deck ``j`` of the round (``j`` > 0: a re-deal) is
the game's full deck shuffled by ``Random(f"{round_seed}/{j}")`` (:func:`deck`),
the same in CPython and Pyodide. A phone that picks its seed after seeing
others' cannot: it committed first; one honest seed makes the deck uniform.

After the round, the host sends every phone the commitments, the seeds and
the round's record entry (decks and actions); :func:`audit` checks that each
seed matches its commitment, that the phone's own seed is there unchanged,
that every deck is the one the seeds give, that the actions are the ones
played live, and that the engine accepts every move of the round.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping

from ..cards import CODES
from ..errors import ChkobbaError
from ..records import Record, RoundRecord, replay
from ..registry import game_class
from .wire import HEX32, OnlineError

DOMAIN = b"chkobba-online/1"


def commitment(seed: str) -> str:
    """The SHA-256 (hex) a phone commits to for its seed (32 hex digits)."""
    return hashlib.sha256(DOMAIN + b"/commit/" + seed.encode("ascii")).hexdigest()


def round_seed(game: str, round_number: int, reveals: Mapping[int, str]) -> str:
    """The round's seed: SHA-256 of every revealed seed, in seat order."""
    h = hashlib.sha256(DOMAIN + b"/round/" + game.encode("ascii") + b"/" + str(round_number).encode("ascii"))
    for seat in sorted(reveals):
        h.update(b"/" + str(seat).encode("ascii") + b":" + reveals[seat].encode("ascii"))
    return h.hexdigest()


def first_dealer(seed: str, players: int) -> int:
    """The first dealer, drawn from round 1's seed (no phone picks it)."""
    return int(seed[:8], 16) % players


def deck(game: str, seed: str, index: int) -> list[str]:
    """Deck ``index`` (0: the round's deal; 1, 2...: its re-deals) as card codes."""
    cards = list(game_class(game).full_deck())
    random.Random(f"{seed}/{index}").shuffle(cards)
    return [CODES[c] for c in cards]


def audit(record: Record, round_number: int, commits: Mapping[int, str], reveals: Mapping[int, str],
          seen: Mapping[int, str] | None = None, own: tuple[int, str] | None = None) -> None:
    """Check round ``round_number`` (from 1) of ``record`` against the seeds.

    ``commits`` and ``reveals``: seat -> commitment / seed as sent; ``seen``:
    the round's actions this phone received while they were played (ply ->
    action; a phone that was away saw only some);
    ``own``: this phone's (seat, seed). Raises :class:`OnlineError` (code
    ``online.audit_*``) on the first thing that does not hold."""
    if not 1 <= round_number <= len(record.rounds):
        raise OnlineError("online.audit_round", round=round_number)
    if set(commits) != set(reveals) or not commits:
        raise OnlineError("online.audit_seats", round=round_number, seats=sorted(commits),
                          revealed=sorted(reveals))
    for seat in sorted(reveals):
        value = reveals[seat]
        if not isinstance(value, str) or not HEX32.fullmatch(value) or commitment(value) != commits[seat]:
            raise OnlineError("online.audit_seed", round=round_number, seat=seat)
    if own is not None and reveals.get(own[0]) != own[1]:
        raise OnlineError("online.audit_own", round=round_number)
    seed = round_seed(record.game, round_number, reveals)
    players = game_class(record.game).options_class().from_dict(record.options).players
    if round_number == 1 and record.first_dealer != first_dealer(seed, players):
        raise OnlineError("online.audit_deck", round=round_number, deck=0)
    entry: RoundRecord = record.rounds[round_number - 1]
    for j, cards in enumerate(entry.decks):
        if list(cards) != deck(record.game, seed, j):
            raise OnlineError("online.audit_deck", round=round_number, deck=j)
    if seen is not None:
        for ply in sorted(seen):
            got = entry.actions[ply] if 0 <= ply < len(entry.actions) else "nothing"
            if got != seen[ply]:
                raise OnlineError("online.audit_moves", round=round_number, ply=ply, action=got, seen=seen[ply])
    cut = Record(record.game, dict(record.options), record.first_dealer,
                 [RoundRecord([list(d) for d in r.decks], list(r.actions)) for r in record.rounds[:round_number]])
    try:
        replay(cut)
    except ChkobbaError as e:
        raise OnlineError("online.audit_replay", round=round_number,
                          reason={"code": e.code, "params": e.params}) from None
