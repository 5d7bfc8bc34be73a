"""The words as a player sees them, in Arabic and French, at 360 px.

- A tied scoring row of the round summary says «باجي» (RULES.md: a tie,
  *baji*, gives the point to nobody).
- In Arabic, a row of ranks and a card symbol inside a sentence read left to
  right on the screen: the x positions of their characters are checked.
- Your own moves are worded for you in the move log.
- Screenshots of the move log, the score sheet and the Seven Diamonds call
  bar in Arabic and French (test-artifacts/words-*.png), to look at.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from a11y_util import load, mid_round, save_of
from e2e_driver import PHONE, point_and_play, settle, shot

from chkobba.session import Session

LRI, PDI = "\u2066", "\u2069"
LESSONS = Path(__file__).resolve().parents[1] / "lessons"


def round_end_with_a_tie(first_seed: int = 1) -> tuple[Session, str, str]:
    """A 1 v 1 position where the human's next card ends round 1 with a tied row."""
    for seed in range(first_seed, first_seed + 200):
        rng = random.Random(seed)
        s = Session.new("chkobba", {"players": 2, "target": 31}, seed=seed)
        while s.to_act() is not None and not s.view(0).get("results"):
            legal = [a for a in s.legal() if not a.startswith("claim")]
            if s.to_act() == 0 and s.state.phase == "play":
                for a in legal:
                    trial = Session.from_record(s.record(), seed=s.seed)
                    trial.apply(a)
                    results = trial.view(0).get("results")
                    if results:
                        tied = [k for k in ("karta", "dinari", "barmila") if results[0][k] == [0, 0]]
                        if tied:
                            return s, a, tied[0]
            words = [a for a in legal if a in ("keep", "pass", "refuse")]
            s.apply(words[0] if words else rng.choice(legal))
    raise AssertionError("no round ending in a tie found")


@pytest.mark.parametrize("lang", ["ar", "fr"])
def test_a_tied_row_says_baji_and_the_log_speaks_to_you(make_page: Any, lang: str) -> None:
    page = make_page(PHONE)
    page.goto(page.base_url + f"?lang={lang}")
    page.wait_for_selector("html.ready")
    session, last, tied = round_end_with_a_tie()
    load(page, save_of(session, 2))
    assert settle(page) == "you"
    page.select_option("#pace", "instant")
    point_and_play(page, last)
    assert settle(page) == "summary"
    row = page.locator(f'#summary .breakdown tr[data-row="{tied}"]')
    assert row.get_attribute("data-baji") == "true"
    assert "باجي" in row.inner_text()
    # a row somebody won is no tie
    for key in ("karta", "dinari", "barmila"):
        r = page.locator(f'#summary .breakdown tr[data-row="{key}"]')
        points = [int(r.locator(f'td[data-side="{s}"]').get_attribute("data-points") or "0") for s in (0, 1)]
        assert (r.get_attribute("data-baji") == "true") == (points == [0, 0]), key
    # «7♦» in the 7♦ row reads seven then diamond, left to right
    seven, suit = x_order(page, '#summary .breakdown tr[data-row="haya"] th', "7♦")
    assert seven < suit, (seven, suit)
    shot(page, f"words-sheet-{lang}-360")
    page.evaluate("() => document.getElementById('summary').close()")
    page.evaluate("() => { const d = document.querySelector('.log'); if (d) d.open = true; }")
    mine = page.locator('.log li[data-seat="0"]')
    assert mine.count() > 0
    texts = mine.evaluate_all("els => els.map(e => e.textContent)")
    # never «إنت حطّ» / «Vous a posé»: the reader's own moves have their own person
    you = ("حطّيت", "هزّيت", "خلّيت", "قلت", "طالبت", "قبلت", "رفضت", "طلبت") if lang == "ar" else ("tu as",)
    assert all(any(w in text for w in you) for text in texts), texts
    page.locator(".log").scroll_into_view_if_needed()
    shot(page, f"words-log-{lang}-360")


def x_order(page: Any, selector: str, chars: str) -> list[float]:
    """The x position on screen of each of `chars` in the text of `selector`, in the text's order."""
    return page.evaluate("""([sel, chars]) => {
      const el = document.querySelector(sel);
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const found = [];
      let want = 0;
      for (let n = walker.nextNode(); n && want < chars.length; n = walker.nextNode()) {
        for (let i = 0; i < n.data.length && want < chars.length; i++) {
          if (n.data[i] !== chars[want]) continue;
          const r = document.createRange();
          r.setStart(n, i); r.setEnd(n, i + 1);
          found.push(r.getBoundingClientRect().left);
          want++;
        }
      }
      return found;
    }""", [selector, chars])


