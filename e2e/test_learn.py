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
    if game == "chkobba" or action in ("pass", "double", "triple"):
        return True
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
        if not wrongs:
            wrongs = [w for w in ("pass", "double") if w not in step.moves]
        play(page, lesson.game, wrongs[0])
        page.wait_for_selector("body[data-verdict=wrong]")
        text = page.inner_text(".learn-verdict")
        assert text.startswith("\u2717 Not this one: ") and len(text) > 25, (step.id, text)
        assert "Hint: " + step.hint.text in text, (step.id, text)
        if n in (0, len(STEPS) - 1):
            shot(page, f"learn-{lesson.id}-{step.id}-wrong-640")
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
    page.context.add_init_script("""Object.defineProperty(window, 'localStorage', {
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
    page.click(f'.embed-table .sd-hand .card[data-card="{step.moves[0]}"]')
    page.wait_for_selector("body[data-verdict]", state="attached")
    assert page.get_attribute("body", "data-verdict") in ("right", "wrong")
    shot(page, "embed-seven-diamonds-puzzle-360")
