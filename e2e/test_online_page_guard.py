"""A hostile friend and a cheating host against the real online pages
(web/online.html): a flood of refused messages costs the host's page no save
and no redraw and leaves the honest friend seated; an invitation link edited
to another seat takes no seat and the invited card stays; a friend on a
fresh browser gets its seat back from the host's new invitation; a host page
modified to leave its own commitment out gets no seed from the friend, whose
page says so in a banner at the table (in French here) with the way out, and
the host's page says which phone's audit failed; and when the computer takes
a friend's seat the other phones say so. Every wait is on the pages' own
markers (the fixtures fail a test on any console error or warning)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from e2e_driver import PHONE
from online_helpers import (DRAWN, SEATED, answer_link, answer_of, connect, give_answer, host_position, invite_link,
                            open_host, open_invite, play_until_audited)

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SMALL = {"width": 320, "height": 568}
HERE = ("#presence [data-seat='{0}'][data-state='here'], #presence [data-seat='{0}'][data-state='thinking']")


def host_with(make_page: Any, table: str, seats: dict[int, str], page: Any = None) -> Any:
    host = open_host(make_page, table) if page is None else page
    for seat, kind in seats.items():
        host.select_option(f"select[name=seat{seat}]", kind)
    host.select_option("select[name=timer]", "off")
    host.click("#host-button")
    return host


def received_code(page: Any, code: str) -> str:
    return f"() => window.chkobbaOnline.received.some((m) => m.includes('\"{code}\"'))"


def test_online_a_flood_costs_the_host_no_save_and_the_friend_stays_seated(make_page: Any) -> None:
    host = host_with(make_page, "chkobba-2", {})
    friend = make_page(PHONE)
    connect(host, friend, 1)
    host.wait_for_selector(HERE.format(1))
    # the host's page: its long tasks from now on (Chromium's longtask entries)
    host.evaluate("""() => { window.longTasks = [];
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push(e.duration); })
          .observe({ entryTypes: ['longtask'] }); }""")
    saves, draws, got = host.evaluate("() => [window.chkobbaOnline.saves, window.chkobbaOnline.draws, "
                                      "window.chkobbaOnline.got]")
    n = 5000
    # the friend's page sends 5,000 messages at once, refused ones and ones no allowance lets through
    friend.evaluate("""(n) => { const p = window.chkobbaOnline.friendPeer();
        for (let i = 0; i < n; i += 1) p.send(i % 3 ? '{}' : '[1]'); }""", n)
    host.wait_for_function("(k) => window.chkobbaOnline.got >= k", arg=got + n, timeout=120_000)
    saves2, draws2 = host.evaluate("() => [window.chkobbaOnline.saves, window.chkobbaOnline.draws]")
    assert saves2 - saves <= 2 and draws2 - draws <= 2, (saves2 - saves, draws2 - draws)
    long_tasks = host.evaluate("() => window.longTasks")
    print(f"\nonline flood: {n} messages, {saves2 - saves} saves and {draws2 - draws} draws on the host's page; "
          f"its long tasks meanwhile: {len(long_tasks)}, longest {max(long_tasks, default=0):.0f} ms")
    # the honest friend is still seated and still plays
    host.wait_for_selector(HERE.format(1))
    assert not friend.evaluate(received_code(friend, "online.seat_taken"))
    start = host_position(host)
    play_until_audited(host, {1: friend}, seed=3, stop=lambda: host_position(host) >= (start[0], start[1] + 4))
    host.wait_for_selector(HERE.format(1))


def test_online_an_edited_invitation_takes_no_seat_and_the_invited_card_stays(make_page: Any) -> None:
    host = host_with(make_page, "chkobba-4", {1: "friend", 2: "friend", 3: "easy"})
    link1, link2 = invite_link(host, 1), invite_link(host, 2)
    assert "&seat=1&" in link1
    cheat = make_page(PHONE)
    give_answer(host, 1, answer_of(cheat, link1.replace("&seat=1&", "&seat=2&")))
    cheat.wait_for_function(received_code(cheat, "online.wrong_seat"), timeout=120_000)
    cheat.wait_for_function("() => document.getElementById('online-status').textContent.includes('another seat')")
    assert not cheat.evaluate(SEATED)
    # the invited card of seat 2 is still there, its invitation unchanged; nobody sits at seat 2
    card2 = host.locator(".invite-card[data-seat='2']")
    assert card2.get_attribute("data-state") == "inviting" and card2.is_visible()
    assert card2.get_attribute("data-link") == link2
    assert host.evaluate("() => window.chkobbaOnline.table.presence.find((p) => p.seat === 2).present") is False
    # the friend invited to seat 2 takes it
    invited = make_page(PHONE)
    give_answer(host, 2, answer_of(invited, link2))
    invited.wait_for_function(SEATED, timeout=120_000)
    assert host.evaluate("() => window.chkobbaOnline.table.presence.find((p) => p.seat === 2).present") is True


def test_online_a_friend_on_a_fresh_browser_gets_its_seat_back_from_a_new_invitation(make_page: Any) -> None:
    host = host_with(make_page, "chkobba-2", {})
    friend = make_page(PHONE)
    connect(host, friend, 1)
    host.wait_for_selector(HERE.format(1))
    friend.close()   # that phone's storage (its secret) is gone with it
    host.wait_for_selector("#presence [data-seat='1'][data-state='gone']")
    fresh = make_page(PHONE)   # another browser: no secret of this table
    give_answer(host, 1, answer_of(fresh, invite_link(host, 1)))
    fresh.wait_for_function(received_code(fresh, "online.seat_taken"), timeout=120_000)
    # the friend's page says what it waits for and what to do
    fresh.wait_for_function("() => document.getElementById('online-status').textContent.includes('New invitation for this seat')")
    button = host.locator(".invite-card[data-seat='1'] .reissue")
    button.wait_for()
    assert button.is_visible()
    host.click(".invite-card[data-seat='1'] .reissue")
    fresh.wait_for_function(DRAWN, timeout=120_000)
    host.wait_for_selector(HERE.format(1))
    assert fresh.evaluate("() => document.getElementById('online-status').hidden")
    start = host_position(host)
    play_until_audited(host, {1: fresh}, seed=5, stop=lambda: host_position(host) >= (start[0], start[1] + 3))


# The host's page, modified: its table leaves its own commitment out of what every phone is shown.
CHEAT = '''from chkobba.online.host import HostTable
_honest_broadcast = HostTable._broadcast

def _broadcast(self, msg):
    if msg.get("type") == "commits":
        msg = dict(msg, commits={k: v for k, v in msg["commits"].items() if k != self.host_seat})
    return _honest_broadcast(self, msg)

HostTable._broadcast = _broadcast
'''


def cheating_host(make_page: Any, cheat_code: str) -> Any:
    """The host's page, its Python's HostTable changed by ``cheat_code`` (run in
    the page's interpreter before the table is made), hosting a 1v1 table."""
    host = make_page(PHONE, fresh=True)
    host.goto(host.base_url + "online.html")
    host.wait_for_selector("html.ready", state="attached")
    host.evaluate("""async (code) => { const py = await import('./shell/py.js');
        await py.startPython(); py.runPython(code); }""", cheat_code)
    host.select_option("select[name=pace]", "instant")
    host.check("input[name=table][value=chkobba-2]")
    return host_with(make_page, "chkobba-2", {}, page=host)


def test_online_a_host_that_hides_its_commitment_is_named_on_every_phone(make_page: Any) -> None:
    host = cheating_host(make_page, CHEAT)
    friend = make_page(SMALL)
    link = invite_link(host, 1)
    open_invite(friend, link, "fr")
    give_answer(host, 1, answer_link(friend))
    friend.wait_for_function(SEATED, timeout=120_000)
    # the friend's phone kept its seed, and says so at the table, in words, with the way out
    banner = friend.locator("#audit-banner")
    banner.wait_for(timeout=60_000)
    assert banner.get_attribute("data-code") == "online.audit_commits"
    text = banner.inner_text()
    assert "NE se vérifie PAS" in text and "engagements" in text, text
    assert not host.evaluate("() => window.chkobbaOnline.received.some((m) => m.type === 'reveal')"), \
        "the friend's phone revealed its seed to a host that had not committed"
    wide = friend.evaluate("""() => [...document.querySelectorAll('body *')].filter((e) => {
        const r = e.getBoundingClientRect(); return r.width && (r.right > innerWidth + 1 || r.left < -1); })
        .map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().left)}-${Math.round(e.getBoundingClientRect().right)}`)""")
    assert not wide, wide
    box = friend.evaluate("() => document.getElementById('audit-banner').getBoundingClientRect().bottom")
    assert box <= SMALL["height"]
    ARTIFACTS.mkdir(exist_ok=True)
    friend.screenshot(path=str(ARTIFACTS / "online-audit-banner-fr-small.png"))
    # the host's page is told which phone's audit failed
    host.wait_for_selector("#audit-line[data-seats='1']")
    assert "seat 2" in host.locator("#audit-line").inner_text()
    # the friend leaves: the host sees it gone
    friend.click("#audit-banner .audit-leave")
    friend.wait_for_function("() => document.getElementById('online-status').textContent.includes('quitté')")
    host.wait_for_selector("#presence [data-seat='1'][data-state='gone']")


def test_online_the_other_phones_are_told_when_the_computer_takes_a_seat_and_gives_it_back(make_page: Any) -> None:
    host = host_with(make_page, "chkobba-4", {1: "friend", 2: "friend", 3: "easy"})
    pages = {1: make_page(PHONE), 2: make_page(PHONE)}
    links = {seat: invite_link(host, seat) for seat in pages}
    for seat, page in pages.items():
        open_invite(page, links[seat])
    for seat, page in pages.items():
        give_answer(host, seat, answer_link(page))
    for page in pages.values():
        page.wait_for_function(DRAWN, timeout=180_000)
    ctx, watch = pages[2].context, pages[2].watch
    pages[2].close()
    t0 = time.perf_counter()
    # after the grace period the computer plays seat 3 (index 2): friend 1's phone says so
    note = "#seat-note[data-kind='computer'][data-seat='2']"
    pages[1].wait_for_selector(note, timeout=90_000)
    assert "computer" in pages[1].locator("#seat-note").inner_text()
    pages[1].wait_for_selector("#presence [data-seat='2'][data-state='computer']")
    print(f"\nonline: the computer took the seat, said on the other phone, {time.perf_counter() - t0:.1f} s after it left")
    # its friend comes back (same phone, new tab): the other phone says so
    again = ctx.new_page()
    again.on("pageerror", lambda e: watch.errors.append(str(e)))
    again.on("console", watch.on_console)
    again.set_default_timeout(60_000)
    give_answer(host, 2, answer_of(again, invite_link(host, 2)))
    again.wait_for_function(SEATED, timeout=120_000)
    pages[1].wait_for_selector("#seat-note[data-kind='back'][data-seat='2']", timeout=60_000)
    assert pages[1].evaluate("() => window.chkobbaOnline.notes").count(["computer", 2]) == 1


# The host's page, modified: once every seed of a round is in, it starts the seeds again, giving no reason.
RESTARTS = '''from chkobba.online.host import HostTable
_honest_maybe_deal = HostTable._maybe_deal
HostTable.restarted = 0

def _maybe_deal(self):
    for number, sd in sorted(self.seeds.items()):
        dealt = self.session is not None and number in self.session.round_seeds
        if sd.ready() and not dealt and self.restarted < 1:
            self.restarted += 1
            return self._request_seeds(number, {"left": [], "late": []})
    return _honest_maybe_deal(self)

HostTable._maybe_deal = _maybe_deal
'''


def test_online_a_host_that_restarts_the_seeds_after_they_are_shown_is_caught(make_page: Any) -> None:
    host = cheating_host(make_page, RESTARTS)
    friend = make_page(PHONE)
    open_invite(friend, invite_link(host, 1))
    give_answer(host, 1, answer_link(friend))
    friend.wait_for_function(SEATED, timeout=120_000)
    # the restart is said on the friend's phone as it happens, with its count and the (missing) reason
    friend.wait_for_selector("#seat-note[data-kind='restart']", state="attached", timeout=60_000)
    note = friend.locator("#seat-note").text_content() or ""
    assert "time 1" in note and "no reason" in note, note
    banner = friend.locator("#audit-banner")
    banner.wait_for(timeout=60_000)
    assert banner.get_attribute("data-code") == "online.audit_restart"
    assert "started again" in banner.inner_text()
    host.wait_for_selector("#audit-line[data-seats='1']")
