"""Helpers of the end-to-end tests that play through the real online pages
(web/online.html): the host's set-up, the invitation exchange as the players
make it, a driver that plays random legal moves from every page until each
friend's phone has audited the round, and the check that a friend's page was
never sent another seat's hidden card. Used by e2e/test_online_play.py (one
friend) and e2e/test_online_friends.py (two and three friends)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from e2e_driver import PHONE
from hidden_cards import view_leak   # tests/hidden_cards.py


def check_received(raw: list[str], record: str, seat: int) -> int:
    """Every message the friend's page got: no card of another seat's hand
    at that position (rounds already over, and the cards that fit the table
    in Seven Diamonds, as the rules show them, aside: the same reading as
    tests/test_online.py's check of the Python host's stream)."""
    checked = 0
    for text in raw:
        msg = json.loads(text)
        if msg["type"] != "view":
            continue
        leak = view_leak(msg, record, seat)
        assert not leak, f"seat {seat} was shown {leak} at {(msg['round'], msg['ply'])}"
        checked += 1
    return checked


def open_host(make_page: Any, table: str = "chkobba-2", lang: str | None = None,
              viewport: dict[str, int] | None = None) -> Any:
    host = make_page(viewport or PHONE)
    host.goto(host.base_url + "online.html" + (f"?lang={lang}" if lang else ""))
    host.wait_for_selector("html.ready", state="attached")
    # the computer's seats play at once: the set-up's pace, the table page's own setting (chkobba.pace)
    assert host.locator("select[name=pace]").input_value() == "normal"
    host.select_option("select[name=pace]", "instant")
    assert host.evaluate("() => localStorage.getItem('chkobba.pace')") == "instant"
    host.check(f"input[name=table][value={table}]")
    assert host.locator("#setup .trust").inner_text().strip()
    return host


def invite_link(host: Any, seat: int) -> str:
    card = host.locator(f".invite-card[data-seat='{seat}'][data-state=inviting]")
    card.wait_for()
    link: str = card.get_attribute("data-link")
    assert host.locator(f".invite-card[data-seat='{seat}'] .invite-qr svg").count() == 1
    return link


def open_invite(friend: Any, link: str, lang: str | None = None) -> None:
    """The friend's phone opens the invitation link (a tab that showed an
    older one is first taken off it, so nothing of the old page is read)."""
    if "online.html" in friend.url:
        friend.goto("about:blank")
    friend.goto(link.replace("online.html#", f"online.html?lang={lang}#") if lang else link)


def answer_link(friend: Any) -> str:
    friend.wait_for_selector("#join[data-link]", state="attached")
    assert friend.locator("#join .invite-qr svg").count() == 1
    answer: str = friend.locator("#join").get_attribute("data-link")
    assert "#answer=" in answer
    return answer


def answer_of(friend: Any, link: str, lang: str | None = None) -> str:
    open_invite(friend, link, lang)
    return answer_link(friend)


def give_answer(host: Any, seat: int, answer: str, via: str = "paste") -> None:
    """The friend's answer reaches the host: pasted under the seat, or its
    link opened on the host's own phone (``via="link"``)."""
    if via == "link":
        tab = host.context.new_page()
        tab.on("console", host.watch.on_console)
        tab.goto(answer)
        tab.wait_for_function("() => document.querySelector('#relay .relay-text').textContent === "
                              "document.querySelector('#relay .relay-text').dataset.done")
        tab.close()
    else:
        host.fill(f".invite-card[data-seat='{seat}'] .answer-input", answer)
        host.click(f".invite-card[data-seat='{seat}'] .answer-use")


SEATED = "() => window.chkobbaOnline.received.some((m) => JSON.parse(m).type === 'welcome')"
DRAWN = "() => window.chkobbaOnline.friend && window.chkobbaOnline.timing.view"


def give_name(friend: Any, name: str | None) -> None:
    """The friend types its name on the join screen (kept on its phone, sent with its join)."""
    if name is not None:
        friend.fill("#friend-name", name)
        assert friend.evaluate("() => localStorage.getItem('chkobba.online.name')") == (name or None)


def connect(host: Any, friend: Any, seat: int, via: str = "paste", lang: str | None = None,
            name: str | None = None) -> float:
    """The invitation exchange, as the two players make it (the answer pasted
    under the seat, or its link opened on the host's phone: ``via="link"``;
    ``name``: the friend's, typed first); the seconds from opening the
    invitation to sitting down (the friend's table drawn)."""
    link = invite_link(host, seat)
    t0 = time.perf_counter()
    answer = answer_of(friend, link, lang)
    give_name(friend, name)
    give_answer(host, seat, answer, via)
    friend.wait_for_function(DRAWN, timeout=120_000)
    return time.perf_counter() - t0


