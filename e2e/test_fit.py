"""The table fits a phone's screen in every state a player meets (issue 22).

At 360x640, 320x568 and landscape 640x360, in Arabic (right to left), French
and English, for Chkobba 1v1 and 2v2 and Seven Diamonds, the whole play screen
fits: every hand card, every table card, every move button, the move log's
title and the secondary buttons under the table (Statistics, Learn, Take back,
the timers switch, sound, Share) are inside the viewport at scroll 0 and not
covered by anything else (the point at its centre is its own); so are the top
bar's controls (except under the damaged-save notice, which floats over the
bar); the page itself does not scroll, down or sideways; the secondary
buttons stay at least 32 px to tap. The states:
the deal (and the cut card's keep-or-table choice, and the calls), a full table (Chkobba 2v2 with 7+
cards and a claim open, Seven Diamonds late in a round with the four rows
open), a refusal message (which must not move the hand either), the coach's
hints, the damaged-save notice, the last-card banner.

Positions come from the engine in CPython (a record played out here) and are
loaded as saves, so late-round states cost one page load, not a played round.
Each page is checked at the three sizes by resizing it; a screenshot of each
goes to ``test-artifacts/fit-<position>-<step>-<lang>-<size>.jpg`` (a JPEG:
a PNG of a laptop's screen cost the browser 0.2-0.3 s each, a JPEG 0.05).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from chkobba import web
from chkobba.session import Session
from e2e_driver import ARTIFACTS, HAND, MESSAGE, ROOT, T, TABLE_CARDS, btn, open_table, settle

SIZES = {"360x640": (360, 640), "320x568": (320, 568), "640x360": (640, 360)}
LANGS = ("ar", "fr", "en")

# What must be on screen: the hand, the table's cards, every move button, the
# move log's title and the secondary buttons under the table (web/index.html's
# .share-bar: Statistics, Learn, Take back, sound, the timers switch, Share).
SECONDARY = ".share-bar > .btn, .share-bar > .timers-switch select"
MUST_SHOW = (f"{HAND} .card, {TABLE_CARDS} .card, {T} .controls button, {T} .choices button, "
             f"{T} .log > summary, {SECONDARY}")
# Shown during play in every state (Take back and the timers switch only where they apply).
ALWAYS_SHOWN = ("#stats-button", ".share-bar .learn-link", "#sound", "#share-button", f"{T} .log > summary")
# The top bar's controls: on screen too, and not covered (except by the damaged-save
# notice, which floats over the bar until it is dismissed).
BAR = "header.bar .brand, header.bar .lang-picker, header.bar .rules-link, header.bar #pace, header.bar #new-game"

OFF_SCREEN = """([sel, hitTest, safe]) => {
  window.scrollTo(0, 0);
  const W = document.documentElement.clientWidth, H = window.innerHeight, bad = [];
  // a notched phone's safe area (left, right, bottom), where nothing may be drawn
  const [L, R, B] = safe || [0, 0, 0];
  let n = 0;
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    n++;
    const name = el.dataset.card || el.dataset.act || el.dataset.action || el.id || el.className || el.tagName.toLowerCase();
    const where = `${name} at x ${Math.round(r.left)}..${Math.round(r.right)}, y ${Math.round(r.top)}..${Math.round(r.bottom)}`;
    if (r.left < L - 0.5 || r.top < -0.5 || r.right > W - R + 0.5 || r.bottom > H - B + 0.5) {
      bad.push(`${where}: outside the ${W}x${H} screen` + (safe ? ` (its safe area: ${L} px left, ${R} right, ${B} below)` : ''));
      continue;
    }
    if (!hitTest) continue;
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!hit || !(hit === el || el.contains(hit))) {
      bad.push(`${where}: covered by ${hit ? hit.tagName.toLowerCase() + '.' + hit.className : 'nothing'}`);
    }
  }
  const page = document.scrollingElement;
  if (page.scrollHeight > window.innerHeight + 1) bad.push(`the page scrolls: ${page.scrollHeight} px high on a ${H} px screen`);
  if (page.scrollWidth > W + 1) bad.push(`the page scrolls sideways: ${page.scrollWidth} px wide on a ${W} px screen`);
  return { n, bad, scrolled: window.scrollY };
}"""

# The secondary buttons stay big enough to tap (never under 32 px; 40 where they can), each with a tooltip.
SMALL_TARGETS = """(sel) => {
  const bad = [];
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 32 || r.height < 32) bad.push(`${el.id || el.className} is ${Math.round(r.width)}x${Math.round(r.height)} px`);
    // an icon-only button on a phone: its name shows as a tooltip for a pointer
    if (el.matches(".btn") && !el.title.trim()) bad.push(`${el.id || el.className} has no tooltip`);
  }
  return bad;
}"""

# A seat's last move and the status line's are read whole: never cut off
# ("a pris 6♥ avec …"), each card symbol in them on screen.
CUT_MOVES = """() => {
  const W = document.documentElement.clientWidth, H = window.innerHeight, bad = [];
  for (const el of document.querySelectorAll('#table .seat-move, #table .last-move')) {
    if (!el.checkVisibility({ visibilityProperty: true }) || !el.textContent.trim()) continue;
    const what = `${el.className} «${el.textContent.trim().slice(0, 40)}»`;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) bad.push(`${what} is cut off`);
    const box = el.getBoundingClientRect();
    for (const m of el.querySelectorAll('.mini')) {
      const r = m.getBoundingClientRect();
      if (r.left < Math.max(0, box.left) - 1 || r.right > Math.min(W, box.right) + 1 || r.bottom > H)
        bad.push(`${what}: its ${m.dataset.mini} is not shown whole`);
    }
  }
  return bad;
}"""

# Each word of the pace menu is shown whole in its box ("Instantanée" was
# cut to "Instantar" at 360 and 320 px): the width the box would take for
# that word alone, against the width it has.
PACE_WORDS = """() => {
  const sel = document.getElementById('pace'), bad = [];
  if (!sel || !sel.checkVisibility()) return bad;
  const has = sel.getBoundingClientRect().width;
  for (const o of sel.options) {
    const alone = sel.cloneNode(false);
    alone.removeAttribute('id');
    alone.append(new Option(o.text));
    Object.assign(alone.style, { maxWidth: 'none', width: 'auto', position: 'absolute', visibility: 'hidden' });
    sel.after(alone);
    const needs = alone.getBoundingClientRect().width;
    alone.remove();
    if (needs > has + 0.5) bad.push(`the pace menu cuts «${o.text}» (${Math.round(needs)} px in ${Math.round(has)})`);
  }
  return bad;
}"""

# While a refusal shows, the score line and every last move (under a seat,
# in the status line) are still read: the message covers none of them.
UNDER_MESSAGE = """() => {
  const msg = document.querySelector('#table .message'), bad = [];
  if (!msg || !msg.checkVisibility()) return ['no refusal shown'];
  const m = msg.getBoundingClientRect();
  for (const el of document.querySelectorAll('#table .scoreline, #table .seat-move, #table .last-move')) {
    if (!el.checkVisibility({ visibilityProperty: true }) || !el.textContent.trim()) continue;
    for (const r of el.getClientRects()) {
      if (r.width && r.height && r.left < m.right - 1 && r.right > m.left + 1 && r.top < m.bottom - 1 && r.bottom > m.top + 1) {
        bad.push(`the refusal covers ${el.className} «${el.textContent.trim().slice(0, 40)}»`);
        break;
      }
    }
  }
  return bad;
}"""

# the rows the table's cards lie in
TABLE_ROWS = f"() => new Set([...document.querySelectorAll('{TABLE_CARDS} .card')].map(c => Math.round(c.getBoundingClientRect().top))).size"

# Two frames after a resize the layout has settled.
FRAMES = "() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true))))"


def _play_to(game: str, options: dict[str, Any], want: Callable[[Session], bool], phase: str = "play",
             lay_first: bool = True, round_no: int = 1, takers: tuple[int, ...] = ()) -> Session:
    """A position of round ``round_no`` with seat 0 (the human) to act in
    ``phase`` where ``want`` holds. Chkobba seats lay rather than take (the
    table fills and claims open), except the ``takers``, who take two cards
    or more where they can (the longest last moves: "a pris 6♥, 2♠ avec 8♣")."""
    for seed in range(1, 400):
        rng = random.Random(seed)
        s = Session.new(game, options, seed=seed)
        while s.to_act() is not None and len(s.record()["rounds"]) <= round_no:
            if len(s.record()["rounds"]) == round_no and s.to_act() == 0 and s.view(0)["phase"] == phase and want(s):
                return s
            legal = [a for a in s.legal() if not a.startswith("claim") and a != "timeout"]
            lays = [a for a in legal if len(a) == 2]
            takes = [a for a in legal if "x" in a and len(a) >= 7]
            if s.to_act() in takers and takes:
                s.apply(rng.choice(takes))
            elif game == "chkobba" and lay_first and lays:
                s.apply(rng.choice(lays))
            else:
                s.apply(rng.choice(legal))
    raise AssertionError(f"no {game} position found")


def longest_level(lang: str) -> str:
    """The computer level whose name is the longest in ``lang`` (the seats'
    names are "Adversaire de gauche (difficile)" ...): the fit is checked
    with the longest words each language has."""
    words = json.loads((ROOT / "web" / "i18n" / lang / "ui.json").read_text(encoding="utf-8"))
    return max(("easy", "medium", "hard"), key=lambda level: len(words[f"level.{level}"]))


def _save(s: Session, coach: bool = False, lang: str = "en") -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": longest_level(lang)}] * (s.players - 1)
    return {"v": web.SAVE_VERSION, "game": s.game, "record": s.record(), "seed": s.seed, "seats": seats,
            "coach": coach}


def _table(s: Session) -> list[str]:
    t = s.view(0)["table"]
    return [c for row in t.values() for c in row] if isinstance(t, dict) else list(t)


def _claims(s: Session) -> bool:
    return any(a.startswith("claim") for a in s.legal())


def _claim5(s: Session) -> bool:
    partner = [m for m in s.moves() if m["seat"] == 2]
    return len(_table(s)) == 5 and _claims(s) and bool(partner) and len(partner[-1].get("cards") or []) >= 2


def _last_card_now(s: Session) -> bool:
    return bool(s.view(0)["last_card"]) and len(s.view(0)["hand"]) >= 2


def _rows_open(s: Session) -> bool:
    """Seven Diamonds with the four rows open and most of the hand still held."""
    return all(s.view(0)["table"].values()) and len(_table(s)) >= 14 and len(s.view(0)["hand"]) >= 5


POSITIONS: dict[str, Callable[[], Session]] = {
    "ck2-deal": lambda: _play_to("chkobba", {"players": 2}, lambda s: True),
    "ck2-cut": lambda: _play_to("chkobba", {"players": 2}, lambda s: True, phase="cut"),
    "ck2-full": lambda: _play_to("chkobba", {"players": 2, "match": 3}, lambda s: len(_table(s)) >= 7 and _claims(s)),
    "ck4-deal": lambda: _play_to("chkobba", {"players": 4}, lambda s: True),
    "ck4-cut": lambda: _play_to("chkobba", {"players": 4}, lambda s: True, phase="cut"),
    "ck4-full": lambda: _play_to("chkobba", {"players": 4, "match": 3}, lambda s: len(_table(s)) >= 8 and _claims(s)),
    # (issue 38) round 2 of a best of 3 (the score line's longest), five
    # cards on the table, the claim on, and the partner's last move a take
    # of two cards or more
    "ck4-claim5": lambda: _play_to("chkobba", {"players": 4, "match": 3}, _claim5, round_no=2, takers=(1, 2)),
    "sd-calls": lambda: _play_to("seven_diamonds", {"timers": False}, lambda s: True, phase="calls"),
    "sd-late": lambda: _play_to("seven_diamonds", {"timers": False},
                                _rows_open),
    "sd-last-card": lambda: _play_to("seven_diamonds", {"timers": False}, _last_card_now),
}

# test -> (position, hints on, what the player meets there, in order: "look"
# at the position, "hint" (the coach's ranked moves), "refuse" (a refused move
# and its message, at each size, which must not move the hand))
STATES: dict[str, tuple[str, bool, tuple[str, ...]]] = {
    "ck2-deal": ("ck2-deal", False, ("look", "refuse")),
    "ck2-cut": ("ck2-cut", False, ("look",)),
    "ck2-full": ("ck2-full", True, ("look", "hint", "refuse")),
    "ck4-deal": ("ck4-deal", False, ("look",)),
    "ck4-cut": ("ck4-cut", False, ("look",)),
    "ck4-full": ("ck4-full", True, ("look", "hint", "refuse")),
    "ck4-claim5": ("ck4-claim5", False, ("look", "refuse")),
    "sd-calls": ("sd-calls", False, ("look",)),
    "sd-late": ("sd-late", True, ("look", "hint", "refuse")),
    "sd-last-card": ("sd-last-card", False, ("look",)),
}

_cache: dict[str, Session] = {}


def position(name: str) -> Session:
    if name not in _cache:
        _cache[name] = POSITIONS[name]()
    return _cache[name]


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.jpg"), type="jpeg", quality=80)


def hand_boxes(page: Any) -> list[list[float]]:
    return list(page.eval_on_selector_all(f"{HAND} .card", "els => els.map(e => { const r = e.getBoundingClientRect();"
                                                           " return [Math.round(r.left), Math.round(r.top)]; })"))


def refuse(page: Any, s: Session) -> None:
    """A move the engine refuses, made by pointing; its message shows."""
    legal = set(s.legal())
    hand = s.view(0)["hand"]
    if s.game == "seven_diamonds":
        card = next(c for c in hand if c not in legal)
        page.click(f'{HAND} .card[data-card="{card}"]')
    else:
        table = _table(s)
        h, c = next((h, c) for h in hand for c in table if f"{h}x{c}" not in legal and h[0] != c[0])
        page.click(f'{HAND} .card[data-card="{h}"]')
        page.click(f'{TABLE_CARDS} .card[data-card="{c}"]')
        page.click(btn("take"))
    page.wait_for_function(f"() => document.querySelector('{MESSAGE}').textContent.trim() !== ''")


def ask_hint(page: Any) -> None:
    page.wait_for_selector("html.ai-ready")
    page.click(f"{T} .btn-hint")
    page.wait_for_selector(f"{T} .coach .hints li, {T} .coach .hint-error")


def check_size(page: Any, label: str, size: str, bar_covered: bool = False) -> list[str]:
    w, h = SIZES[size] if size in SIZES else TABLETS[size]
    page.set_viewport_size({"width": w, "height": h})
    page.evaluate(FRAMES)
    got = page.evaluate(OFF_SCREEN, [MUST_SHOW, True])
    bar = page.evaluate(OFF_SCREEN, [BAR, not bar_covered])
    small = page.evaluate(SMALL_TARGETS, SECONDARY) + page.evaluate(CUT_MOVES) + page.evaluate(PACE_WORDS)
    shot(page, f"fit-{label}-{size}")
    assert got["n"] > 0, "nothing to check"
    # (hidden elements are skipped above: these must be shown in every state)
    hidden = [sel for sel in ALWAYS_SHOWN if not page.locator(sel).is_visible()]
    bad = list(dict.fromkeys(got["bad"] + bar["bad"] + small + [f"{sel} is not shown" for sel in hidden]))
    return [f"{label} {size}: {b}" for b in bad]


def check_sizes(page: Any, label: str, bar_covered: bool = False) -> list[str]:
    return [p for size in SIZES for p in check_size(page, label, size, bar_covered)]


def open_with_save(page: Any, lang: str, save: dict[str, Any]) -> None:
    """The page opens on ``save`` (put in storage before its first script runs: one boot)."""
    page.add_init_script(
        "if (!sessionStorage.getItem('fit.loaded')) {"
        f" localStorage.setItem('chkobba.save.v1', {json.dumps(json.dumps(save))});"
        " sessionStorage.setItem('fit.loaded', '1'); }")
    open_table(page, f"?lang={lang}")


# The states also checked at the TABLETS sizes (in Arabic and French), and
# the one where a refusal is tapped away (in Arabic and French): on the same
# page, after the phone sizes of each step.
TABLET_STATES, TABLET_LANGS = ("ck2-full", "ck4-full", "sd-late"), ("ar", "fr")
TAP_STATE, TAP_LANGS = "ck2-full", ("ar", "fr")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(STATES))
def test_the_table_fits_the_screen(make_page: Any, name: str, lang: str) -> None:
    """Each state at the phone SIZES; the full tables also at the TABLETS
    sizes (a tablet or a small laptop: the page does not scroll and your
    hand, the table's cards, the move buttons, the dock and the top bar are
    on screen, none covered, also with the coach's moves and a refusal
    shown; a 2v2 table of 8 cards at 1024x768 was two cards wide, your hand
    500 px below the screen, beside a move log's column; at 1366x625 and
    1024x690 the move buttons were below the screen)."""
    pos, coach, steps = STATES[name]
    s = position(pos)
    tablets = name in TABLET_STATES and lang in TABLET_LANGS
    page = make_page({"width": 360, "height": 640})
    open_with_save(page, lang, _save(s, coach=coach, lang=lang))
    assert settle(page) == "you"
    assert page.evaluate("() => window.chkobbaApp.state.save.record.rounds[0].actions.length") == \
        len(s.record()["rounds"][0]["actions"]), "the page did not open on the saved position"
    problems: list[str] = []
    if _claims(s) and s.game == "chkobba":
        assert page.locator(btn("claim")).is_visible(), "the claim is not on"
    for step in steps:
        label = f"{name}-{step}-{lang}"
        tablet_label = f"tablet-{name}-{lang}-{step}"
        if step == "look":
            problems += check_sizes(page, label)
            if name == "ck4-full":   # (the state it stands for: two rows of cards at 320 px, checked above)
                page.set_viewport_size({"width": 320, "height": 568})
                page.evaluate(FRAMES)
                assert page.evaluate(TABLE_ROWS) >= 2, "the table's cards are in one row at 320x568"
            if tablets:
                problems += [p for size in TABLETS for p in check_size(page, tablet_label, size)]
        elif step == "hint":
            ask_hint(page)
            problems += check_sizes(page, label)
            if tablets:
                problems += [p for size in TABLETS for p in check_size(page, tablet_label, size)]
            if name == TAP_STATE and lang in TAP_LANGS:
                tap_the_refusal_away(page, s, f"{name} {lang} 360x640")
        elif step == "refuse":
            for size in SIZES:
                w, h = SIZES[size]
                page.set_viewport_size({"width": w, "height": h})
                page.evaluate(FRAMES)
                before = hand_boxes(page)
                refuse(page, s)
                page.evaluate(FRAMES)
                after = hand_boxes(page)
                # the picked card rises; every other card stays where it was
                if any(abs(a[0] - b[0]) > 1 or abs(a[1] - b[1]) > 12 for a, b in zip(before, after)):
                    problems.append(f"{label} {size}: the refusal moved the hand ({before} -> {after})")
                problems += check_size(page, label, size)
                problems += [f"{label} {size}: {b}" for b in page.evaluate(UNDER_MESSAGE)]
                page.keyboard.press("Escape")
            if tablets:
                for size, (w, h) in TABLETS.items():
                    page.set_viewport_size({"width": w, "height": h})
                    refuse(page, s)
                    problems += check_size(page, tablet_label, size)
                    page.keyboard.press("Escape")
    assert not problems, "\n".join(problems)


COVERED = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return at && at.closest('.message') ? 'message' : at && at.closest(sel) ? 'itself' : String(at && at.className); }"""


