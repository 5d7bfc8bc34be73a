"""learn.html: every tutorial step is solved by its right move and refuses a
wrong one with a reason (by clicks); progress is kept across a reload and
the page works without storage; each step is an embed link."""

from __future__ import annotations

from typing import Any

from chkobba.links import decode
from chkobba.links.lessons import load_all
from e2e_driver import shot
from embed_util import point

ROOT = ".learn-table"
LESSONS = load_all()
STEPS = [(lesson, step) for lesson in LESSONS for step in lesson.steps]


def open_learn(page: Any, hash_: str = "") -> None:
    page.goto(page.base_url + "learn.html" + hash_)
    page.wait_for_selector("body[data-state=ready]", timeout=180_000)


def play(page: Any, game: str, action: str) -> None:
    if game == "chkobba":
        point(page, ROOT, action)
    elif action in ("pass", "double", "triple"):
        page.click(f'{ROOT} .choices [data-action="{action}"]')
    else:
        page.click(f'{ROOT} .hand-you .card[data-card="{action}"]')


def clickable(page: Any, game: str, action: str) -> bool:
    if game == "chkobba":
        return True
    if action in ("pass", "double", "triple"):
        return page.locator(f'{ROOT} .choices [data-action="{action}"]').count() > 0
    return page.locator(f'{ROOT} .hand-you .card[data-card="{action}"]').count() > 0


def test_every_step_refuses_a_wrong_move_and_takes_the_right_one(make_page: Any) -> None:
    page = make_page(viewport={"width": 640, "height": 900})
    open_learn(page)
    for n, (lesson, step) in enumerate(STEPS):
        page.wait_for_selector(f"body[data-lesson='{lesson.id}'][data-step='{step.id}']")
        assert page.inner_text(".learn-step-text") == step.text.text
        # the step's own embed link is the step as a puzzle
        href = page.get_attribute(".learn-embed-link", "href")
        assert decode(href.split("#", 1)[1]) == step.link()
        wrongs = [w["move"] for w in step.wrong if clickable(page, lesson.game, w["move"])]
        hand: list[str] = []
        if not wrongs:
            # the Seven Diamonds table offers only the legal calls: another
            # call, else a card of the hand that is not the step's move
            hand = page.eval_on_selector_all(f"{ROOT} .hand-you .card", "els => els.map(e => e.dataset.card)")
            wrongs = [w for w in ("pass", "double", "triple") if w not in step.moves and clickable(page, lesson.game, w)]
            wrongs += [c for c in hand if c not in step.moves]
        if wrongs:
            play(page, lesson.game, wrongs[0])
            page.wait_for_selector("body[data-verdict=wrong]")
            text = page.inner_text(".learn-verdict")
            assert text.startswith("\u2717 Not this one: ") and len(text) > 25, (step.id, text)
            assert "Hint: " + step.hint.text in text, (step.id, text)
            if n in (0, len(STEPS) - 1):
                shot(page, f"learn-{lesson.id}-{step.id}-wrong-640")
        else:
            # the table offers nothing but the step's move (a last card):
            # no wrong move can be made there
            assert lesson.game == "seven_diamonds" and hand == list(step.moves), (step.id, hand)
            assert page.locator(f"{ROOT} .choices button").count() == 0
            # the lesson's own wrong move, asked of the engine, is still refused with a reason
            v = page.evaluate("(a) => JSON.parse(chkobbaPy('lesson_judge', JSON.stringify(a))).ok",
                              {"lesson": lesson.id, "step": step.id, "move": step.wrong[0]["move"]})
            assert v["right"] is False and len(v["text"]) > 10, v
        if lesson.game == "chkobba":
            page.click(f'{ROOT} .controls [data-act="clear"]', force=True) if page.is_enabled(f'{ROOT} .controls [data-act="clear"]') else None
        play(page, lesson.game, step.moves[0])
        page.wait_for_selector("body[data-verdict=right]")
        assert page.inner_text(".learn-verdict").startswith("\u2713 Well played")
        if n < len(STEPS) - 1:
            page.click("#learn-on")
    assert page.evaluate("() => window.chkobbaLearn.done.size") == len(STEPS)
    # progress is kept: a reload comes back to the last step, every step done
    page.reload()
    page.wait_for_selector("body[data-state=ready]", timeout=180_000)
    assert page.evaluate("() => window.chkobbaLearn.done.size") == len(STEPS)
    last_lesson, last_step = STEPS[-1]
    assert page.get_attribute("body", "data-step") == last_step.id


