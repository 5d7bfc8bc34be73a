"""The daily deal in the page: a date's link deals the same cards and meets
the same computer moves in two fresh browsers (one with its CPU slowed), the
round ends with the result against par, the share text and a link that opens
the same deal; a bad date is one clear error and the normal start. The daily
results live in the statistics (export and import carry them; an older
page's separate key is moved in once); yesterday's deal replays with every
hand shown, today's is refused; par is thought in slices before the end."""

from __future__ import annotations

import json
import time
from datetime import date as Date
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from e2e_driver import PHONE, open_table, pick_action, point_and_play, session_of, settle, shot, state

from chkobba import daily
from chkobba.links import challenge as C
from chkobba.session import Session

STATS_KEY = "chkobba.stats.v1"
OLD_KEY = "chkobba.daily.results"


def stored_daily(page: Any) -> Any:
    raw = page.evaluate(f"() => localStorage.getItem('{STATS_KEY}')")
    return None if raw is None else json.loads(raw).get("daily")

DATE = "2026-12-01"


def play_daily_round(page: Any) -> dict[str, Any]:
    """Play the person's seat (a plain deterministic choice) to the summary."""
    page.select_option("#pace", "instant")
    for _ in range(80):
        where = settle(page)
        if where == "summary":
            return state(page)
        assert where == "you", where
        point_and_play(page, pick_action(state(page)["save"]))
    raise AssertionError("the daily round did not end")


def test_the_daily_link_gives_the_same_deal_and_moves_everywhere(make_page: Any, tmp_path: Path) -> None:
    records = []
    for slow in (False, True):
        page = make_page(PHONE)
        if slow:
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        open_table(page, f"?daily={DATE}&game=chkobba")
        st = state(page)
        assert st["save"]["daily"] == DATE
        assert st["save"]["record"]["rounds"][0]["decks"] == daily.daily(DATE, "chkobba").session().record()["rounds"][0]["decks"]
        assert page.locator("#takeback-button").is_hidden()   # no take-back in the daily deal
        assert page.evaluate("() => location.search") == ""     # a reload resumes, it does not deal again
        st = play_daily_round(page)
        records.append(st["save"]["record"])
        page.wait_for_selector(".daily-result[data-ready]", timeout=120_000)
        text = page.inner_text(".daily-share-text")
        assert text.startswith(f"Chkobba, daily deal of {DATE}:") and "par" in text
        assert page.inner_text(".daily-vs-par").startswith("You:")
        assert "Days in a row" in page.inner_text(".daily-streak")
        href = page.get_attribute("#daily-link", "href")
        assert f"?daily={DATE}&game=chkobba&vs=r2." in href   # the link carries the sender's result and moves
        assert page.locator(".daily-friend").count() == 0       # no friend's result: yours alone
        kept = stored_daily(page)      # the daily results live in the statistics
        assert kept["days"][0][:2] == [DATE, "chkobba"]
        assert page.evaluate(f"() => localStorage.getItem('{OLD_KEY}')") is None
        # par was thought in slices before the summary, never in one long call
        par_slices = page.evaluate("() => window.chkobbaApp.timings.filter((t) => t[0] === 'par').length")
        assert par_slices > 10
        assert "daily_par" not in {t[0] for t in page.evaluate("() => window.chkobbaApp.timings")}
        assert page.evaluate(f"() => !!localStorage.getItem('chkobba.daily.par.chkobba.{DATE}')")
        if not slow:
            shot(page, "daily-result-phone")
            # a reload resumes the finished deal: its result again, the same first result kept
            page.reload()
            page.wait_for_selector("html.ready")
            page.wait_for_selector("#summary[open] .daily-result[data-ready]", timeout=120_000)
            assert page.inner_text(".daily-share-text") == text
            again = stored_daily(page)
            assert again == kept
            assert "daily round is over" not in page.inner_text("body")   # the computers are not asked to go on
            # the statistics show it, and their exported file carries it
            page.click("#summary-stats")
            page.wait_for_function("() => document.getElementById('stats').open")
            played = page.locator('#stats table[data-daily] tr[data-game="chkobba"] td[data-col="played"]')
            assert played.get_attribute("data-value") == "1"
            with page.expect_download() as info:
                page.click("#stats .stats-export")
            info.value.save_as(tmp_path / "after-daily.json")
            exported = json.loads((tmp_path / "after-daily.json").read_text(encoding="utf-8"))
            assert exported["daily"] == kept
    # the same cards, the same computer moves (the person played the same)
    assert records[0] == records[1]
    # the shared link opens the same deal in a third browser
    friend = make_page(PHONE)
    friend.goto(href)
    friend.wait_for_selector("html.ready")
    assert state(friend)["save"]["record"]["rounds"][0]["decks"] == records[0]["rounds"][0]["decks"]