def tap_the_refusal_away(page: Any, s: Session, where: str) -> None:
    """On a phone a refusal floats over the status line, not over the
    coach's moves (issue 38: nor over the score line or a last move): the
    player reads both, taps the refusal away; the cards chosen stay chosen.
    (The coach's moves are shown; the page is set to 360x640 here; Escape
    clears the chosen cards after.)"""
    page.set_viewport_size({"width": 360, "height": 640})
    page.evaluate(FRAMES)
    first = f"{T} .coach .hints li:first-child"
    assert page.evaluate(COVERED, first) == "itself", f"{where}: the coach's first move is covered before the refusal"
    refuse(page, s)
    picked = page.locator(f"{T} .card.selected").evaluate_all("els => els.map(e => e.dataset.card)")
    assert len(picked) == 2, f"{where}: the refused move's cards are not both chosen: {picked}"
    assert page.locator(MESSAGE).is_visible(), f"{where}: the refusal is not shown"
    assert page.evaluate(COVERED, first) == "itself", f"{where}: the refusal covers the coach's first move"
    page.click(MESSAGE)
    page.wait_for_selector(MESSAGE, state="hidden")
    assert page.evaluate(COVERED, first) == "itself", f"{where}: the coach's first move is covered after the tap"
    assert page.locator(f"{T} .card.selected").evaluate_all("els => els.map(e => e.dataset.card)") == picked, \
        f"{where}: the tap on the refusal changed the chosen cards"
    page.keyboard.press("Escape")


