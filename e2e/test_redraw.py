"""A move redraws only what it changed (issue 22: the page's work during a
computer move): cards that stay in your hand, on the table or in a Seven
Diamonds row are the same elements after the move, not new ones; the card or
button a person pressed is not removed while it has the focus."""

from __future__ import annotations

from typing import Any

from e2e_driver import (DESKTOP, HAND, PHONE, TABLE_CARDS, T, open_table, pick_action, play_until_summary, point_and_play,
                        settle, start_game, state)
from test_seven_table import human_turn, start_seven
from test_seven_table import settle as seven_settle

MARK = """(sel) => { for (const e of document.querySelectorAll(sel)) e.__kept = true; }"""
KEPT = """(sel) => [...document.querySelectorAll(sel)].map((e) => [e.dataset.card || e.dataset.suit, !!e.__kept])"""
# Elements the page removes while they hold the focus (each such removal made
# the browser restyle the half-drawn table in the middle of the drawing).
FOCUS_WATCH = """() => { window.__focusedRemoved = [];
    const held = (node) => node.contains(document.activeElement) && document.activeElement !== document.body;
    const note = (node) => window.__focusedRemoved.push(node.className || node.nodeName);
    const remove = Element.prototype.remove;
    Element.prototype.remove = function () { if (held(this)) note(this); return remove.call(this); };
    const replace = Element.prototype.replaceChildren;
    Element.prototype.replaceChildren = function (...nodes) {
      for (const c of this.children) if (held(c) && !nodes.includes(c)) note(c);
      return replace.apply(this, nodes); }; }"""


