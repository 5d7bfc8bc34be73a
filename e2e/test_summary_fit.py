"""The end-of-round summary fits a 320 px phone: no column of the round's
breakdown or the score sheet is cut off or needs a sideways swipe (seen in
French at 2 against 2, where «Adversaires» pushed the last column out).

At 320x568, in French 2 against 2 with the longest words (a best of 3, the
computers at the level with the longest name), the summary is on the
screen: the page under it does not scroll (it was 595 px high), the dialog
is inside the screen, and its Next button and the round's score row are in
view without scrolling it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from a11y_util import load, save_of
from e2e_driver import T, open_table, point_and_play, settle, shot
from test_fit import FRAMES, longest_level

from chkobba.session import Session

OVERFLOW = """() => {
  const box = document.querySelector('#summary .summary-box');
  const dialog = document.getElementById('summary');
  const right = dialog.getBoundingClientRect().right, left = dialog.getBoundingClientRect().left;
  const out = [];
  if (dialog.scrollWidth > dialog.clientWidth + 1) out.push(`dialog scrolls sideways: ${dialog.scrollWidth} > ${dialog.clientWidth}`);
  for (const cell of box.querySelectorAll('table th, table td')) {
    const r = cell.getBoundingClientRect();
    if (r.width && (r.right > right + 1 || r.left < left - 1)) out.push(`${cell.textContent.trim().slice(0, 30)}: ${Math.round(r.left)}-${Math.round(r.right)}`);
  }
  return out;
}"""

# the summary on the screen, as it opens (its own scroll at the top)
ON_SCREEN = """() => {
  const H = window.innerHeight, W = document.documentElement.clientWidth, out = [];
  const page = document.scrollingElement;
  if (page.scrollHeight > H + 1) out.push(`the page under the summary scrolls: ${page.scrollHeight} px high on a ${H} px screen`);
  const dialog = document.getElementById('summary'), d = dialog.getBoundingClientRect();
  if (d.top < -0.5 || d.bottom > H + 0.5 || d.left < -0.5 || d.right > W + 0.5) out.push(`the dialog is off the screen: ${Math.round(d.top)}..${Math.round(d.bottom)}`);
  for (const sel of ['#summary-next', '#summary .breakdown tr[data-row="score"]']) {
    const el = document.querySelector(sel), r = el.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (r.top < d.top - 0.5 || r.bottom > d.bottom + 0.5 || !hit || !el.contains(hit))
      out.push(`${sel} is not in view (${Math.round(r.top)}..${Math.round(r.bottom)}, covered by ${hit ? hit.className || hit.tagName : 'nothing'})`);
  }
  return out;
}"""


def last_card_leaves_cards(players: int) -> tuple[Session, str]:
    """Round 1 of a best of 3 where the human's card is the round's last and
    leaves four to six cards on the table for a side: the table shows them,
    and who they go to, under the summary."""
    for seed in range(1, 300):
        rng = random.Random(seed)
        s = Session.new("chkobba", {"players": players, "match": 3}, seed=seed)
        while s.to_act() is not None and not s.view(0)["results"]:
            legal = [a for a in s.legal() if not a.startswith("claim")]
            v = s.view(0)
            if s.to_act() == 0 and v["phase"] == "play" and v["deck"] == 0 and sum(v["hand_counts"]) == 1:
                lays = [a for a in legal if len(a) == 2]
                if lays and 3 <= len(v["table"]) <= 5 and any(m.get("cards") for m in s.moves()):
                    return s, lays[0]
                break
            takes = [a for a in legal if "x" in a]
            s.apply(rng.choice(takes) if takes and rng.random() < .6 else rng.choice(legal))
    raise AssertionError("no round ending with cards left on the table")


@pytest.mark.parametrize("lang,players", [("fr", 4), ("ar", 2), ("en", 4)])
def test_the_round_summary_fits_320_px(make_page: Any, lang: str, players: int) -> None:
    page = make_page({"width": 320, "height": 568})
    open_table(page, f"?lang={lang}")
    s, last = last_card_leaves_cards(players)
    load(page, save_of(s, players, level=longest_level(lang)))
    assert settle(page) == "you"
    page.select_option("#pace", "instant")
    point_and_play(page, last)
    assert settle(page) == "summary"
    page.wait_for_selector("#summary[open] .breakdown")
    assert page.locator(f"{T} .leftover-note").is_visible()   # (the round's end is what the summary opens over)
    page.evaluate("() => document.getElementById('summary').scrollTo(0, 0)")
    page.evaluate(FRAMES)
    shot(page, f"summary-fit-{lang}-{players}-320")
    assert page.evaluate(OVERFLOW) == []
    assert page.evaluate(ON_SCREEN) == []