def the_log_opens_over_the_table_with_its_title(page: Any, lang: str) -> None:
    """On a phone the log is the dock's first pill; tapped, it opens as a
    panel on screen, headed by its title, scrolling inside itself (the page
    does not scroll), and tapped again it closes."""
    pill = page.locator(f"{T} .log > summary")
    is_open = f"() => document.querySelector('{T} .log').open"
    for size in SIZES:
        w, h = SIZES[size]
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate(FRAMES)
        assert page.evaluate(is_open) is False, f"the log {lang} {size}: open before its pill is tapped"
        pill.click()
        page.evaluate(FRAMES)
        got = page.evaluate("""() => {
          const log = document.querySelector('#table .log'), r = log.getBoundingClientRect();
          return { open: log.open, box: [r.left, r.top, r.right, r.bottom],
                   heading: getComputedStyle(log, '::before').content,
                   title: log.querySelector('.log-title').textContent,
                   items: log.querySelectorAll('.log-moves li').length,
                   page: document.scrollingElement.scrollHeight };
        }""")
        shot(page, f"fit-log-open-{lang}-{size}")
        where = f"the log {lang} {size}"
        assert got["open"] and got["items"] >= 8, (where, got)
        left, top, right, bottom = got["box"]
        assert left >= 0 and top >= 0 and right <= w + 0.5 and bottom <= h + 0.5, (where, got)
        assert got["heading"] == json.dumps(got["title"], ensure_ascii=False) and got["title"], (where, got)
        assert got["page"] <= h + 1, f"{where}: the page scrolls with the log open"
        pill.click()
        assert page.evaluate(is_open) is False, f"{where}: a second tap did not close it"