def test_a_chkobba_move_keeps_the_other_cards_elements(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=21")
    start_game(page, players=2, levels=("easy",))
    assert settle(page) == "you"
    hand = state(page)["view"]["hand"]
    assert len(hand) == 3
    page.evaluate(MARK, f"{HAND} .card, {TABLE_CARDS} .card")
    table_before = set(state(page)["view"]["table"])
    action = pick_action(state(page)["save"])
    played = action.split("x")[0]            # a lay ("7D") or a capture ("7Dx3S4C")
    assert played in hand
    point_and_play(page, action)
    assert settle(page) == "you"             # the computer answered
    st = state(page)
    assert len(st["view"]["hand"]) == 2      # the same deal
    kept = dict(page.evaluate(KEPT, f"{HAND} .card"))
    assert kept == {c: True for c in hand if c != played}, kept   # your two other cards were not made again
    on_table = dict(page.evaluate(KEPT, f"{TABLE_CARDS} .card"))
    for code in table_before & set(st["view"]["table"]):
        assert on_table[code], code          # a table card that stayed is the same element


def test_a_seven_diamonds_move_keeps_the_rows_and_the_hand(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=23")
    start_seven(page)
    page.evaluate(FOCUS_WATCH)
    calls: list[str] = []
    for _ in range(12):                      # the calls, then your first card
        assert seven_settle(page) == "you"
        if state(page)["view"]["phase"] == "play":
            break
        human_turn(page, calls, want="pass")
    st = state(page)
    assert st["view"]["phase"] == "play"
    page.evaluate(MARK, f"{HAND} .card, #table .sd-row, #table .sd-row > *")
    laid = human_turn(page, calls)
    assert seven_settle(page) in ("you", "summary")
    after = state(page)["view"]
    kept = dict(page.evaluate(KEPT, f"{HAND} .card"))
    assert set(kept) == set(after["hand"]) and laid not in kept
    assert all(kept.values()), kept          # the cards you still hold were not made again
    rows = page.evaluate(KEPT, "#table .sd-row")
    assert [r[0] for r in rows] == ["D", "H", "S", "C"] and all(k for _, k in rows), rows
    # within the rows too: the only new elements are the cards laid since (yours and the
    # computers'); the slots and the cards already there stay, the ring moves by a class
    made = page.evaluate("""() => [...document.querySelectorAll('#table .sd-row > *')]
        .filter((e) => !e.__kept).map((e) => e.dataset.card || 'slot ' + e.dataset.slot)""")
    before_rows = {c for cards in st["view"]["table"].values() for c in cards}
    after_rows = {c for cards in after["table"].values() for c in cards}
    assert laid in after_rows and sorted(made) == sorted(after_rows - before_rows), (made, after_rows - before_rows)
    row = page.eval_on_selector(f'#table .sd-row[data-suit="{laid[1]}"]', "r => [...r.querySelectorAll('.card')].map(c => c.dataset.card)")
    assert laid in row                       # the row shows the card laid
    # The button or card you pressed was let go before the table was drawn,
    # not removed while it had the focus.
    assert calls and page.evaluate("window.__focusedRemoved") == []


def test_the_card_just_laid_in_a_row_has_a_ring_and_no_words_over_the_row_above(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=23")
    start_seven(page)
    calls: list[str] = []
    for _ in range(12):
        assert seven_settle(page) == "you"
        if state(page)["view"]["phase"] == "play":
            break
        human_turn(page, calls, want="pass")
    card = f"{T} .sd-row .card.just-laid"
    for _ in range(8):                       # until the move before yours laid a card (not a pass)
        human_turn(page, calls)
        assert seven_settle(page) == "you"
        if state(page)["moves"][-1]["kind"] == "lay":
            break
    assert page.locator(card).count() == 1
    ring = page.eval_on_selector(card, "c => getComputedStyle(c).boxShadow")
    words = page.eval_on_selector(card, "c => getComputedStyle(c, '::before').content")
    assert ring != "none" and words in ("none", "normal"), (ring, words)


DEFERRED_LOG = """async () => {
  const t = window.chkobbaApp.table, s = t.state;
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const items = () => document.querySelectorAll('#table .log-moves .log-item').length;
  t.set({state: {...s, moves: s.moves.slice(0, -1)}});
  await frame(); await frame();
  const before = items();
  t.set({state: s});
  const same_task = items();
  await frame(); await frame();
  return [s.moves.length, before, same_task, items(), document.querySelector('#table .log').open];
}"""


def test_an_open_move_log_is_drawn_in_the_frame_after_the_table(make_page: Any) -> None:
    """On a wide screen the open log is a column of every move, and a new move
    moves every item: it draws in the frame after the table's, not in the same
    one (docs/main-thread.md). A phone's closed log (only its
    count shows) is drawn at once."""
    page = make_page(DESKTOP)
    open_table(page, "?seed=21")
    start_game(page, players=2, levels=("easy",))
    assert settle(page) == "you"
    point_and_play(page, pick_action(state(page)["save"]))
    assert settle(page) == "you"
    n, before, same_task, after, is_open = page.evaluate(DEFERRED_LOG)
    assert is_open and n >= 2
    assert (before, same_task, after) == (n - 1, n - 1, n)
    page.set_viewport_size(PHONE)
    page.evaluate("() => { document.querySelector('#table .log').open = false; }")
    n, before, same_task, after, is_open = page.evaluate(DEFERRED_LOG)
    assert not is_open
    assert (before, same_task, after) == (n - 1, n, n)


# Each drawing of the table: which state it drew (a number per state object)
# and whether as the round's end; "end" when the round's end is shown.
DRAWINGS = """() => { const t = window.chkobbaApp.table, ids = new WeakMap(); let n = 0;
    window.__drawings = [];
    const id = (s) => { if (!ids.has(s)) ids.set(s, ++n); return ids.get(s); };
    const render = t.render.bind(t), end = t.showRoundEnd.bind(t);
    t.render = () => { window.__drawings.push([id(t.state), !!t.frame]); return render(); };
    t.showRoundEnd = (...a) => { window.__drawings.push("end"); return end(...a); }; }"""


def test_a_rounds_last_move_draws_the_table_once_as_the_round_ended(make_page: Any) -> None:
    """The move that ends a round draws the table as the round ended, once:
    not the next state first and then the round's end over it."""
    for players, size in ((2, PHONE), (4, DESKTOP)):
        page = make_page(size)
        open_table(page, "?seed=21")
        start_game(page, players=players, levels=("easy",) * (players - 1))
        page.evaluate(DRAWINGS)
        play_until_summary(page)
        drawn = page.evaluate("window.__drawings")
        at = drawn.index("end")
        (last, framed), before = drawn[at - 1], drawn[:at - 1]
        assert framed, drawn[at - 3:at + 1]                 # the round's end is what was drawn
        assert all(d[0] != last for d in before), drawn[at - 3:at + 1]   # and the state it ended in was not drawn before it


def test_a_redraw_that_keeps_the_focused_card_never_blurs_it(make_page: Any) -> None:
    """A drawing that keeps the focused card (the same state drawn again, as
    an online table's timer redraws it each second) leaves the focus where it
    is: no blur and focus again, which a screen reader would say anew."""
    page = make_page(PHONE)
    open_table(page, "?seed=21")
    start_game(page, players=2, levels=("easy",))
    assert settle(page) == "you"
    card = state(page)["view"]["hand"][0]
    page.focus(f'{HAND} .card[data-card="{card}"]')
    got = page.evaluate("""() => { const a = document.activeElement, app = window.chkobbaApp; let blurs = 0;
        a.addEventListener('blur', () => { blurs++; });
        app.table.set({ state: JSON.parse(JSON.stringify(app.state)) });
        return [blurs, document.activeElement === a]; }""")
    assert got == [0, True], got


# Frames counted as they are drawn (an animation-frame callback each), and
# each piece of the page's timed work (web/shell/py.js `timings`: renders,
# pieces of thinking) stamped with the count when it ended.
FRAMES = """() => { window.__frames = 0; window.__stamped = [];
    const tick = () => { window.__frames++; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    const ts = window.chkobbaApp.timings, push = ts.push.bind(ts);
    ts.push = (...xs) => { for (const x of xs) window.__stamped.push([x[0], window.__frames]); return push(...xs); }; }"""
# the page's next task (web/shell/py.js) against a message queued before it
QUEUE_ORDER = """async () => { const { nextTask } = await import('./shell/py.js');
    const order = [], ch = new MessageChannel();
    ch.port1.onmessage = () => order.push('queued before');
    ch.port2.postMessage(0);
    await nextTask();
    order.push('next task');
    await new Promise((resolve) => setTimeout(resolve, 50));
    return order; }"""


def test_a_computer_thinks_once_its_turn_is_on_the_screen_and_lets_frames_through(make_page: Any) -> None:
    """A computer's thinking starts after a frame has drawn the move before
    it, and each piece of thinking waits behind what is already queued, the
    browser's frames among them (docs/main-thread.md): slices
    resumed by scheduler.yield(), which go first, held a drawn move off the
    screen for about 100 ms and then drew it in one long frame."""
    page = make_page(PHONE)
    open_table(page, "?seed=21")
    start_game(page, players=2, levels=("easy",))
    assert page.evaluate(QUEUE_ORDER) == ["queued before", "next task"]
    page.evaluate(FRAMES)
    play_until_summary(page)
    drawn_at, turns = None, []
    for what, frames in page.evaluate("window.__stamped"):
        if what == "render":
            drawn_at = frames
        elif what == "think tidy" and drawn_at is not None:   # a computer's first piece of thinking
            turns.append((drawn_at, frames))
    assert len(turns) >= 10, turns
    assert all(thought > drawn for drawn, thought in turns), turns