def test_a_bad_daily_link_is_one_clear_error_then_the_normal_start(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?daily=2026-02-30&game=chkobba")
    notice = page.locator("#notice .notice-text")
    assert "2026-02-30" in notice.inner_text() and "YYYY-MM-DD" in notice.inner_text()
    assert page.evaluate("() => document.getElementById('start').open")
    error = page.locator("#start-form .form-error")   # said over the start screen too
    assert error.is_visible() and "2026-02-30" in error.inner_text()
    assert page.locator("#notice .notice-text").inner_text() == error.inner_text()
    assert not page.evaluate("() => window.chkobbaApp.state && window.chkobbaApp.state.save.daily")
    shot(page, "daily-bad-link")


def test_the_start_screen_deals_todays_seven_diamonds(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page)
    assert page.locator("#daily-chkobba").is_visible()
    page.click("#daily-seven_diamonds")
    page.wait_for_function("() => window.chkobbaApp.state && window.chkobbaApp.state.save.daily")
    st = state(page)
    assert st["game"] == "seven_diamonds" and st["save"]["daily"] == daily.tunis_date(
        page.evaluate("() => Date.now() / 1000"))
    assert [s.get("level") for s in st["seats"][1:]] == ["hard", "hard", "hard"]
    assert page.locator("#takeback-button").is_hidden()


def test_todays_deal_played_again_is_practice_and_counts_once(make_page: Any) -> None:
    """One attempt: once today's result is in, dealing today's deal again says
    it is practice at the deal and at the end, and the day's row is the first."""
    page = make_page(PHONE)
    open_table(page)
    page.click("#daily-chkobba")
    page.wait_for_function("() => window.chkobbaApp.state && window.chkobbaApp.state.save.daily")
    assert page.locator("#notice").is_hidden()     # the first attempt is no practice
    play_daily_round(page)
    page.wait_for_selector(".daily-result[data-ready]", timeout=120_000)
    assert page.locator(".daily-practice").count() == 0
    first = stored_daily(page)
    assert len(first["days"]) == 1
    page.keyboard.press("Escape")      # the summary closes over the finished round
    page.click("#new-game")
    page.click("#daily-chkobba")       # a finished daily is no game in progress: no confirm
    page.wait_for_function("() => !document.getElementById('notice').hidden")
    assert page.inner_text("#notice .notice-text").startswith("Practice: today's result is already in.")
    assert not state(page)["save"]["record"]["rounds"][0].get("moves")   # dealt from the start, as practice
    play_daily_round(page)
    page.wait_for_selector(".daily-result[data-ready]", timeout=120_000)
    assert page.inner_text(".daily-practice") == "Practice round: the day's result stays your first one."
    assert stored_daily(page) == first        # counted once: the first result stays


FRIEND_FITS = """() => {
  const W = document.documentElement.clientWidth, bad = [];
  for (const el of document.querySelectorAll('#summary .daily-result, #summary .daily-result *')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -0.5 || r.right > W + 0.5)) bad.push(`${el.className}: ${Math.round(r.left)}..${Math.round(r.right)} of ${W}`);
  }
  const box = document.querySelector('#summary .summary-box');
  if (box.scrollWidth > box.clientWidth + 1) bad.push(`the summary scrolls sideways (${box.scrollWidth})`);
  return bad;
}"""


def test_a_friends_daily_link_shows_both_results_side_by_side(make_page: Any) -> None:
    par = daily.par(DATE, "chkobba")["result"]
    theirs = dict(par, points=par["points"] + 1, chkobbas=par["chkobbas"] + 1)   # the sender's result
    vs = C.encode_result(DATE, "chkobba", theirs)
    page = make_page(PHONE)
    open_table(page, f"?lang=ar&daily={DATE}&game=chkobba&vs={vs}")
    assert state(page)["save"]["daily"] == DATE
    page.evaluate("() => localStorage.setItem('chkobba.lang', 'ar')")   # the reload drops ?lang= with the link
    page.reload()                                   # the friend's result is kept across a reload
    page.wait_for_selector("html.ready")
    play_daily_round(page)
    page.wait_for_selector(".daily-result[data-ready]", timeout=120_000)
    table = page.locator(".daily-friend-table")
    assert table.locator("thead th").count() == 3   # you, your friend, par
    points = table.locator("tbody tr").first.locator("td").all_inner_texts()
    mine = C.decode_result(parse_qs(urlparse(page.get_attribute("#daily-link", "href")).query)["vs"][0], DATE,
                           "chkobba")
    assert points == [str(mine["points"]), str(theirs["points"]), str(par["points"])]
    # an r1. link (made before links carried the moves) is shown, marked not checked
    assert page.get_attribute(".daily-friend .result-checked", "data-checked") == "0"
    assert "موش متثبّت" in page.inner_text(".daily-friend .result-checked")
    assert mine["points"] == daily.result(daily.daily(DATE, "chkobba"),
                                          session_of(state(page)["save"]))["you"]["points"]
    for size in ((360, 640), (320, 568)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.locator(".daily-friend").scroll_into_view_if_needed()
        assert page.evaluate(FRIEND_FITS) == []
        shot(page, f"daily-friend-ar-{size[0]}x{size[1]}")


def test_a_friends_link_with_chosen_computer_moves_is_said_and_yours_counts(make_page: Any) -> None:
    """A sender who chose the computer's moves too (the link's moves give its
    claim, but they are not the daily computer's): at the end, in French, the
    page says the friend's result is not shown and why; yours counts, with
    its link."""
    deal = daily.daily(DATE, "chkobba")
    s = deal.session()
    while not daily.round_over(s):
        s.apply(s.legal()[0])
    claim = daily.round_result(deal, s.summary()["rounds"][0])
    vs = C.encode_result(DATE, "chkobba", claim, deal.session(), s.record()["rounds"][0]["actions"],
                         lambda x: daily.round_result(deal, x.summary()["rounds"][0]))
    page = make_page(PHONE)
    open_table(page, f"?lang=fr&daily={DATE}&game=chkobba&vs={vs}")
    play_daily_round(page)
    page.wait_for_selector(".daily-result[data-ready]", timeout=120_000)
    said = page.inner_text(".daily-friend-refused")
    assert said.startswith("Le résultat de ton ami n'est pas affiché.") and "n'est pas le coup de l'ordinateur" in said
    assert page.locator(".daily-friend").count() == 0          # never shown as theirs
    assert page.locator(".daily-refused").count() == 0         # yours is not refused
    assert page.get_attribute("#daily-link", "href")           # and has its link
    assert (stored_daily(page) or {}).get("days"), "your result counts"


def test_an_altered_friends_result_is_one_clear_error(make_page: Any) -> None:
    vs = C.encode_result("2026-11-30", "chkobba", {"points": 2, "other": 1, "categories": ["karta"], "chkobbas": 1})
    page = make_page(PHONE)
    open_table(page, f"?daily={DATE}&game=chkobba&vs={vs}")   # another day's result
    notice = page.locator("#notice .notice-text").inner_text()
    assert "daily deal link does not work" in notice and "another deal" in notice
    assert page.evaluate("() => document.getElementById('start').open")


def test_daily_results_move_into_the_statistics_and_travel_with_the_file(make_page: Any, tmp_path: Path) -> None:
    today = Date.fromisoformat(daily.tunis_date(time.time()))
    days = [[(today - timedelta(days=k)).isoformat(), "chkobba", 3 + k, 2] for k in (3, 2, 1)]
    old = {"days": days}
    page = make_page(PHONE)
    open_table(page)
    page.evaluate(f"(s) => localStorage.setItem('{OLD_KEY}', s)", json.dumps(old))   # an older page's key
    page.reload()
    page.wait_for_selector("html.stats-ready")
    page.wait_for_function(f"() => localStorage.getItem('{OLD_KEY}') === null")
    assert stored_daily(page) == old                      # moved once, nothing lost
    page.click("#stats-from-start")
    page.wait_for_function("() => document.getElementById('stats').open")
    row = page.locator('#stats table[data-daily] tr[data-game="chkobba"]')
    assert row.locator('td[data-col="played"]').get_attribute("data-value") == "3"
    assert row.locator('td[data-col="streak"]').get_attribute("data-value") == "3"   # up to yesterday
    assert row.locator('td[data-col="best_margin"]').get_attribute("data-value") == "4"
    assert page.locator("#stats .stats-empty").count() == 0
    shot(page, "stats-daily-360x640")
    with page.expect_download() as info:
        page.click("#stats .stats-export")
    exported = tmp_path / "daily.json"
    info.value.save_as(exported)
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["version"] == 3 and data["daily"] == old
    # a new phone: the file brings the daily results back, in Arabic too
    fresh = make_page(PHONE)
    open_table(fresh, "?lang=ar")
    fresh.wait_for_selector("html.stats-ready")
    fresh.click("#stats-from-start")
    fresh.set_input_files("#stats .stats-file", str(exported))
    fresh.wait_for_selector("#stats table[data-daily]")
    assert stored_daily(fresh) == old
    assert fresh.locator("#stats .stats-status").inner_text().endswith("و3 تفريقات نهار.")
    assert fresh.locator("#stats table[data-daily] caption").inner_text() == "تفريقة النهار"
    shot(fresh, "stats-daily-360x640-ar")


def test_yesterdays_deal_replays_with_every_hand_and_todays_is_refused(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page)
    assert page.evaluate("() => document.getElementById('start').open")
    page.click(".daily-yesterday summary")
    page.click("#daily-yesterday-chkobba")
    link = page.locator("#daily-yesterday-link")
    link.wait_for(timeout=120_000)
    yesterday = (Date.fromisoformat(daily.tunis_date(time.time())) - timedelta(days=1)).isoformat()
    assert yesterday in link.inner_text()
    shot(page, "daily-yesterday-link-360x640")
    par = daily.par(yesterday, "chkobba")
    viewer = make_page(PHONE)
    viewer.goto(link.get_attribute("href"))
    viewer.wait_for_selector("body[data-index='0']", timeout=120_000)
    viewer.click('.embed-controls [data-go="forward"]')
    viewer.wait_for_selector("body[data-index='1']")
    # every hand face up: the computer's hand in the seat across is drawn, not backs
    at = Session.from_record(par["record"], seed=par["record"]["seed"] if "seed" in par["record"] else 0, at=(1, 1))
    opp = at.view(None)["hands"][1]
    shown = viewer.eval_on_selector_all(".open-hand .card", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(opp)
    # today's deal (and a later one) is refused by the facade, in words
    today = daily.tunis_date(time.time())
    said = page.evaluate("""(day) => window.chkobbaApp.daily.replayDay(
        (n, a) => JSON.parse(window.chkobbaPy(n, JSON.stringify(a))).ok, "chkobba", day)
        .then(() => "replayed", (e) => e.code)""", today)
    assert said == "web.daily.not_yet"
    status = page.inner_text(".daily-yesterday-status")
    assert today in status and "once that day is over" in status