def the_log_follows_the_window_across_the_wide_layout(page: Any) -> None:
    """A page opened on a narrow window shows the move log as a column once
    the window is made wide, and as the closed pill again once it is narrow
    (an open log there would be a panel over the table)."""
    is_open = f"() => document.querySelector('{T} .log').open"
    assert page.evaluate(is_open) is False, "the log is open on a page opened at 360x640"
    for (w, h), want in (((1280, 800), True), ((1024, 768), False), ((1280, 800), True), ((360, 640), False)):
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate(FRAMES)
        assert page.evaluate(is_open) is want, f"the log at {w}x{h}: open is {not want}, not {want}"
    # the log's moves are there to read once it opens
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(FRAMES)
    assert page.locator(f"{T} .log .log-moves li").first.is_visible(), "the log's moves are not shown at 1280x800"


DAMAGED = '{"v": 2, "record": 5}'


def _dealt(game: str) -> dict[str, Any]:
    """A new game as the start form deals it with ?seed=5 (Chkobba 2v2 against
    three easy computers; Seven Diamonds with the form's levels), no move made."""
    if game == "seven_diamonds":
        s, level = Session.new("seven_diamonds", {"timers": False}, seed=5), "medium"
    else:
        s, level = Session.new("chkobba", {"players": 4}, seed=5), "easy"
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": level}] * (s.players - 1)
    return {"v": web.SAVE_VERSION, "game": s.game, "record": s.record(), "seed": s.seed, "seats": seats,
            "coach": False}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["chkobba-4", "seven_diamonds"])
