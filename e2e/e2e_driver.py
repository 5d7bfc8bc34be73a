"""Drive the table like a player: clicks on cards and buttons only.

The test side decides *what* to play with the engine in CPython (from the
saved record); the page is then told only by pointing and clicking.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chkobba.records import replay as replay_record
from chkobba.records import summary
from chkobba.session import Session

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
PHONE = {"width": 360, "height": 640}
NARROW = {"width": 320, "height": 640}
DESKTOP = {"width": 1280, "height": 800}

# The table component is mounted in #table; inside it, parts are found by class.
T = "#table"
HAND = f"{T} .hand-you"
TABLE_CARDS = f"{T} .table-cards"
CHOICES = f"{T} .choices"
MESSAGE = f"{T} .message"
SCORELINE = f"{T} .scoreline"
TURN = f"{T} .turn"
LOG = f"{T} .log"


def btn(act: str) -> str:
    """The Take / Lay / Claim / Clear button of the table."""
    return f'{T} .controls [data-act="{act}"]'


def pile(side: int) -> str:
    return f'{T} .pile[data-side="{side}"]'


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def saved(page: Any) -> dict[str, Any]:
    # a move's save is written in the task after its drawing (web/shell/saves.js): write any waiting one first
    raw = page.evaluate("() => { window.chkobbaApp.saveNow(); return localStorage.getItem('chkobba.save.v1'); }")
    assert raw, "no saved game in localStorage"
    return dict(json.loads(raw))

SETTLED = """() => {
  const a = window.chkobbaApp, s = a && a.state;
  if (!s) return false;
  if (document.getElementById('summary').open) return 'summary';
  if (a.busy || a.paused) return false;   // a computer move, or the end of a round showing
  if (s.to_act === 0) return 'you';
  if (s.to_act === null) return 'over';
  return false;
}"""


def open_table(page: Any, query: str = "") -> None:
    page.goto(page.base_url + query)
    page.wait_for_selector("html.ready")


def start_game(page: Any, players: int = 2, levels: tuple[str, ...] = ("easy",), **options: Any) -> None:
    """Fill the start screen and deal (instant pace)."""
    page.select_option("#pace", "instant")
    if not page.evaluate("() => document.getElementById('start').open"):
        page.click("#new-game")
    page.check(f'#start-form input[name="players"][value="{players}"]')
    for i, level in enumerate(levels, start=1):
        page.select_option(f'#start-form select[name="level-{i}"]', level)
    for name, value in options.items():
        sel = f'#start-form [name="{name}"]'
        if isinstance(value, bool):
            page.set_checked(sel, value)
        else:
            page.select_option(sel, str(value))
    page.click("#start-button")
    if page.evaluate("() => document.getElementById('confirm').open"):
        page.click("#confirm-yes")
    page.wait_for_function(STARTED)


STARTED = """() => !document.getElementById('start').open && !document.getElementById('confirm').open
  && window.chkobbaApp.state"""


def settle(page: Any) -> str:
    """Wait until the human must act, a summary is shown, or the match ended."""
    handle = page.wait_for_function(SETTLED, timeout=60_000)
    return str(handle.json_value())


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.chkobbaApp.state")


def session_of(save: dict[str, Any]) -> Session:
    return Session.from_record(save["record"], seed=save.get("seed"))


def pick_action(save: dict[str, Any]) -> str:
    """A plain, deterministic choice for the human seat: the first capture
    that takes the most cards, else the first lay; words: play on."""
    legal = session_of(save).legal()
    for word in ("pass", "refuse", "keep"):
        if word in legal:
            return word
    captures = [a for a in legal if "x" in a and not a.startswith("claim")]
    if captures:
        return max(captures, key=len)
    lays = [a for a in legal if len(a) == 2]
    return lays[0] if lays else legal[0]


def point_and_play(page: Any, action: str) -> None:
    """Play ``action`` by clicks: words by their button; cards by picking the
    hand card, then the table cards, then Take / Lay / Claim."""
    before = len(state(page)["save"]["record"]["rounds"][-1]["actions"]) if state(page) else 0
    n_rounds = len(state(page)["save"]["record"]["rounds"])
    if action in ("keep", "table", "propose", "pass", "accept", "refuse"):
        page.click(f'{CHOICES} button[data-action="{action}"]')
    elif action.startswith("claim "):
        card, take = action[6:].split("x")
        for code in [card] + [take[i:i + 2] for i in range(0, len(take), 2)]:
            page.click(f'{TABLE_CARDS} .card[data-card="{code}"]')
        page.click(btn("claim"))
    elif "x" in action:
        card, take = action.split("x")
        page.click(f'{HAND} .card[data-card="{card}"]')
        for code in [take[i:i + 2] for i in range(0, len(take), 2)]:
            page.click(f'{TABLE_CARDS} .card[data-card="{code}"]')
            # a tap that leaves one legal capture takes it at once (the quicker capture, web/table/input.js)
            if page.evaluate(PLAYED, [n_rounds, before]):
                break
        else:
            page.click(btn("take"))
    else:
        page.click(f'{HAND} .card[data-card="{action}"]')
        page.click(btn("lay"))
    # the action is in the record (or a new round started)
    page.wait_for_function(PLAYED, arg=[n_rounds, before])


PLAYED = """([n, before]) => { const r = window.chkobbaApp.state.save.record.rounds;
  return r.length > n || r[r.length - 1].actions.length > before; }"""


def play_until_summary(page: Any, max_turns: int = 80) -> dict[str, Any]:
    """Play the human seat by clicks until the round summary shows."""
    for _ in range(max_turns):
        where = settle(page)
        if where == "summary":
            return state(page)
        assert where == "you", where
        point_and_play(page, pick_action(state(page)["save"]))
    raise AssertionError("the round did not end")


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """The engine's replay output of a record: what ``python -m chkobba replay``
    prints (tests/test_records.py checks the command prints exactly this),
    computed here without starting a process."""
    return dict(json.loads(json.dumps(summary(replay_record(record)))))


def load_save(page: Any, save: dict[str, Any]) -> None:
    """Put a save into localStorage and reload, as a returning player would."""
    page.evaluate("(s) => localStorage.setItem('chkobba.save.v1', s)", json.dumps(save))
    page.reload()
    page.wait_for_selector("html.ready")
