"""The quicker capture and the computer's thinking sign (issue 38, item 9).

With a hand card picked, a tap on a table card takes at once when exactly
one legal capture of that card contains what the player pointed at; when
several do, the card is only picked and Take finishes. Dragging a hand card
onto a table card is the same as picking it and tapping that card; a drag
dropped on nothing changes nothing. While a computer seat thinks at the
normal pace, a small sign shows at its seat until its move does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from e2e_driver import HAND, MESSAGE, PHONE, TABLE_CARDS, btn, load_save, open_table, saved, settle

from chkobba import web
from chkobba.session import Session


def _captures(s: Session) -> list[tuple[str, list[str]]]:
    return [(a.split("x")[0], [a.split("x")[1][i:i + 2] for i in range(0, len(a.split("x")[1]), 2)])
            for a in s.legal() if "x" in a and not a.startswith("claim")]


Found = tuple[Session, str, str]


def _find(test: Callable[[Session], tuple[str, str] | None], players: int = 2) -> Found:
    """A seeded position with seat 0 to play where ``test`` finds a (hand card, table card)."""
    for seed in range(1, 400):
        s = Session.new("chkobba", {"players": players}, seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            if s.to_act() is None:
                break
            legal = s.legal()
            if s.to_act() == 0 and s.state.phase == "play":
                got = test(s)
                if got:
                    return s, got[0], got[1]
            words = [a for a in legal if a in ("keep", "pass", "refuse")]
            s.apply(words[0] if words else rng.choice([a for a in legal if not a.startswith("claim")]))
    raise AssertionError("no such position in the seeds tried")


def _single(s: Session) -> tuple[str, str] | None:
    """A hand card whose only capture containing some table card is that card alone."""
    caps = _captures(s)
    for h, taken in caps:
        if len(taken) == 1:
            c = taken[0]
            if [t for hh, t in caps if hh == h and c in t] == [[c]]:
                return h, c
    return None


def _shared(s: Session) -> tuple[str, str] | None:
    """A hand card with a table card in two of its legal captures."""
    caps = _captures(s)
    for h, _ in caps:
        for c in s.view(0)["table"]:
            if len([t for hh, t in caps if hh == h and c in t]) >= 2:
                return h, c
    return None


def _save(session: Session) -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": "easy"}] * (session.view(0)["players"] - 1)
    return {"v": web.SAVE_VERSION, "record": session.record(), "seed": session.seed, "seats": seats}


def _actions(page: Any) -> list[str]:
    return list(saved(page)["record"]["rounds"][-1]["actions"])


def _open(make_page: Any, session: Session) -> Any:
    page = make_page(PHONE)
    open_table(page)
    page.select_option("#pace", "instant")
    load_save(page, _save(session))
    assert settle(page) == "you"
    return page


def _played(page: Any, n: int, timeout: int = 10_000) -> None:
    page.wait_for_function("(n) => window.chkobbaApp.state.save.record.rounds.at(-1).actions.length > n"
                           " || window.chkobbaApp.state.save.record.rounds.length > 1", arg=n, timeout=timeout)


def _drag(page: Any, source: str, target: str | tuple[float, float]) -> None:
    box = page.locator(source).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    if isinstance(target, str):
        t = page.locator(target).bounding_box()
        x, y = t["x"] + t["width"] / 2, t["y"] + t["height"] / 2
    else:
        x, y = target
    page.mouse.move(x, y, steps=8)
    page.mouse.up()


def test_one_tap_takes_a_single_card_capture(make_page: Any) -> None:
    s, h, c = _find(_single)
    page = _open(make_page, s)
    n = len(_actions(page))
    page.click(f'{HAND} .card[data-card="{h}"]')
    page.click(f'{TABLE_CARDS} .card[data-card="{c}"]')
    _played(page, n)
    assert _actions(page)[n] == f"{h}x{c}"


def test_a_card_in_two_captures_is_only_picked_then_take(make_page: Any) -> None:
    s, h, c = _find(_shared)
    caps = [t for hh, t in _captures(s) if hh == h and c in t]
    page = _open(make_page, s)
    n = len(_actions(page))
    page.click(f'{HAND} .card[data-card="{h}"]')
    page.click(f'{TABLE_CARDS} .card[data-card="{c}"]')
    assert page.get_attribute(f'{TABLE_CARDS} .card[data-card="{c}"]', "aria-pressed") == "true"
    page.wait_for_timeout(300)
    assert len(_actions(page)) == n, "a capture the player did not point at all of was made"
    # the rest of the smallest capture, picked by hand (each tap may finish it once it is the only one)
    chosen = min(caps, key=len)
    for other in chosen:
        if other == c:
            continue
        if len(_actions(page)) > n:
            break
        page.click(f'{TABLE_CARDS} .card[data-card="{other}"]')
    if len(_actions(page)) == n:
        page.click(btn("take"))
    _played(page, n)
    card, taken = _actions(page)[n].split("x")
    assert card == h and sorted(taken[i:i + 2] for i in range(0, len(taken), 2)) == sorted(chosen)


def test_drag_onto_a_table_card_captures(make_page: Any) -> None:
    s, h, c = _find(_single)
    page = _open(make_page, s)
    n = len(_actions(page))
    _drag(page, f'{HAND} .card[data-card="{h}"]', f'{TABLE_CARDS} .card[data-card="{c}"]')
    _played(page, n)
    assert _actions(page)[n] == f"{h}x{c}"


def test_drag_dropped_on_nothing_changes_nothing(make_page: Any) -> None:
    s, h, _ = _find(_single)
    page = _open(make_page, s)
    before = saved(page)
    felt = page.locator("#table .scoreline").bounding_box()
    _drag(page, f'{HAND} .card[data-card="{h}"]', (felt["x"] + 4, felt["y"] + felt["height"] / 2))
    page.wait_for_timeout(300)
    assert saved(page) == before
    assert page.locator(f"{TABLE_CARDS} .card.selected").count() == 0
    assert page.locator(MESSAGE).inner_text().strip() == ""


def test_thinking_sign_at_the_computers_seat_until_its_move(make_page: Any) -> None:
    s, h, c = _find(_single)
    page = _open(make_page, s)
    page.select_option("#pace", "normal")
    n = len(_actions(page))
    page.click(f'{HAND} .card[data-card="{h}"]')
    page.click(f'{TABLE_CARDS} .card[data-card="{c}"]')
    _played(page, n)
    sign = '#table .seat[data-seat="1"] .thinking'
    page.wait_for_selector(sign, state="visible", timeout=5_000)
    label = page.get_attribute(sign, "aria-label") or ""
    assert "thinking" in label.lower(), label
    # never over the score line or the status line's last move
    box = page.locator(sign).bounding_box()
    for other in ("#table .scoreline", "#table .last-move"):
        o = page.locator(other).bounding_box()
        if o and o["width"] and o["height"]:
            apart = (box["x"] + box["width"] <= o["x"] or o["x"] + o["width"] <= box["x"]
                     or box["y"] + box["height"] <= o["y"] or o["y"] + o["height"] <= box["y"])
            assert apart, other
    # gone once the computer's move shows
    page.wait_for_function("(n) => window.chkobbaApp.state.save.record.rounds.at(-1).actions.length > n + 1"
                           " || window.chkobbaApp.state.save.record.rounds.length > 1", arg=n, timeout=30_000)
    page.wait_for_function("() => !window.chkobbaApp.busy")
    assert page.locator(sign).is_hidden() or page.locator(sign).count() == 0