def test_the_damaged_save_notice_leaves_the_table_on_screen(make_page: Any, game: str, lang: str) -> None:
    """The latest save is damaged and the game resumes from the one before
    it: the notice floats over the top bar, the table stays on screen. The
    saves are put in storage before the page's first script runs (one boot;
    e2e/test_table.py plays a game, damages its save and sees it resume)."""
    page = make_page({"width": 360, "height": 640})
    save = _dealt(game)
    page.add_init_script(
        "if (!sessionStorage.getItem('fit.loaded')) {"
        f" localStorage.setItem('chkobba.save.previous.v1', {json.dumps(json.dumps(save))});"
        f" localStorage.setItem('chkobba.save.v1', {json.dumps(DAMAGED)});"
        " localStorage.setItem('chkobba.pace', 'instant');"
        " sessionStorage.setItem('fit.loaded', '1'); }")
    open_table(page, f"?lang={lang}&seed=5")
    assert page.locator("#notice").is_visible()
    settle(page)
    resumed = page.evaluate("() => { const s = window.chkobbaApp.state.save; return [s.seed, s.record.game, s.seats]; }")
    assert resumed == [5, save["game"], save["seats"]], f"the page did not resume the save before the damaged one: {resumed}"
    problems = check_sizes(page, f"damaged-{game}-{lang}", bar_covered=True)
    for size in TABLETS:   # (and on a tablet or a laptop)
        problems += check_size(page, f"damaged-{game}-{lang}", size, bar_covered=True)
    assert page.locator("#notice").is_visible()
    assert not problems, "\n".join(problems)


