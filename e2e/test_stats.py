"""Player statistics in the browser (issue 12, docs/stats.md): a match
finished at the table is counted once (a reload at its end changes nothing),
the Statistics dialog shows the engine's numbers, the exported file imported
into a fresh browser profile gives the same numbers, a bad file gives one
plain error and changes nothing, and a damaged stored value is kept aside."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from chkobba.session import Session

from e2e_driver import (ARTIFACTS, DESKTOP, NARROW, PHONE, open_table, pick_action, point_and_play, replay,
                        settle, shot, state)

STATS_KEY = "chkobba.stats.v1"
COLS = ("matches", "wins", "rounds", "avg_points", "chkobbas", "best_streak", "streak")
SEED = 11


def near_the_end(seed: int, back: int = 3) -> dict[str, Any]:
    """A legal save of a 1 v 1 match to 11 against the easy computer, a few
    actions before the end of the match (both seats played at random)."""
    s = Session.new("chkobba", {"players": 2, "target": 11}, seed=seed)
    rng = random.Random(seed)
    while s.to_act() is not None:
        s.apply(rng.choice(s.legal()))
    rounds = s.record()["rounds"]
    at = (len(rounds), max(0, len(rounds[-1]["actions"]) - back))
    cut = Session.from_record(s.record(), seed=seed, at=at)
    return {"v": 2, "game": "chkobba", "record": cut.record(), "seed": seed,
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}], "coach": False}


def finish_match(page: Any) -> dict[str, Any]:
    """Play the human seat by clicks until the match is over; its last state."""
    for _ in range(400):
        where = settle(page)
        st = state(page)
        if st["sheet"]["over"]:
            page.wait_for_function("() => document.getElementById('summary').open")
            return st
        if where == "summary":
            page.click("#summary-next")
            continue
        assert where == "you", where
        point_and_play(page, pick_action(st["save"]))
    raise AssertionError("the match did not end")


def expected_numbers(save: dict[str, Any]) -> dict[str, float]:
    """What the dialog must show for one finished match, from the engine's
    replay output of the same record (seat 0's side)."""
    out = replay(save["record"])
    assert out["winner"] is not None
    rounds = out["rounds"]
    points = sum(r["points"][0] for r in rounds)
    won = out["winner"] == 0
    return {"matches": 1, "wins": int(won), "rounds": len(rounds), "avg_points": round(points / len(rounds), 2),
            "chkobbas": sum(r["chkobba"][0] for r in rounds), "best_streak": int(won), "streak": int(won)}


def numbers(row: dict[str, str]) -> dict[str, float]:
    return {k: float(row[k]) for k in COLS}


def open_stats(page: Any) -> None:
    """The Statistics dialog, from the top bar (or from the start screen, shown first on a new phone)."""
    page.wait_for_selector("html.stats-ready")
    start_open = page.evaluate("() => document.getElementById('start').open")
    page.click("#stats-from-start" if start_open else "#stats-button")
    page.wait_for_function("() => document.getElementById('stats').open")


def close_stats(page: Any) -> None:
    page.click("#stats .stats-close")
    page.wait_for_function("() => !document.getElementById('stats').open")


def shown(page: Any) -> list[dict[str, str]]:
    """The rows of the dialog's tables: the group's data and every number."""
    return list(page.evaluate("""() => [...document.querySelectorAll('#stats table.stats-table:not([data-daily]) tbody tr')].map((tr) => {
        const row = {game: tr.closest('table').dataset.game, level: tr.dataset.level, variant: tr.dataset.variant};
        for (const td of tr.querySelectorAll('td')) row[td.dataset.col] = td.dataset.value;
        row.label = tr.querySelector('th').textContent;
        return row; })"""))


def stored(page: Any) -> Any:
    return page.evaluate(f"() => localStorage.getItem('{STATS_KEY}')")


def test_a_finished_match_is_counted_once_exported_and_imported(make_page: Any, tmp_path: Path) -> None:
    page = make_page(DESKTOP)
    open_table(page)
    page.select_option("#pace", "instant")
    page.evaluate("(s) => localStorage.setItem('chkobba.save.v1', s)", json.dumps(near_the_end(SEED)))
    page.reload()
    page.wait_for_selector("html.ready")
    open_stats(page)
    assert page.locator("#stats .stats-empty").is_visible()
    assert shown(page) == []
    close_stats(page)

    final = finish_match(page)
    want = expected_numbers(final["save"])
    page.wait_for_function(f"() => localStorage.getItem('{STATS_KEY}') !== null")
    assert len(json.loads(stored(page))["matches"]) == 1
    # The end-of-match summary leads to the statistics, which already count this match.
    assert page.locator("#summary-stats").is_visible()
    page.click("#summary-stats")
    page.wait_for_function("() => document.getElementById('stats').open")
    assert numbers(shown(page)[0]) == want
    close_stats(page)
    assert page.evaluate("() => document.getElementById('summary').open")
    assert page.evaluate("() => document.activeElement.id") == "summary-stats"
    # A reload at the end of the match resumes the finished game: not counted again.
    page.reload()
    page.wait_for_selector("html.ready")
    page.wait_for_function("() => document.getElementById('summary').open")
    assert state(page)["save"]["record"] == final["save"]["record"]
    page.click("#summary-next")          # play again: a new match, not finished
    page.wait_for_function("() => !document.getElementById('summary').open")
    open_stats(page)
    [row] = shown(page)
    assert numbers(row) == want, (row, want)
    assert row["game"] == "chkobba" and row["level"] == "easy"
    assert json.loads(row["variant"]) == {"players": 2, "capture": "optional", "target": 11, "match": 1}
    assert "easy" in row["label"] and "11" in row["label"]
    assert page.locator("#stats table.stats-table caption").inner_text() == "Chkobba"
    headers = page.locator("#stats table.stats-table thead th").all_inner_texts()
    assert headers[:3] == ["Table", "Played", "Won"]
    shot(page, "stats-dialog-1280x800")

    with page.expect_download() as info:
        page.click("#stats .stats-export")
    download = info.value
    assert re.fullmatch(r"chkobba-stats-\d{4}-\d{2}-\d{2}\.json", download.suggested_filename)
    exported = tmp_path / download.suggested_filename
    download.save_as(exported)
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["format"] == "chkobba-stats" and data["version"] == 1 and len(data["matches"]) == 1
    assert "Downloaded" in page.locator("#stats .stats-status").inner_text()

    # A new phone: a fresh browser profile, nothing stored; the file brings everything back.
    fresh = make_page(PHONE)
    open_table(fresh)
    open_stats(fresh)
    assert shown(fresh) == []
    fresh.set_input_files("#stats .stats-file", str(exported))
    fresh.wait_for_selector("#stats table.stats-table")
    [again] = shown(fresh)
    assert numbers(again) == want
    assert again["variant"] == row["variant"] and again["level"] == "easy"
    assert json.loads(stored(fresh)) == data
    assert "1" in fresh.locator("#stats .stats-status").inner_text()
    # The same file again: every match counts once.
    fresh.set_input_files("#stats .stats-file", str(exported))
    fresh.wait_for_function("() => document.querySelector('#stats .stats-status').textContent.includes('0')")
    assert numbers(shown(fresh)[0]) == want

    # A bad file: one plain error, nothing changed.
    before = stored(fresh)
    bad = tmp_path / "bad.json"
    broken = dict(data, matches=[[m[0], 7] + m[2:] for m in data["matches"]])
    bad.write_text(json.dumps(broken), encoding="utf-8")
    fresh.set_input_files("#stats .stats-file", str(bad))
    error = fresh.locator("#stats .stats-error")
    error.wait_for(state="visible")
    text = error.inner_text()
    assert "Nothing was changed" in text and "\n" not in text.strip()
    assert stored(fresh) == before
    assert numbers(shown(fresh)[0]) == want
    shot(fresh, "stats-dialog-bad-file-360x640")
    # Not JSON at all, and a file far too large: the same single kind of error.
    bad.write_text("{\"format\": \"chkobba-stats\", ", encoding="utf-8")
    fresh.set_input_files("#stats .stats-file", str(bad))
    fresh.wait_for_function("() => document.querySelector('#stats .stats-error').textContent.includes('JSON')")
    big = tmp_path / "big.json"
    big.write_text(" " * 700_000, encoding="utf-8")
    fresh.set_input_files("#stats .stats-file", str(big))
    fresh.wait_for_function("() => document.querySelector('#stats .stats-error').textContent.includes('too large')")
    assert stored(fresh) == before

    # Reset asks first; "Keep them" keeps them, "Erase them" erases.
    fresh.click("#stats .stats-reset")
    fresh.click("#stats .stats-reset-no")
    assert stored(fresh) == before
    fresh.click("#stats .stats-reset")
    assert fresh.locator("#stats .stats-confirm").is_visible()
    # the daily deal's results are in the same store: the question says they go too
    assert "daily deal results included" in fresh.locator("#stats .stats-confirm").inner_text()
    fresh.click("#stats .stats-reset-yes")
    assert stored(fresh) is None
    assert fresh.locator("#stats .stats-empty").is_visible()


def test_a_game_with_takebacks_is_counted_apart(make_page: Any, tmp_path: Path) -> None:
    page = make_page(PHONE)
    open_table(page)
    page.select_option("#pace", "instant")
    save = dict(near_the_end(SEED + 1), takebacks=2)     # the save counts the game's take-backs
    page.evaluate("(s) => localStorage.setItem('chkobba.save.v1', s)", json.dumps(save))
    page.reload()
    page.wait_for_selector("html.ready")
    final = finish_match(page)
    want = expected_numbers(final["save"])
    page.wait_for_function(f"() => localStorage.getItem('{STATS_KEY}') !== null")
    kept = json.loads(stored(page))
    assert kept["version"] == 3 and kept["matches"][0][7] == 2
    page.click("#summary-stats")
    page.wait_for_function("() => document.getElementById('stats').open")
    [row] = shown(page)
    assert numbers(row) == want                      # counted as any game...
    apart = page.locator("#stats .stats-takebacks")  # ...and apart
    assert apart.get_attribute("data-played") == "1"
    assert apart.get_attribute("data-won") == str(want["wins"])
    assert apart.inner_text() == f"1 game with take-backs ({want['wins']} won)"
    shot(page, "stats-takebacks-360x640")
    # the exported file carries it; a fresh profile reads it back the same
    with page.expect_download() as info:
        page.click("#stats .stats-export")
    exported = tmp_path / "tb.json"
    info.value.save_as(exported)
    assert json.loads(exported.read_text(encoding="utf-8"))["matches"][0][7] == 2
    fresh = make_page(PHONE)
    open_table(fresh, "?lang=fr")
    open_stats(fresh)
    fresh.set_input_files("#stats .stats-file", str(exported))
    fresh.wait_for_selector("#stats .stats-takebacks")
    assert fresh.locator("#stats .stats-takebacks").inner_text().startswith("1 partie avec reprises de coup")


def test_the_dialog_fits_phones_and_reads_right_to_left(make_page: Any, tmp_path: Path) -> None:
    # Statistics of several groups, made by the engine (a match of each) and imported as a file.
    from chkobba import stats as S
    stats = S.empty()
    for i, (opts, seats) in enumerate([
            ({"players": 2}, [{"kind": "human"}, {"kind": "computer", "level": "easy"}]),
            ({"players": 4, "capture": "compulsory"}, [{"kind": "human"}] + [{"kind": "computer", "level": "hard"}] * 3),
            ({"players": 2, "target": 21, "match": 3}, [{"kind": "human"}, {"kind": "human"}])]):
        s = Session.new("chkobba", opts, seed=i)
        rng = random.Random(i)
        while s.to_act() is not None:
            s.apply(rng.choice(s.legal()))
        stats = S.add_match(stats, s, seats, at=1000 + i)
    s = Session.new("seven_diamonds", {"target": 1, "timers": False}, seed=5)
    rng = random.Random(5)
    while s.to_act() is not None:
        s.apply(rng.choice(s.legal()))
    stats = S.add_match(stats, s, [{"kind": "human"}] + [{"kind": "computer", "level": "medium"}] * 3, at=2000)
    path = tmp_path / "several.json"
    path.write_text(S.to_text(stats), encoding="utf-8")
    want = S.totals(stats)
    for viewport, name, query in ((PHONE, "360x640", ""), (NARROW, "320x640", ""), (PHONE, "360x640-ar", "?lang=ar"),
                                  (DESKTOP, "1280x800-fr", "?lang=fr")):
        page = make_page(viewport)
        open_table(page, query)
        open_stats(page)
        page.set_input_files("#stats .stats-file", str(path))
        page.wait_for_selector("#stats table.stats-table")
        rows = shown(page)
        assert [r["matches"] for r in rows] == [str(t["matches"]) for t in want]
        assert [r["level"] for r in rows] == [t["level"] for t in want]
        assert page.locator("#stats table.stats-table").count() == 2
        # The dialog fits the screen's width; a wide table scrolls inside its own box.
        width = page.evaluate("() => document.getElementById('stats').getBoundingClientRect().right")
        assert width <= viewport["width"]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        if query == "?lang=ar":
            assert page.evaluate("() => document.documentElement.dir") == "rtl"
            assert page.locator("#stats-title").inner_text() == "إحصائياتك"
            # right to left: the row headers start at the right
            th = page.locator("#stats table.stats-table tbody th").first.bounding_box()
            td = page.locator("#stats table.stats-table tbody td").first.bounding_box()
            assert th["x"] > td["x"]
        if query == "?lang=fr":
            assert page.locator("#stats table.stats-table thead th").nth(1).inner_text() == "Joués"
        shot(page, f"stats-dialog-{name}")
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.getElementById('stats').open")
        # focus goes back to the button that opened it
        assert page.evaluate("() => document.activeElement.id") in ("stats-button", "stats-from-start")


def test_a_damaged_stored_value_is_kept_aside_and_reported(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page)
    page.evaluate(f"() => localStorage.setItem('{STATS_KEY}', '{{\"format\": \"chkobba-stats\", \"version\": 1, \"groups\": 5')")
    page.reload()
    page.wait_for_selector("html.stats-ready")
    notice = page.locator("#stats-notice")
    notice.wait_for(state="visible")
    assert "damaged" in notice.inner_text()
    kept = json.loads(page.evaluate("() => localStorage.getItem('chkobba.stats.damaged.v1')"))
    assert kept["text"].startswith('{"format"')
    assert stored(page) is None
    # The start screen (no game yet) covers the page: deal, then the notice can be used.
    page.click("#start-button")
    page.wait_for_function("() => !document.getElementById('start').open")
    shot(page, "stats-damaged-notice-360x640")
    with page.expect_download() as info:
        notice.locator("button").first.click()
    assert info.value.suggested_filename.startswith("chkobba-stats-damaged-")
    open_stats(page)
    assert page.locator("#stats .stats-empty").is_visible()
    assert "damaged" in page.locator("#stats .stats-error").inner_text()
    # a stored value that is JSON but not statistics is kept aside the same way
    close_stats(page)
    page.evaluate(f"() => localStorage.setItem('{STATS_KEY}', '[1, 2, 3]')")
    page.reload()
    page.wait_for_selector("html.stats-ready")
    page.locator("#stats-notice").wait_for(state="visible")
    assert json.loads(page.evaluate("() => localStorage.getItem('chkobba.stats.damaged.v1')"))["text"] == "[1, 2, 3]"
    assert ARTIFACTS.exists()