def test_arabic_rank_rows_and_cards_read_left_to_right(make_page: Any) -> None:
    page = make_page(PHONE)
    page.goto(page.base_url + "?lang=ar")
    page.wait_for_selector("html.ready")
    # the installable app in Arabic too
    href = page.get_attribute('link[rel="manifest"]', "href")
    assert href == "manifest-ar.webmanifest"
    resp = page.request.get(page.base_url + href)
    assert resp.ok and resp.json()["name"] == "شكبّة"
    s = Session.new("seven_diamonds", {"players": 4}, seed=5)
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": "easy"}] * 3
    load(page, save_of(s, 4, seats=seats))
    page.wait_for_selector(".sd-calls-note")
    note = page.locator(".sd-calls-note").inner_text()
    assert "7 8 9 10 J Q K A" in note.replace(LRI, "").replace(PDI, "")
    # 7 then 8 ... then A: each further right than the one before (the card order)
    xs = x_order(page, ".sd-calls-note", "♦789JQKA")[1:]   # after «7♦», the row
    assert len(xs) == 7 and xs == sorted(xs), xs
    # «7♦»: the seven left of its suit
    seven, suit = x_order(page, ".sd-calls-note", "7♦")
    assert seven < suit
    shot(page, "words-seven-calls-ar-360")


@pytest.mark.parametrize("lang", ["ar", "fr"])
def test_seven_diamonds_call_bar_and_log(make_page: Any, lang: str) -> None:
    page = make_page(PHONE)
    page.goto(page.base_url + f"?lang={lang}")
    page.wait_for_selector("html.ready")
    s = mid_round("seven_diamonds", {"players": 4}, 7, 6)
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": "easy"}] * 3
    load(page, save_of(s, 4, seats=seats))
    page.wait_for_selector(".ck-seven")
    settle(page)
    calls = page.locator(".sd-calls").inner_text()
    assert "جلّة" not in calls   # the call pass is باس; جلّة is the forced pass
    shot(page, f"words-seven-{lang}-360")


def test_the_hand_off_screen_needs_a_tap_of_its_own(make_page: Any) -> None:
    page = make_page(PHONE)
    page.goto(page.base_url + "?lang=fr")
    page.wait_for_selector("html.ready")
    two_humans = save_of(mid_round("chkobba", {"players": 2}, 8, 6), 2, seats=[{"kind": "human"}] * 2)
    load(page, two_humans)
    page.wait_for_selector(".handoff:not([hidden])")
    # the second tap of a double tap on the last move lands on the button: ignored
    page.evaluate("""() => {
      const b = document.querySelector('.handoff-go');
      b.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      b.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 2 }));
    }""")
    # a click with no press on the screen (begun before it was up): ignored
    page.evaluate("() => document.querySelector('.handoff-go').dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }))")
    assert page.evaluate("() => window.chkobbaApp.state.handoff") is not None
    assert page.locator(".handoff").is_visible()
    # a tap of its own shows the hand
    page.click(".handoff-go")
    page.wait_for_function("() => window.chkobbaApp.state.handoff === null")
    assert page.locator(".handoff").is_hidden()


def test_the_tutorial_is_linked_and_resumes_at_the_next_unfinished_step(make_page: Any) -> None:
    page = make_page(PHONE)
    page.goto(page.base_url + "?lang=ar")
    page.wait_for_selector("html.ready")
    # linked from the table's own bar (under the table, beside Share) and from the start screen
    assert page.get_attribute(".share-bar a.learn-link", "href") == "learn.html"
    assert page.locator("#start .learn-link").get_attribute("href") == "learn.html"
    page.goto(page.base_url + "rules.html?lang=ar")
    page.wait_for_selector("h1")
    assert page.locator("a.learn-link").count() >= 1 and page.locator("a.learn-link").first.is_visible()
    # the step just finished is done: the tutorial comes back at the next one
    page.evaluate("() => localStorage.setItem('chkobba.learn.v1', JSON.stringify({done: ['captures/by_value'], at: 'captures/by_value'}))")
    page.goto(page.base_url + "learn.html?lang=ar")
    page.wait_for_selector("body[data-state=ready]", timeout=180_000)
    assert page.get_attribute("body", "data-step") == "by_sum"
    # the progress line counts with the total's plural: «من 22 خطوة», never «من 22 خطوات»
    total = sum(len(json.loads(p.read_text(encoding="utf-8"))["steps"]) for p in sorted(LESSONS.glob("*.json")))
    assert 11 <= total <= 99   # Arabic "many": the singular noun
    progress = page.inner_text(".learn-progress")
    assert f"كمّلت 1 من {total} خطوة" in progress, progress
    # a step not finished is where the reader comes back
    page.evaluate("() => localStorage.setItem('chkobba.learn.v1', JSON.stringify({done: [], at: 'captures/value_first'}))")
    page.reload()
    page.wait_for_selector("body[data-state=ready]", timeout=180_000)
    assert page.get_attribute("body", "data-step") == "value_first"


