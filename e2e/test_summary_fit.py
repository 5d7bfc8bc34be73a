"""The end-of-round summary fits a 320 px phone: no column of the round's
breakdown or the score sheet is cut off or needs a sideways swipe (seen in
French at 2 against 2, where «Adversaires» pushed the last column out)."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_driver import open_table, play_until_summary, shot, start_game

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


@pytest.mark.parametrize("lang,players", [("fr", 4), ("ar", 2)])
def test_the_round_summary_fits_320_px(make_page: Any, lang: str, players: int) -> None:
    page = make_page({"width": 320, "height": 568})
    open_table(page, f"?lang={lang}&seed=5")
    start_game(page, players=players, levels=("easy",) * (players - 1))
    play_until_summary(page)
    page.wait_for_selector("#summary[open] .breakdown")
    shot(page, f"summary-fit-{lang}-{players}-320")
    assert page.evaluate(OVERFLOW) == []