def test_tutorial_works_without_storage_and_screenshots(make_page: Any) -> None:
    page = make_page(viewport={"width": 360, "height": 640})
    page.add_init_script("""Object.defineProperty(window, 'localStorage', {
        get() { throw new DOMException('The operation is insecure.', 'SecurityError'); }});""")
    open_learn(page)
    lesson, step = STEPS[0]
    shot(page, "learn-step-360")
    play(page, lesson.game, step.moves[0])
    page.wait_for_selector("body[data-verdict=right]")
    shot(page, "learn-step-right-360")
    page.click("#learn-on")
    page.wait_for_selector(f"body[data-step='{STEPS[1][1].id}']")
    # a Seven Diamonds step, opened by its address
    sd_lesson, sd_step = next((l, s) for l, s in STEPS if l.game == "seven_diamonds")
    open_learn(page, f"#{sd_lesson.id}/{sd_step.id}")
    page.wait_for_selector(f"body[data-step='{sd_step.id}']")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    shot(page, "learn-seven-diamonds-360")


def test_a_seven_diamonds_step_as_an_embed(make_page: Any) -> None:
    from chkobba.links import encode
    lesson, step = next((l, s) for l, s in STEPS if l.game == "seven_diamonds")
    page = make_page(viewport={"width": 360, "height": 640})
    page.goto(page.base_url + "embed.html#" + encode(step.link()))
    page.wait_for_selector("body[data-state=ready]", timeout=180_000)
    # the Seven Diamonds table renderer, as on the main table; no card marked
    assert page.locator(".embed-table .ck-seven .sd-rows").count() == 1
    assert page.locator(".embed-table .hand-you.mark-playable").count() == 0
    assert page.inner_text(".embed-table .turn") == "Puzzle: find the best move for your hand"
    if step.moves[0] in ("pass", "double", "triple"):
        page.click(f'.embed-table .choices [data-action="{step.moves[0]}"]')
    else:
        page.click(f'.embed-table .hand-you .card[data-card="{step.moves[0]}"]')
    page.wait_for_selector("body[data-verdict]", state="attached")
    assert page.get_attribute("body", "data-verdict") in ("right", "wrong")
    shot(page, "embed-seven-diamonds-puzzle-360")


def test_tutorial_step_screenshots(make_page: Any) -> None:
    """Steps of both games at 360 and 1280 px wide: nothing scrolls
    sideways, the step's sentence and tools fit."""
    chosen = [STEPS[0], next(x for x in STEPS if x[0].id != STEPS[0][0].id and x[0].game == "chkobba")]
    sd = [x for x in STEPS if x[0].game == "seven_diamonds"]
    chosen += [sd[0], next(x for x in sd if x[1].session().view(x[1].seat)["phase"] == "calls")]
    page = make_page(viewport={"width": 360, "height": 640})
    open_learn(page)
    for lesson, step in chosen:
        page.evaluate("(h) => { location.hash = h; }", f"{lesson.id}/{step.id}")
        page.wait_for_selector(f"body[data-lesson='{lesson.id}'][data-step='{step.id}']")
        for width, height in ((360, 640), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function("(w) => document.documentElement.clientWidth === w", arg=width)
            overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, (step.id, width, overflow)
            for sel in (".learn-step-text", ".learn-tools", f"{ROOT} .turn"):
                box = page.locator(sel).first.bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (sel, step.id, width, box)
            shot(page, f"learn-{lesson.id}-{step.id}-{width}")