def test_positions_are_what_they_say() -> None:
    """The saves the checks load hold the states they are named for."""
    assert len(_table(position("ck4-full"))) >= 8 and _claims(position("ck4-full"))
    late = position("sd-late")
    assert all(late.view(0)["table"][suit] for suit in "DHSC"), json.dumps(late.view(0)["table"])
    assert position("sd-calls").view(0)["phase"] == "calls"


# what the browser says the left safe area is (a probe, apart from our CSS)
SAFE_LEFT = """() => { const d = document.createElement('div'); d.style.paddingLeft = 'env(safe-area-inset-left, 0px)';
  document.body.append(d); const v = getComputedStyle(d).paddingLeft; d.remove(); return v; }"""
# Phones held sideways with a notch or a camera cut-out, and the safe areas
# their browsers give a page with viewport-fit=cover (left, right, bottom):
# an iPhone 13 mini, an iPhone 14, an Android phone with its cut-out on one side.
NOTCHED = {"812x375": ((812, 375), (50, 50, 21)), "844x390": ((844, 390), (47, 47, 21)),
           "800x360": ((800, 360), (32, 0, 0))}


@pytest.mark.parametrize("lang", ["ar", "en"])
@pytest.mark.parametrize("name", ["ck4-full", "sd-late"])
def test_the_move_log_on_a_phone_and_a_notched_phone_held_sideways(make_page: Any, name: str, lang: str) -> None:
    """The page draws under a notched phone's notch (viewport-fit=cover), so
    in landscape the top bar, the table, your hand, the move buttons, the dock
    and the open move log keep out of the left and right safe areas and above
    the bottom one (the browser's env(safe-area-inset-*), set here through
    the DevTools protocol). First, on the 2v2 table opened at 360x640: the
    move log across the wide layout (in English) and opened on a phone."""
    s = position(name)
    page = make_page({"width": 360, "height": 640})
    cdp = page.context.new_cdp_session(page)
    open_with_save(page, lang, _save(s, lang=lang))
    assert settle(page) == "you"
    if name == "ck4-full":
        if lang == "en":
            the_log_follows_the_window_across_the_wide_layout(page)
        the_log_opens_over_the_table_with_its_title(page, lang)
    problems: list[str] = []
    for size, ((w, h), safe) in NOTCHED.items():
        left, right, bottom = safe
        cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": {"left": left, "right": right, "bottom": bottom, "top": 0}})
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate(FRAMES)
        label = f"notched-{name}-{lang}-{size}"
        assert page.evaluate(SAFE_LEFT) == f"{left}px", f"{label}: the browser did not take the safe area"
        for sel, hit in ((MUST_SHOW, True), (BAR, True)):
            problems += [f"{label}: {b}" for b in page.evaluate(OFF_SCREEN, [sel, hit, list(safe)])["bad"]]
        shot(page, f"fit-{label}")
        page.locator(f"{T} .log > summary").click()
        page.evaluate(FRAMES)
        problems += [f"{label}, the log open: {b}" for b in page.evaluate(OFF_SCREEN, [f"{T} .log[open]", False, list(safe)])["bad"]]
        shot(page, f"fit-{label}-log")
        page.locator(f"{T} .log > summary").click()
    assert not problems, "\n".join(problems)


# Tablets and small laptops, 700-1199 px wide: the phone's dock at the bottom
# and cards that follow the height (an iPad either way round, and sideways in
# Safari under its bars; a 1024x768 laptop); and laptops with the move log's
# column: 1280x800, and the page left under the browser's bars on a 1366x768
# screen and on a 1920x1080 one at 125 %.
TABLETS = {"768x1024": (768, 1024), "1024x768": (1024, 768), "1024x690": (1024, 690), "1280x800": (1280, 800),
           "1366x625": (1366, 625), "1536x730": (1536, 730)}
