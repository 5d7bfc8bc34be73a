"""Challenge a friend in the page: a match against the computer ends with
"Challenge a friend"; its link, opened in a fresh browser, deals the same
cards against the same computer, refuses take-backs and ends with both
results side by side; an altered link is one clear error, then the normal
start. The new summary parts fit a 360x640 phone in Arabic."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlparse

from e2e_driver import PHONE, open_table, pick_action, point_and_play, settle, shot, start_game, state

from chkobba.links import challenge as C
from chkobba.session import Session

FITS = """(sel) => {
  const W = document.documentElement.clientWidth, bad = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -0.5 || r.right > W + 0.5)) bad.push(`${el.className || el.id}: ${Math.round(r.left)}..${Math.round(r.right)} of ${W}`);
  }
  const box = document.querySelector('#summary .summary-box');
  if (box && box.scrollWidth > box.clientWidth + 1) bad.push(`the summary scrolls sideways (${box.scrollWidth} > ${box.clientWidth})`);
  return bad;
}"""


def play_match(page: Any) -> dict[str, Any]:
    """Play the person's seat (a plain deterministic choice) to the end of the match."""
    page.select_option("#pace", "instant")
    for _ in range(400):
        where = settle(page)
        if where == "summary":
            if page.get_attribute("#summary-next", "data-next") == "over":
                return state(page)
            page.click("#summary-next")
            continue
        assert where == "you", where
        point_and_play(page, pick_action(state(page)["save"]))
    raise AssertionError("the match did not end")