def connect_all(host: Any, friends: dict[int, Any], drawn: bool = False,
                langs: dict[int, str] | None = None, names: dict[int, str] | None = None) -> dict[int, float]:
    """Every friend opens its invitation at once (as friends in one room do),
    then the host takes each answer; the seconds from opening the invitation
    to sitting down (the host's welcome; ``drawn``: its first view drawn,
    which needs every friend's seat taken before the first deal). ``names``:
    what each friend types as its name before its answer is used."""
    links = {seat: invite_link(host, seat) for seat in friends}
    opened = {}
    for seat, friend in friends.items():
        opened[seat] = time.perf_counter()
        open_invite(friend, links[seat], (langs or {}).get(seat))
    for seat, friend in friends.items():
        answer = answer_link(friend)
        give_name(friend, (names or {}).get(seat))
        give_answer(host, seat, answer)
    seconds = {}
    for seat, friend in friends.items():
        try:
            friend.wait_for_function(DRAWN if drawn else SEATED, timeout=180_000)   # Pythons starting at once
        except Exception:
            raise AssertionError(json.dumps({
                "host": host.evaluate("""() => [window.chkobbaOnline.events, [...document.querySelectorAll('.invite-card')]
                    .map((c) => [c.dataset.seat, c.dataset.state, c.querySelector('.invite-state').textContent])]"""),
                "friends": {str(k): p.evaluate("""() => [window.chkobbaOnline.events, document.getElementById('online-status')
                    .textContent, window.chkobbaOnline.received.slice(-3)]""") for k, p in friends.items()}})[:6000]) from None
        seconds[seat] = time.perf_counter() - opened[seat]
    return seconds


HOST_STATE = """() => { const t = window.chkobbaOnline.table;
  return t ? { pos: t.position, seat: t.seat, toAct: t.answer ? t.answer.to_act : null, legal: t.legal,
               over: t.over } : null; }"""


def host_position(host: Any) -> tuple[int, int]:
    st = host.evaluate(HOST_STATE)
    return (0, 0) if st is None else (st["pos"][0], st["pos"][1])


def audited(page: Any, rounds: int) -> bool:
    return rounds in (page.evaluate("() => (window.chkobbaOnline.friend || {}).audited") or [])


def _friend_move(page: Any, pos: list[int], rng: random.Random) -> None:
    """The friend at the seat to act plays a random legal move through its
    page's own act (the table's path), once its page has the position; a
    move the host refused (this bot is faster than the host's rate limit) is
    tried again after the friend's next heartbeat."""
    page.wait_for_function("""(p) => { const f = window.chkobbaOnline.friend;
        return f && f.position[0] === p[0] && f.position[1] === p[1] && f.legal.length > 0; }""", arg=pos,
                           timeout=60_000)
    for _ in range(20):
        r0, k = page.evaluate("() => [window.chkobbaOnline.refusals, window.chkobbaOnline.received.length]")
        page.evaluate("(a) => window.chkobbaOnline.act(a)", rng.choice(page.evaluate("() => window.chkobbaOnline.legal()")))
        page.wait_for_function("""([r0, k]) => window.chkobbaOnline.refusals > r0 ||
            window.chkobbaOnline.received.slice(k).some((m) => JSON.parse(m).type === 'move')""", arg=[r0, k],
                               timeout=60_000)
        if page.evaluate("(r0) => window.chkobbaOnline.refusals === r0", r0):
            return
        k = page.evaluate("() => window.chkobbaOnline.received.length")
        page.wait_for_function("(k) => window.chkobbaOnline.received.slice(k).some((m) => m.includes('heartbeat'))",
                               arg=k, timeout=60_000)
    raise AssertionError("the host refused the friend's move 20 times")


def play_until_audited(host: Any, friends: dict[int, Any], rounds: int = 1, seed: int = 0,
                       stop: Callable[[], bool] | None = None, until: Callable[[], bool] | None = None) -> None:
    """Random legal moves through each page's own act, from the page of the
    seat the host's table says is to act, until every friend's phone has
    audited `rounds` rounds (or ``stop()`` says to stop: mid-round), or, with
    ``until``, until ``until()`` alone says so (across rounds: a whole match)."""
    rng = random.Random(seed)
    if until is not None:
        stop, rounds = until, 10**6
    for _ in range(6000):
        watcher = next(iter(friends.values()))
        # what a friend's page has received so far, before looking at anyone's turn (no message can slip by)
        n = watcher.evaluate("() => window.chkobbaOnline.received.length")
        if stop is not None and stop():
            return
        if all(audited(p, rounds) for p in friends.values()):
            return
        st = host.evaluate(HOST_STATE)
        if st is not None and st["over"]:
            for page in friends.values():
                page.wait_for_function("(n) => ((window.chkobbaOnline.friend || {}).audited || []).includes(n)",
                                       arg=rounds, timeout=60_000)
            return
        to_act = None if st is None else st["toAct"]
        if st is not None and to_act == st["seat"] and st["legal"]:
            host.evaluate("(a) => window.chkobbaOnline.act(a)", rng.choice(st["legal"]))
            continue
        if st is not None and to_act in friends:
            _friend_move(friends[to_act], st["pos"], rng)
            continue
        # a computer's turn, the seeds on their way, a deal: the host sends every friend what comes next
        try:
            watcher.wait_for_function(
                "(n) => window.chkobbaOnline.received.slice(n).some((m) => !m.includes('heartbeat'))", arg=n,
                timeout=60_000)
        except Exception:
            raise AssertionError(json.dumps({
                "host": st,
                "friends": {str(k): p.evaluate("() => [window.chkobbaOnline.friend, window.chkobbaOnline.received.slice(-4)]")
                            for k, p in friends.items()}})[:6000]) from None
    raise AssertionError("the round did not end")
