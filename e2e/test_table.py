"""The Chkobba table in a real browser, driven by clicks."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from e2e_driver import (DESKTOP, HAND, MESSAGE, PHONE, SCORELINE, TABLE_CARDS, btn, load_save, open_table, pick_action,
                        pile, play_until_summary, point_and_play, replay, saved, session_of, settle, shot, start_game,
                        state)

from chkobba import web
from chkobba.session import Session


SUIT_SYMBOLS = {"D": "\u2666\ufe0e", "H": "\u2665\ufe0e", "S": "\u2660\ufe0e", "C": "\u2663\ufe0e"}


def symbols(text: str) -> str:
    """English engine text with its card codes as the page shows them (6H -> 6♥)."""
    return re.sub(r"\b([A2-9TJQK])([DHSC])\b",
                  lambda m: ("10" if m[1] == "T" else m[1]) + SUIT_SYMBOLS[m[2]], text)


def _human_save(session: Session, players: int = 2) -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": "easy"}] * (players - 1)
    return {"v": web.SAVE_VERSION, "record": session.record(), "seed": session.seed, "seats": seats}


def _screen_scores(page: Any) -> dict[str, Any]:
    rows = {}
    for key in ("karta", "dinari", "barmila", "haya", "chkobba"):
        rows[key] = [int(page.get_attribute(f'#summary .breakdown tr[data-row="{key}"] td[data-side="{s}"]', "data-points"))
                     for s in (0, 1)]
    rows["points"] = [int(page.inner_text(f'#summary .breakdown tr[data-row="points"] td[data-side="{s}"]')) for s in (0, 1)]
    rows["score"] = [int(page.inner_text(f'#summary .breakdown tr[data-row="score"] td[data-side="{s}"]')) for s in (0, 1)]
    return rows


def test_boots_to_start_screen_with_engine_defaults(make_page: Any) -> None:
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = make_page(viewport)
        page.goto(page.base_url)
        # The table is drawn from HTML/CSS before Python is ready.
        assert page.locator("#table").is_visible()
        page.wait_for_selector("html.ready")
        assert page.locator("#start").is_visible()
        assert page.evaluate("() => document.getElementById('start').open")
        defaults = web.defaults()["chkobba"]
        form = page.evaluate("""() => { const f = document.getElementById('start-form');
            return {faces: f.faces.value, capture: f.capture.value, target: +f.target.value, match: +f.match.value,
                    missed_capture: f.missed_capture.checked, last_card_sweep: f.last_card_sweep.checked,
                    redeal: f.redeal.checked, all_diamonds_wins: f.all_diamonds_wins.checked,
                    players: +f.players.value}; }""")
        assert form == defaults
        shot(page, f"start-{name}")
        # Nothing but the page's own origin was asked for, the worker included.
        page.wait_for_selector("html.ai-ready")
        assert not page.watch.foreign()
        assert any(re.search(r"/pyodide/[0-9a-f]{12}/pyodide.asm.wasm$", u) for u in page.watch.requests)


def test_full_1v1_round_by_clicks_matches_engine_replay(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=11")
    start_game(page, players=2, levels=("easy",))
    settle(page)
    st = play_until_summary(page)
    shot(page, "summary-phone")
    record = saved(page)["record"]
    out = replay(record)
    screen = _screen_scores(page)
    last = out["rounds"][-1]
    for key in ("karta", "dinari", "barmila", "haya", "chkobba", "points"):
        assert screen[key] == last[key], key
    assert screen["score"] == out["score"] or out["games"] != [0, 0]
    page.click("#summary-next")
    scoreline = page.get_attribute(SCORELINE, "data-score")
    assert [int(x) for x in scoreline.split(",")] == out["score"]
    assert st["view"]["results"][-1]["points"] == last["points"]
    assert_search_stays_off_the_main_thread(page, "1v1")


def assert_search_stays_off_the_main_thread(page: Any, name: str) -> None:
    """The page never freezes while the computer thinks: by construction the
    players think in slices (``think``, web/shell/py.js + web/ai.py), so the
    main thread's other Python work is only the facade's quick calls (act,
    render, save, summary; never a whole search in one call).

    How long each piece of main-thread work takes is measured, not asserted
    (timings vary with the machine's load): this test writes what it saw to
    test-artifacts/, and bench/main_thread.py measures it for docs/."""
    import json
    from e2e_driver import ARTIFACTS
    timings = page.evaluate("() => window.chkobbaApp.timings")
    long_tasks = page.evaluate("() => window.__longTasks")
    kinds = {t[0] for t in timings}
    assert {"act", "render", "save", "summary"} <= kinds, kinds
    assert not kinds & {"choose", "hint", "search"}, kinds
    assert "think start" in kinds, kinds   # every computer move starts with one (then "think" slices)
    assert page.evaluate("() => window.chkobbaApp.workerChoices") > 0
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"main-thread-{name}.json").write_text(json.dumps(
        {"ai_ready_at": page.evaluate("() => window.__aiReadyAt"), "timings": timings, "long_tasks": long_tasks}))


def test_full_2v2_round_with_computer_partner(make_page: Any) -> None:
    page = make_page(DESKTOP)
    open_table(page, "?seed=5")
    start_game(page, players=4, levels=("easy", "medium", "easy"))
    settle(page)
    assert page.locator('#table .seat[data-pos="top"] .seat-name').inner_text().startswith("Partner")
    # mid-round screenshot after a few moves
    for _ in range(3):
        if settle(page) != "you":
            break
        point_and_play(page, pick_action(state(page)["save"]))
    settle(page)
    shot(page, "table-2v2-desktop")
    play_until_summary(page)
    shot(page, "summary-2v2-desktop")
    record = saved(page)["record"]
    assert record["options"]["players"] == 4
    out = replay(record)
    assert _screen_scores(page)["points"] == out["rounds"][-1]["points"]
    assert_search_stays_off_the_main_thread(page, "2v2")


def _position_with_human_to_play(seed: int, players: int = 2) -> Session:
    """A seeded match advanced by the engine until seat 0 is to play a card
    with cards on the table."""
    s = Session.new("chkobba", {"players": players}, seed=seed)
    rng = random.Random(seed)
    while True:
        legal = s.legal()
        if s.to_act() == 0 and s.state.phase == "play" and len(s.view(0)["table"]) >= 2:
            return s
        words = [a for a in legal if a in ("keep", "pass", "refuse")]
        s.apply(words[0] if words else rng.choice([a for a in legal if not a.startswith("claim")]))


def test_illegal_capture_shows_reason_and_changes_nothing(make_page: Any) -> None:
    session = _position_with_human_to_play(3)
    v = session.view(0)
    legal = set(session.legal())
    bad = next(f"{h}x{t}" for h in v["hand"] for t in v["table"] if f"{h}x{t}" not in legal)
    page = make_page(PHONE)
    open_table(page)
    load_save(page, _human_save(session))
    assert settle(page) == "you"
    before = saved(page)
    hand_before = page.locator(f"{HAND} .card").evaluate_all("els => els.map(e => e.dataset.card)")
    card, take = bad.split("x")
    page.click(f'{HAND} .card[data-card="{card}"]')
    page.click(f'{TABLE_CARDS} .card[data-card="{take}"]')
    page.click(btn("take"))
    message = page.locator(MESSAGE)
    message.wait_for(state="visible")
    text = message.inner_text()
    try:
        session.apply(bad)
    except Exception as exc:  # the engine's own words for the same attempt, in plain words
        assert text == "That move is not allowed: " + symbols(str(exc))
    else:
        raise AssertionError(f"{bad} was legal")
    # cards are shown as symbols (6♥), never as codes (6H)
    assert not re.search(r"\b[A2-7JQK][DHSC]\b", text), text
    assert saved(page) == before
    assert page.locator(f"{HAND} .card").evaluate_all("els => els.map(e => e.dataset.card)") == hand_before
    shot(page, "illegal-capture-phone")


def _missed_capture_position() -> tuple[Session, str]:
    """Seat 1 has just laid a card that could have captured; seat 0 (the
    human) may claim. Found by the engine from seeded deals."""
    for seed in range(200):
        s = Session.new("chkobba", {"players": 2}, seed=seed)
        rng = random.Random(seed)
        while s.to_act() is not None and s.state.round_index == 0:
            legal = s.legal()
            if s.to_act() == 1 and s.state.phase == "play":
                lays = [a for a in legal if len(a) == 2]
                for lay in lays:
                    trial = Session.from_record(s.record(), seed=s.seed)
                    trial.apply(lay)
                    claims = [a for a in trial.legal() if a.startswith("claim ")]
                    if claims and trial.to_act() == 0:
                        return trial, claims[0]
            words = [a for a in legal if a in ("keep", "pass", "refuse")]
            s.apply(words[0] if words else rng.choice([a for a in legal if not a.startswith("claim")]))
    raise AssertionError("no missed-capture position found")


def test_claim_missed_capture_by_pointing(make_page: Any) -> None:
    session, claim = _missed_capture_position()
    page = make_page(DESKTOP)
    open_table(page)
    load_save(page, _human_save(session))
    assert settle(page) == "you"
    pile_before = int(page.get_attribute(pile(0), "data-count"))
    # The claim button offers itself after every lay; nothing marks which
    # table cards could have been taken.
    assert page.locator(btn("claim")).is_visible()
    assert page.locator(f"{TABLE_CARDS} .card.hint, {TABLE_CARDS} .card.claimable").count() == 0
    point_and_play(page, claim)
    settle(page)
    st = state(page)
    assert st["view"]["last"]["kind"] == "claim"
    assert st["view"]["last"]["seat"] == 0
    taken = 1 + len(claim.split("x")[1]) // 2
    assert int(page.get_attribute(pile(0), "data-count")) == pile_before + taken
    assert saved(page)["record"]["rounds"][-1]["actions"][-1] == claim


def test_reload_mid_round_resumes_same_position(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=21")
    start_game(page, players=2, levels=("medium",))
    for _ in range(4):
        assert settle(page) == "you"
        point_and_play(page, pick_action(state(page)["save"]))
    settle(page)
    shot(page, "table-phone")
    before = state(page)
    page.reload()
    page.wait_for_selector("html.ready")
    settle(page)
    after = state(page)
    assert after["save"] == before["save"]
    assert after["view"]["hand"] == before["view"]["hand"]
    assert after["view"]["table"] == before["view"]["table"]
    assert page.locator(f"{HAND} .card").evaluate_all("els => els.map(e => e.dataset.card)") == before["view"]["hand"]
    # Same engine position as the record replayed in CPython.
    assert session_of(after["save"]).view(0)["table"] == after["view"]["table"]


def test_corrupted_save_is_reported_and_a_new_game_starts(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=4")
    # The player's chosen settings: 2 v 2 with hard computers, hints on.
    start_game(page, players=4, levels=("hard", "hard", "easy"), coach=True)
    damaged = ['{"v": 1, "record": {"game": "chkobba"', '{"v": 2, "record": 5}', "not a save", '{"v": 1}']
    for i, raw in enumerate(damaged):
        # Wait for the player's turn: a computer move still under way would
        # save over the damaged save before the reload reads it.
        assert settle(page) == "you"
        # no good save before it either (else the game resumes from that one: the next test)
        page.evaluate("(raw) => { localStorage.setItem('chkobba.save.v1', raw); localStorage.removeItem('chkobba.save.previous.v1'); }", raw)
        page.reload()
        page.wait_for_selector("html.ready")
        notice = page.locator("#notice")
        assert notice.is_visible()
        text = notice.locator(".notice-text").inner_text()
        # worded for a player: no programmer words, one line, says what happened
        assert "new game" in text and "damaged" in text, text
        assert "JSON" not in text and "\n" not in text.strip(), text
        # The new game uses the settings the player chose, not the defaults.
        st = state(page)
        assert st["view"]["players"] == 4
        assert [s.get("level") for s in st["seats"][1:]] == ["hard", "hard", "easy"]
        assert st["coach"] is True
        assert saved(page)["v"] == web.SAVE_VERSION
        if i == 0:
            shot(page, "damaged-save-notice-phone")
            with page.expect_download() as dl:
                notice.locator(".notice-download").click()
            path = dl.value.path()
            assert path is not None and open(path, encoding="utf-8").read() == raw
    # the last three damaged saves are kept, newest last
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('chkobba.damaged.v1'))")
    assert [k["text"] for k in kept] == damaged[-3:]
    # the notice can be dismissed
    page.click("#notice .notice-dismiss")
    assert page.locator("#notice").is_hidden()


def test_a_damaged_latest_save_resumes_from_the_move_before(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=21")
    start_game(page, players=2, levels=("easy",))
    for _ in range(2):
        assert settle(page) == "you"
        point_and_play(page, pick_action(state(page)["save"]))
    assert settle(page) == "you"
    latest = page.evaluate("() => localStorage.getItem('chkobba.save.v1')")
    previous = page.evaluate("() => localStorage.getItem('chkobba.save.previous.v1')")
    assert previous is not None and previous != latest
    # the same game, one move (or a computer's move) earlier
    assert len(json.dumps(json.loads(previous)["record"])) < len(json.dumps(json.loads(latest)["record"]))
    damaged = latest[: len(latest) // 2]
    page.evaluate("(raw) => localStorage.setItem('chkobba.save.v1', raw)", damaged)
    page.reload()
    page.wait_for_selector("html.ready")
    notice = page.locator("#notice")
    assert notice.is_visible()
    text = notice.locator(".notice-text").inner_text()
    assert "save kept before it" in text and "damaged" in text, text
    settle(page)
    # the game goes on from the previous save (then saved again as the latest)
    assert json.loads(page.evaluate("() => localStorage.getItem('chkobba.save.v1')"))["record"]["rounds"][0]["actions"][: len(json.loads(previous)["record"]["rounds"][0]["actions"])] \
        == json.loads(previous)["record"]["rounds"][0]["actions"]
    assert state(page)["save"]["seed"] == json.loads(previous)["seed"]
    # the damaged copy is kept aside as before
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('chkobba.damaged.v1'))")
    assert kept[-1]["text"] == damaged


def test_desktop_mid_round_and_summary_screenshots(make_page: Any) -> None:
    page = make_page(DESKTOP)
    open_table(page, "?seed=11")
    start_game(page, players=2, levels=("easy",))
    settle(page)
    shot(page, "table-desktop")
    play_until_summary(page)
    shot(page, "summary-desktop")


def _pass_and_play_round_end() -> tuple[dict[str, Any], str, int, int]:
    """A 4-player pass-and-play save (partners at seats 0 and 2: the last to
    play a round and the next round's cutter are partners)
    one move before a round's end, where the next round is opened by the
    other person: the save, the move, its mover and the next person."""
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}, {"kind": "human"},
             {"kind": "computer", "level": "easy"}]
    for seed in range(40):
        s = Session.new("chkobba", {"players": 4, "target": 21}, seed=seed)
        rng = random.Random(seed)
        while not s.state.results and s.to_act() is not None:
            mover = s.to_act()
            assert mover is not None
            action = rng.choice([a for a in s.legal() if not a.startswith("claim")] or s.legal())
            after = s.copy()
            after.apply(action)
            nxt = after.to_act()
            if after.state.results and mover in (0, 2) and nxt in (0, 2) and nxt != mover:
                save = {"v": web.SAVE_VERSION, "game": "chkobba", "record": s.record(), "seed": s.seed,
                        "seats": seats, "coach": False}
                return save, action, mover, nxt
            s = after
    raise AssertionError("no such round end")


def test_pass_and_play_round_end_is_read_from_one_seat(make_page: Any) -> None:
    """Issue 23: at a pass-and-play round's end the table behind the summary
    showed one player's view with the score from before the round, while the
    summary was written for the next player. Now both are the mover's, with
    the new score; closing the summary hands the device over."""
    save, action, mover, nxt = _pass_and_play_round_end()
    page = make_page(PHONE)
    open_table(page)
    load_save(page, save)
    page.wait_for_selector(".handoff:not([hidden])")
    page.click(".handoff-go")
    page.wait_for_function("() => window.chkobbaApp.state.handoff === null")
    assert state(page)["human"] == mover
    point_and_play(page, action)
    page.wait_for_selector("#summary[open]", timeout=60_000)
    st = state(page)
    assert st["human"] == mover and st["handoff"] is None and st["to_act"] == nxt
    mine = next(i for i, side in enumerate(st["sides"]) if mover in side)
    # the summary's first column is the mover's side, and so is the table's score line behind it
    first = page.get_attribute('#summary .breakdown tr[data-row="points"] td[data-side]', "data-side")
    assert first == str(mine)
    score = st["sheet"]["score"]
    assert page.get_attribute(SCORELINE, "data-score") == f"{score[0]},{score[1]}"
    assert sum(score) > 0 or st["sheet"]["rounds"][-1]["game_over"]
    shot(page, "pass-and-play-round-end")
    page.click("#summary-next")
    page.wait_for_selector(".handoff:not([hidden])")
    st = state(page)
    assert st["handoff"] == nxt and st["human"] == nxt and st["view"]["hand"] == []
    assert page.locator(f"{HAND} .card").count() == 0
