"""Sound and touch (web/shell/sound.js): quiet by default, a switch remembered
across visits, no AudioContext before the page's first tap, sounds after a
tap and a move, nothing while the page is hidden."""

from __future__ import annotations

from typing import Any

from e2e_driver import DESKTOP, PHONE, open_table, pick_action, point_and_play, saved, settle, shot, start_game

# Every AudioContext the page makes is kept in window.__audioContexts, so the
# test sees its state whatever the module does with it.
WATCH_AUDIO = """
(() => {
  const Orig = window.AudioContext;
  window.__audioContexts = [];
  if (!Orig) return;
  window.AudioContext = class extends Orig {
    constructor(...args) { super(...args); window.__audioContexts.push(this); }
  };
})();
"""
CONTEXTS = "() => window.__audioContexts.map((c) => c.state)"
SWITCH = "#sound"


def fresh(make_page: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    page = make_page(viewport)
    page.add_init_script(WATCH_AUDIO)
    return page


def pressed(page: Any) -> bool:
    return page.get_attribute(SWITCH, "aria-pressed") == "true"


def test_quiet_by_default_and_no_audio_before_a_tap(make_page: Any) -> None:
    page = fresh(make_page)
    open_table(page, "?seed=5")
    assert not pressed(page)
    assert page.evaluate(CONTEXTS) == []
    # taps and moves with sound off make no AudioContext at all
    start_game(page, players=2, levels=("easy",))
    assert settle(page) == "you"
    point_and_play(page, pick_action(saved(page)))
    assert settle(page) in ("you", "summary")
    assert page.evaluate(CONTEXTS) == []
    assert page.evaluate("() => window.chkobbaApp.sound.log.length") == 0


def test_the_switch_is_remembered_and_sound_starts_only_after_a_tap(make_page: Any) -> None:
    page = fresh(make_page, PHONE)
    open_table(page, "?seed=5")
    start_game(page, players=2, levels=("easy",))
    assert settle(page) == "you"
    page.click(SWITCH)
    assert pressed(page)
    assert page.evaluate("() => localStorage.getItem('chkobba.sound')") == "on"
    page.locator(SWITCH).scroll_into_view_if_needed()
    shot(page, "sound-switch-on-phone")

    # a new visit: the switch is on, yet nothing is made before the first tap
    page.reload()
    page.wait_for_selector("html.ready")
    assert pressed(page)
    page.wait_for_function("() => window.chkobbaApp.state")
    assert page.evaluate(CONTEXTS) == []

    # the first tap (on a card) makes the context; the move is heard
    assert settle(page) == "you"
    point_and_play(page, pick_action(saved(page)))
    page.wait_for_function("() => window.__audioContexts.some((c) => c.state === 'running')")
    heard = "() => window.chkobbaApp.sound.log.some((n) => ['card', 'capture', 'sweep'].includes(n))"
    for _ in range(4):  # the first move may be the cut (no sound of its own): play on until a card goes down
        if settle(page) != "you" or page.evaluate(heard):
            break
        point_and_play(page, pick_action(saved(page)))
    page.wait_for_function(heard)
    assert settle(page) in ("you", "summary")
    log = page.evaluate("() => window.chkobbaApp.sound.log")
    assert set(log) <= {"card", "capture", "sweep", "turn", "won", "lost"}, log

    # nothing while the page is hidden
    hidden = page.evaluate("""() => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
        const played = window.chkobbaApp.sound.play("card");
        delete document.hidden;
        return played;
    }""")
    assert hidden is False
    assert page.evaluate("() => window.chkobbaApp.sound.play('card')") is True

    # off again: remembered too, and nothing plays
    page.click(SWITCH)
    assert not pressed(page)
    assert page.evaluate("() => window.chkobbaApp.sound.play('card')") is False
    page.reload()
    page.wait_for_selector("html.ready")
    assert not pressed(page)
    assert page.evaluate("() => localStorage.getItem('chkobba.sound')") == "off"


def test_the_switch_is_named_in_each_language(make_page: Any) -> None:
    for lang, word in (("ar", "الصوت"), ("fr", "Son"), ("en", "Sound")):
        page = fresh(make_page, PHONE)
        open_table(page, f"?lang={lang}&seed=5")
        assert word in (page.get_attribute(SWITCH, "aria-label") or "")
        assert page.evaluate(CONTEXTS) == []


def test_seven_diamonds_calls_the_round_and_the_timers_last_seconds_are_heard(make_page: Any) -> None:
    from test_seven_table import play_round, start_seven

    page = fresh(make_page, PHONE)
    open_table(page, "?seed=7")
    start_seven(page, timers="0")
    page.click(SWITCH)   # sound on (a tap: the context starts)
    page.wait_for_function("() => window.__audioContexts.some((c) => c.state === 'running')")
    st, calls = play_round(page)
    points = st["sheet"]["rounds"][-1]["points"]
    if points[0] != points[1]:   # the round's sound comes 220 ms after the last card's (sound.onChange)
        page.wait_for_function("(w) => window.chkobbaApp.sound.log.at(-1) === w",
                               arg="won" if points[0] > points[1] else "lost", timeout=5_000)
    log = page.evaluate("() => window.chkobbaApp.sound.log")
    # a call (double or triple) is heard exactly when one was made in the round
    kinds = [m["kind"] for m in st["moves"]] + [m["kind"] for m in st["last_round_moves"]]
    called = any(k in ("double", "triple") for k in kinds)
    assert ("call" in log) == called, (calls, kinds, log)
    assert "card" in log
    points = st["sheet"]["rounds"][-1]["points"]
    if points[0] != points[1]:
        assert log[-1] == ("won" if points[0] > points[1] else "lost"), (points, log)

    # short timers (3 s): each of the last seconds ticks
    if page.is_visible("#summary-next"):
        page.click("#summary-next")   # close the round's summary before a new game
    start_seven(page, timers="5")
    page.wait_for_function("() => window.chkobbaApp.sound.log.filter((n) => n === 'timer').length >= 2",
                           timeout=30_000)
