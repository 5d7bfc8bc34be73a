"""The table played with the keyboard only: Tab, Enter, Space and the
documented shortcuts (T take, L lay, C claim, Esc clear)."""

from __future__ import annotations

from typing import Any

from a11y_util import catalog
from e2e_driver import CHOICES, DESKTOP, HAND, TABLE_CARDS, btn, saved, settle, shot, state

from chkobba.session import Session

WORDS = ("keep", "table", "propose", "pass", "accept", "refuse")
ENGLISH = catalog("en")


def card_name(code: str) -> str:
    """The card's name as the English catalog says it ("seven of diamonds")."""
    return str(ENGLISH["card.name"]).format(rank=ENGLISH[f"card.rank.{code[0]}"], suit=ENGLISH[f"card.suit.{code[1]}"])


def focused(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("""() => { const a = document.activeElement;
        return {id: a.id, card: a.dataset.card || null, action: a.dataset.action || null,
                where: a.closest('#table .hand-you') ? 'hand' : a.closest('#table .table-cards') ? 'table'
                     : a.closest('#table .controls') ? 'controls' : a.tagName.toLowerCase()}; }"""))


def tab_to(page: Any, selector: str, max_tabs: int = 40) -> None:
    """Press Tab until the element matching ``selector`` has focus."""
    for _ in range(max_tabs):
        if page.evaluate("(sel) => document.activeElement.matches(sel)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}; focus is on {focused(page)}")


def record_length(page: Any) -> tuple[int, int]:
    rounds = saved(page)["record"]["rounds"]
    return len(rounds), len(rounds[-1]["actions"])


def wait_played(page: Any, before: tuple[int, int]) -> None:
    page.wait_for_function(
        """([n, k]) => { const r = window.chkobbaApp.state.save.record.rounds;
             return r.length > n || r[r.length - 1].actions.length > k; }""", arg=list(before))


def check_cards_named(page: Any) -> None:
    for el in page.locator(f"{HAND} .card, {TABLE_CARDS} button.card").all():
        assert el.get_attribute("aria-label") == card_name(el.get_attribute("data-card"))


def ring(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("""() => { const a = document.activeElement, s = getComputedStyle(a);
        return {visible: a.matches(':focus-visible'), style: s.outlineStyle, width: parseFloat(s.outlineWidth)}; }"""))


def test_keyboard_only_turns_with_a_capture_and_a_lay(make_page: Any) -> None:
    page = make_page(DESKTOP)
    page.goto(page.base_url + "?seed=11")
    page.evaluate("() => localStorage.setItem('chkobba.pace', 'instant')")
    page.reload()
    page.wait_for_selector("html.ready")
    # No save: the start screen is up with its Deal button focused.
    assert focused(page)["id"] == "start-button"
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('start').open && window.chkobbaApp.state")

    played: dict[str, str] = {}   # "capture"/"lay" -> action text
    turns = 0
    checked_order = False
    while turns < 12 and not (len(played) == 2 and turns >= 3):
        assert settle(page) == "you"
        save = saved(page)
        session = Session.from_record(save["record"], seed=save.get("seed"))
        legal = session.legal()
        before = record_length(page)
        word = next((w for w in ("keep", "pass", "refuse") if w in legal), None)
        if word:
            # Decisions are buttons; focus lands on the first one by itself.
            tab_to(page, f'{CHOICES} button[data-action="{word}"]')
            page.keyboard.press("Enter")
            wait_played(page, before)
            continue
        captures = [a for a in legal if "x" in a and not a.startswith("claim")]
        lays = [a for a in legal if len(a) == 2]
        if captures and ("capture" not in played or not lays):
            kind, action = "capture", max(captures, key=len)
        else:
            kind, action = "lay", lays[0]
        check_cards_named(page)
        if not checked_order:
            # Tab order: your cards, then the table's, then the move buttons.
            page.locator(f"{HAND} .card").first.focus()
            seen = [focused(page)["where"]]
            for _ in range(len(state(page)["view"]["hand"]) + len(state(page)["view"]["table"])):
                page.keyboard.press("Tab")
                seen.append(focused(page)["where"])
            n_hand, n_table = len(state(page)["view"]["hand"]), len(state(page)["view"]["table"])
            # (Take / Lay stay disabled until a card is picked, so Tab leaves the table.)
            assert seen[:-1] == ["hand"] * n_hand + ["table"] * n_table, seen
            assert seen[-1] not in ("hand", "table"), seen
            checked_order = True
        card = action.split("x")[0]
        tab_to(page, f'{HAND} .card[data-card="{card}"]')
        # The focus ring is visible on the focused card.
        shown = ring(page)
        assert shown["visible"] and shown["style"] == "solid" and shown["width"] >= 2, shown
        page.keyboard.press("Space")
        assert page.get_attribute(f'{HAND} .card[data-card="{card}"]', "aria-pressed") == "true"
        # Picking re-renders the hand (the table lets its focus go while it
        # draws): focus stays on the picked card, the same element, its ring shown.
        assert focused(page)["card"] == card
        assert ring(page)["visible"], ring(page)
        if kind == "capture":
            for i in range(0, len(action.split("x")[1]), 2):
                code = action.split("x")[1][i:i + 2]
                tab_to(page, f'{TABLE_CARDS} .card[data-card="{code}"]')
                page.keyboard.press("Enter")
                assert page.get_attribute(f'{TABLE_CARDS} .card[data-card="{code}"]', "aria-pressed") == "true"
            if turns == 0:
                shot(page, "keyboard-desktop")
            page.keyboard.press("t")
        else:
            tab_to(page, btn("lay"))
            page.keyboard.press("Enter")
        wait_played(page, before)
        record = saved(page)["record"]
        assert record["rounds"][before[0] - 1]["actions"][before[1]] == action
        played.setdefault(kind, action)
        turns += 1
        if settle(page) == "you":
            # Back to you: keyboard focus came back to your hand by itself.
            page.wait_for_function("() => !!document.activeElement.closest('#table .hand-you, #table .choices')")
    assert set(played) == {"capture", "lay"}, played
    actions = saved(page)["record"]["rounds"][0]["actions"]
    assert played["capture"] in actions and played["lay"] in actions