def computer_wins_with_your_last_card(first_seed: int = 1) -> tuple[Session, str, list[int]]:
    """A 1 v 1 game to 11 where the human's next card ends it and the
    computer wins, the human with some points: the result names the
    computer first, the score line and the sheet us first."""
    for seed in range(first_seed, first_seed + 120):
        rng = random.Random(seed)
        s = Session.new("chkobba", {"players": 2, "target": 11}, seed=seed)
        while s.to_act() is not None:
            legal = [a for a in s.legal() if not a.startswith("claim")]
            v = s.view(0)
            if s.to_act() == 0 and v["phase"] == "play" and v["deck"] == 0 and sum(v["hand_counts"]) == 1:
                for a in legal:
                    trial = Session.from_record(s.record(), seed=s.seed)
                    trial.apply(a)
                    end = trial.view(0)
                    if trial.to_act() is None and end["winner"] == 1 and 0 < end["score"][0] != end["score"][1]:
                        return s, a, end["score"]
            words = [a for a in legal if a in ("keep", "pass", "refuse")]
            s.apply(words[0] if words else rng.choice(legal))
    raise AssertionError("no game the computer wins found")


# Each run of digits in `sel`'s text, in the text's order: its value and
# where it is drawn (its left edge on the screen).
NUMBERS = """(sel) => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/[0-9]+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        out.push({ value: Number(m[0]), left: r.getBoundingClientRect().left });
      }
    }
  }
  return out;
}"""

# "+6" in the sheet: where its sign and its first digit are drawn
SIGNS = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  const n = el.firstChild, at = (i) => { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); return r.getBoundingClientRect().left; };
  return { text: n.data, sign: at(0), digit: at(1) };
})"""


def test_arabic_scores_read_us_first_from_the_right_everywhere(make_page: Any) -> None:
    """At a game's end in Arabic, the result («الكمبيوتر ربح الطرح …»), the
    score line and the score sheet put our number first and, in a right to
    left page, on the right of theirs; a round's «+6» shows its sign before
    the number (it showed «6+», and the result «14-3» as 3-14 beside a score
    line reading the other way)."""
    page = make_page(PHONE)
    page.goto(page.base_url + "?lang=ar")
    page.wait_for_selector("html.ready")
    session, last, (us, them) = computer_wins_with_your_last_card()
    load(page, save_of(session, 2))
    assert settle(page) == "you"
    page.select_option("#pace", "instant")
    point_and_play(page, last)
    assert settle(page) == "summary"
    page.wait_for_selector("#summary[open] .result-line.result")
    shot(page, "words-score-order-ar-360")
    problems = []
    for where, sel in (("the result", "#summary .result-line.result"), ("the score line", "#table .scoreline")):
        nums = page.evaluate(NUMBERS, sel)[:2]
        values = [n["value"] for n in nums]
        if values != [us, them]:
            problems.append(f"{where} says {values}, not ours first ({us}, {them})")
        elif not nums[0]["left"] > nums[1]["left"]:
            problems.append(f"{where}: our {us} is drawn left of their {them} ({nums})")
    for sign in page.evaluate(SIGNS, "#summary .sheet .pts, #summary .breakdown .pt:not(.zero)"):
        if not sign["sign"] < sign["digit"]:
            problems.append(f"«{sign['text']}» shows its sign after the number")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang,says", [("ar", "طالب بـ"), ("fr", "réclame "), ("en", "claim ")])
def test_the_tutorials_claim_hint_is_in_the_readers_words(make_page: Any, lang: str, says: str) -> None:
    """The claim step's hint names the move in the reader's language: «طالب
    بـ5♥ مع 5♠», never «claim 5♥ يهز 5♠» (an English word, and "takes")."""
    page = make_page(PHONE)
    page.goto(page.base_url + f"learn.html?lang={lang}")
    page.wait_for_selector("body[data-state=ready]", timeout=180_000)
    page.evaluate("() => localStorage.setItem('chkobba.learn.v1', JSON.stringify({done: [], at: 'captures/claim'}))")
    page.reload()
    page.wait_for_selector("body[data-state=ready]", timeout=180_000)
    assert page.get_attribute("body", "data-step") == "claim"
    page.click("#learn-hint")
    hint = page.locator(".learn-verdict")
    hint.wait_for()
    text = hint.inner_text()
    assert f"{says}5♥" in text.replace("\ufe0e", ""), text
    if lang != "en":
        plain = text.replace("\ufe0e", "")
        assert not re.search(r"\bclaim\b", plain) and not any(w in plain for w in ("يهز 5", "prend 5")), text