def fits(page: Any, sel: str, label: str) -> None:
    for size in ((360, 640), (320, 568)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        assert page.evaluate(FITS, sel) == [], label
        shot(page, f"{label}-{size[0]}x{size[1]}")
    page.set_viewport_size(PHONE)


def test_a_challenge_link_round_trips(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?lang=ar&seed=5")
    start_game(page, players=2, levels=("medium",))
    sender = play_match(page)
    assert page.locator("#challenge-button").is_visible()
    page.click("#challenge-button")
    page.wait_for_selector(".challenge-offer[data-ready]")
    href = page.get_attribute("#challenge-link", "href")
    link = parse_qs(urlparse(href).query)["challenge"][0]
    made = C.decode_challenge(link)
    assert made.seed == sender["save"]["seed"] == 5 and made.seats == (None, "medium")
    assert made.result == C.match_result(Session.from_record(sender["save"]["record"], seed=5), 0)
    assert made.result["score"][0] in (int(x) for x in page.inner_text(".challenge-share-text").replace("–", " ").split()
                                       if x.isdigit())
    fits(page, "#summary .challenge-offer, #summary .challenge-offer *", "challenge-offer-ar")

    friend = make_page(PHONE)
    friend.goto(href.replace("?", "?lang=ar&", 1) if "?" in href else href)
    friend.wait_for_selector("html.ready")
    friend.wait_for_selector("#challenge-intro[open]")   # first: who challenges you, then the cut
    assert friend.locator("#start").evaluate("(d) => d.open") is False
    friend.click("#challenge-intro-play")
    assert friend.locator("#challenge-intro").count() == 0
    st = state(friend)
    assert st["save"]["challenge"] == link
    assert st["save"]["record"]["rounds"][0]["decks"] == sender["save"]["record"]["rounds"][0]["decks"]
    assert friend.locator("#takeback-button").is_hidden()   # no take-back in a challenge
    refused = friend.evaluate("() => JSON.parse(window.chkobbaPy('take_back', '{}'))")
    assert refused["code"] == "takeback.mode"
    assert "challenge=" not in friend.evaluate("() => location.search")   # a reload resumes, it does not deal again
    done = play_match(friend)
    # the same cards, the same medium computer, the same plain choices: the same match
    assert done["save"]["record"] == sender["save"]["record"]
    friend.wait_for_selector(".challenge-result[data-ready]")
    table = friend.locator(".challenge-table")
    assert table.locator("thead th").count() == 2
    assert "كيف كيف" in friend.inner_text(".challenge-verdict")   # level with the sender
    # the link carried the sender's moves: the friend's page shows their result checked
    assert made.moves is not None and link.startswith("x3.")
    assert friend.get_attribute(".challenge-result .result-checked", "data-checked") == "1"
    assert "متثبّت" in friend.inner_text(".challenge-result .result-checked")
    assert friend.locator("#challenge-button").count() == 0     # a challenge is not offered again from one
    fits(friend, "#summary .challenge-result, #summary .challenge-result *", "challenge-result-ar")
    # a reload shows the finished challenge's comparison again
    verdict = friend.inner_text(".challenge-verdict")
    friend.evaluate("() => localStorage.setItem('chkobba.lang', 'ar')")   # the reload drops ?lang= with the link
    friend.reload()
    friend.wait_for_selector("html.ready")
    friend.wait_for_selector("#summary[open] .challenge-result[data-ready]")
    assert friend.inner_text(".challenge-verdict") == verdict
    # a rematch: new cards, the same rules and computer, an ordinary match (take-backs, the offer at its end)
    assert "تحدّى صاحبك" in friend.inner_text(".challenge-rematch-about")
    friend.click("#challenge-rematch")
    friend.wait_for_selector("#summary", state="hidden")
    # the rematch is dealt in a task of its own: wait for its table, not the challenge's
    friend.wait_for_function("() => { const s = window.chkobbaApp.state; return Boolean(s && s.save && !s.save.challenge); }")
    again = state(friend)
    assert "challenge" not in again["save"] or again["save"]["challenge"] is None
    assert again["save"]["record"]["options"] == sender["save"]["record"]["options"]
    assert [s.get("level") for s in again["save"]["seats"]] == [s.get("level") for s in sender["save"]["seats"]]
    assert again["save"]["record"]["rounds"][0]["decks"] != sender["save"]["record"]["rounds"][0]["decks"]


def test_an_altered_challenge_link_is_one_error_then_the_normal_start(make_page: Any) -> None:
    good = C.encode_challenge(C.Challenge("chkobba", {"players": 2, "faces": "QJK", "capture": "optional",
                                                      "missed_capture": True, "last_card_sweep": False,
                                                      "redeal": True, "target": 11, "match": 1,
                                                      "all_diamonds_wins": False}, 9, (None, "easy"),
                                          {"won": True, "score": [11, 4], "games": [1, 0], "rounds": 3,
                                           "chkobbas": 2}))
    bad = good[:-3] + ("A" if good[-3] != "A" else "B") + good[-2:]
    page = make_page(PHONE)
    open_table(page, f"?challenge={bad}")
    notice = page.locator("#notice .notice-text")
    assert "challenge link does not work" in notice.inner_text() and "damaged" in notice.inner_text()
    assert page.evaluate("() => document.getElementById('start').open")
    error = page.locator("#start-form .form-error")
    assert error.is_visible() and error.inner_text() == notice.inner_text()
    assert not page.evaluate("() => window.chkobbaApp.state && window.chkobbaApp.state.save.challenge")
    assert json.dumps(page.evaluate("() => localStorage.getItem('chkobba.save.v1')")) == "null"
    shot(page, "challenge-bad-link")


INTRO_FITS = """() => {
  const d = document.getElementById('challenge-intro'), bad = [];
  const W = document.documentElement.clientWidth, H = document.documentElement.clientHeight;
  const r = d.getBoundingClientRect();
  if (r.top < -0.5 || r.bottom > H + 0.5 || r.left < -0.5 || r.right > W + 0.5) bad.push(`the panel ${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)} of ${W}x${H}`);
  if (d.scrollHeight > d.clientHeight + 1) bad.push(`the panel scrolls (${d.scrollHeight} > ${d.clientHeight})`);
  for (const el of d.querySelectorAll('*')) {
    const b = el.getBoundingClientRect();
    if (b.width && (b.left < r.left - 0.5 || b.right > r.right + 0.5)) bad.push(`${el.className || el.tagName} overflows`);
  }
  return bad;
}"""

WORDS = {"ar": ("صاحبك يتحدّاك", "تغلبها", "رجّعهم صاحبك: 3", "العب"),
         "fr": ("Un ami te lance un défi", "Score à battre", "repris par ton ami : 3", "Jouer"),
         "en": ("A friend challenges you", "Score to beat", "took back: 3", "Play")}


def test_a_challenge_opens_on_who_challenges_you(make_page: Any) -> None:
    opts = Session.new("chkobba", {"players": 2, "match": 3}, seed=0).record()["options"]
    res = {"won": True, "score": [11, 7], "games": [2, 1], "rounds": 9, "chkobbas": 4}
    link = C.encode_challenge(C.Challenge("chkobba", opts, 9, (None, "hard"), res, 3))
    for lang, (title, beat, taken, play) in WORDS.items():
        page = make_page(PHONE)
        open_table(page, f"?lang={lang}&challenge={link}")
        page.wait_for_selector("#challenge-intro[open]")
        text = page.inner_text("#challenge-intro")
        assert title in text and beat in text and taken in text and "11–7" in text, text
        assert page.inner_text("#challenge-intro-play") == play
        assert page.get_attribute("#challenge-intro .result-checked", "data-checked") == "0"   # no moves in this link
        assert page.evaluate("() => getComputedStyle(document.getElementById('challenge-intro')).direction") == (
            "rtl" if lang == "ar" else "ltr")
        for size in ((320, 568), (360, 640), (640, 360)):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            assert page.evaluate(INTRO_FITS) == [], (lang, size)
            shot(page, f"challenge-intro-{lang}-{size[0]}x{size[1]}")
        page.set_viewport_size(PHONE)
        before = state(page)["save"]["record"]["rounds"][0]["actions"]
        assert before == [] or state(page)["seats"][0]["kind"] == "human"
        page.click("#challenge-intro-play")
        assert page.locator("#challenge-intro").count() == 0
        settle(page)   # the match goes on once Play is pressed
        page.close()
