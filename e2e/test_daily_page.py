"""The daily deal in the page: a date's link deals the same cards and meets
the same computer moves in two fresh browsers (one with its CPU slowed), the
round ends with the result against par, the share text and a link that opens
the same deal; a bad date is one clear error and the normal start."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

from e2e_driver import PHONE, open_table, pick_action, point_and_play, session_of, settle, shot, state

from chkobba import daily
from chkobba.links import challenge as C

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


def test_the_daily_link_gives_the_same_deal_and_moves_everywhere(make_page: Any) -> None:
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
        assert f"?daily={DATE}&game=chkobba&vs=r1." in href   # the link carries the sender's result
        assert page.locator(".daily-friend").count() == 0       # no friend's result: yours alone
        kept = page.evaluate("() => JSON.parse(localStorage.getItem('chkobba.daily.results'))")
        assert kept["days"][0][:2] == [DATE, "chkobba"]
        assert page.evaluate(f"() => !!localStorage.getItem('chkobba.daily.par.chkobba.{DATE}')")
        if not slow:
            shot(page, "daily-result-phone")
            # a reload resumes the finished deal: its result again, the same first result kept
            page.reload()
            page.wait_for_selector("html.ready")
            page.wait_for_selector("#summary[open] .daily-result[data-ready]", timeout=120_000)
            assert page.inner_text(".daily-share-text") == text
            again = page.evaluate("() => JSON.parse(localStorage.getItem('chkobba.daily.results'))")
            assert again == kept
            assert "daily round is over" not in page.inner_text("body")   # the computers are not asked to go on
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
    assert mine["points"] == daily.result(daily.daily(DATE, "chkobba"),
                                          session_of(state(page)["save"]))["you"]["points"]
    for size in ((360, 640), (320, 568)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.locator(".daily-friend").scroll_into_view_if_needed()
        assert page.evaluate(FRIEND_FITS) == []
        shot(page, f"daily-friend-ar-{size[0]}x{size[1]}")


def test_an_altered_friends_result_is_one_clear_error(make_page: Any) -> None:
    vs = C.encode_result("2026-11-30", "chkobba", {"points": 3, "other": 1, "categories": ["karta"], "chkobbas": 1})
    page = make_page(PHONE)
    open_table(page, f"?daily={DATE}&game=chkobba&vs={vs}")   # another day's result
    notice = page.locator("#notice .notice-text").inner_text()
    assert "daily deal link does not work" in notice and "another deal" in notice
    assert page.evaluate("() => document.getElementById('start').open")
