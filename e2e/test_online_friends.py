"""Several friends, each on their own phone, through the real pages
(web/online.html; issue 24): a Chkobba 2v2 round with two remote friends and
a computer, and a Seven Diamonds round with four phones in which a friend's
page closes and comes back from the host's new invitation with the secret
its phone kept, and the host's page reloads mid-round and resumes from its
save. Every friend's phone audits the round; every message each friend's
page received is checked for another seat's hidden card. Each phone is its
own browser context; no request leaves the machine (the fixtures check every
request). Timers off, computers at easy: the tests wait on markers only.

The figures of docs/online.md ("Figures", three friends) are what these
tests print with ``-s``; they assert no timing."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from e2e_driver import PHONE
from online_helpers import (DRAWN, answer_of, check_received, connect, connect_all, give_answer, host_position,
                            invite_link, open_host, play_until_audited)

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


SMALL = {"width": 320, "height": 568}
LANDSCAPE = {"width": 640, "height": 360}


def host_table(make_page: Any, table: str, seats: dict[int, str], lang: str | None = None,
               viewport: dict[str, int] | None = None, name: str | None = None, page: Any = None) -> Any:
    """The host's set-up (on ``page``, its set-up open already, or a new one):
    each seat but the host's a friend or the easy computer, the timers off,
    the host's ``name`` typed; hosted."""
    host = page or open_host(make_page, table, lang, viewport)
    for seat, kind in seats.items():
        host.select_option(f"select[name=seat{seat}]", kind)
    host.select_option("select[name=timer]", "off")
    if name is not None:
        host.fill("input[name=player_name]", name)
    host.click("#host-button")
    return host


NAMES = {0: "ليلى", 1: "Wolfgang Amadeus", 2: "سامي"}   # the host's and each friend's (16 characters: the longest)
ISOLATED = "\u2068{}\u2069"   # FSI name PDI: another phone's name reads its own way in either direction


def seat_title(page: Any, seat: int) -> str:
    text: str = page.locator(f"#table .seat[data-seat='{seat}'] .seat-title").inner_text()
    return text


def latencies(pages: list[Any], before: list[float] | None = None) -> str:
    """A friend's move to its seat's next view (sent, refereed by the host's
    engine in its Python, the view back), over these pages' moves."""
    lat = sorted((before or []) + [x for page in pages for x in page.evaluate("() => window.chkobbaOnline.latencies")])
    assert lat, "no friend's move came back as a view"
    return f"{len(lat)} moves: median {lat[len(lat) // 2]:.1f} ms, max {lat[-1]:.1f} ms"


def fits(page: Any, name: str, hand: bool = True) -> None:
    """During play the page has no sideways scroll; the presence line (four
    seats, the long Arabic and French seat names) stays on the screen, no
    seat's words cut, in at most three lines (not one a seat); the player's
    own hand is on the screen (``hand``: not on the host's page while a new
    invitation lies over the table). A screenshot for the eye."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"online-{name}.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), f"{name} scrolls sideways"
    box = page.evaluate("""() => { const ul = document.getElementById('presence'), r = ul.getBoundingClientRect();
        const items = [...ul.children].map((li) => li.getBoundingClientRect());
        const hand = document.querySelector('#table .hand-you').getBoundingClientRect();
        return { left: Math.min(...items.map((b) => b.left)), right: Math.max(...items.map((b) => b.right)),
                 height: r.height, line: Math.min(...items.map((b) => b.height)), width: window.innerWidth,
                 clipped: [...ul.children].some((li) => li.scrollWidth > li.clientWidth + 1),
                 hand: [hand.top, hand.bottom], screen: window.innerHeight }; }""")
    assert box["left"] >= 0 and box["right"] <= box["width"] and not box["clipped"], (name, box)
    assert box["height"] <= 3.5 * box["line"], f"{name}: the presence line takes {box['height']:.0f} px"
    assert not hand or 0 <= box["hand"][0] and box["hand"][1] <= box["screen"] + 1, f"{name}: the hand is off the screen: {box}"


def seated(host: Any, seat: int) -> None:
    host.wait_for_selector(f"#presence [data-seat='{seat}'][data-state='here'], "
                           f"#presence [data-seat='{seat}'][data-state='thinking']")


def test_online_a_2v2_round_with_two_friends_and_the_computer(make_page: Any) -> None:
    t0 = time.perf_counter()
    host = open_host(make_page, "chkobba-4", "ar", SMALL)
    # the set-up says who partners whom: seats 1 and 3 against 2 and 4
    assert [host.locator(f".seat-row:has(select[name=seat{s}])").get_attribute("data-partner") for s in (1, 2, 3)] \
        == ["false", "true", "false"]
    # a name the table would refuse is said so and hosts nothing; nothing is kept
    host.fill("input[name=player_name]", "<img src=x onerror=alert(1)>")
    assert host.locator("#setup .name-note").is_visible()
    host.click("#host-button")
    assert host.locator("#setup").is_visible() and host.evaluate("() => localStorage.getItem('chkobba.online.name')") is None
    host_table(make_page, "chkobba-4", {1: "friend", 2: "friend", 3: "easy"}, name=NAMES[0], page=host)
    # each invitation says whether that friend partners the host
    assert host.locator(".invite-card[data-seat='1']").get_attribute("data-partner") == "false"
    assert host.locator(".invite-card[data-seat='2']").get_attribute("data-partner") == "true"
    assert host.locator(".invite-card[data-seat='2'] h3").inner_text().endswith("شريكك")
    friends = {1: make_page(PHONE), 2: make_page(LANDSCAPE)}
    seconds = connect_all(host, friends, drawn=True, langs={1: "fr", 2: "ar"}, names={1: NAMES[1], 2: NAMES[2]})
    print(f"\nonline 2v2: from opening the invitation to the first view drawn: "
          + ", ".join(f"seat {s + 1} {x:.2f} s" for s, x in seconds.items()))
    for seat in friends:
        seated(host, seat)
    # the computer's seat is said as such, never as a friend
    assert host.locator("#presence [data-seat='3']").inner_text().strip()
    # every phone shows each player's name at its seat, its own seat as "you"; the teams with their names
    for page, me in ((host, 0), (friends[1], 1), (friends[2], 2)):
        for seat in (0, 1, 2):
            if seat != me:
                assert ISOLATED.format(NAMES[seat]) in seat_title(page, seat), (me, seat, seat_title(page, seat))
                name = page.locator(f"#presence [data-seat='{seat}'] .presence-name").text_content()
                assert name == ISOLATED.format(NAMES[seat]), (me, seat, name)
        assert NAMES[me] not in page.locator("#table").inner_text()
    teams = host.locator("#invites .teams-line").text_content()
    assert NAMES[2] in teams and NAMES[1] in teams and teams.index(NAMES[2]) < teams.index(NAMES[1]), teams
    play_until_audited(host, friends, seed=5, stop=lambda: host_position(host) >= (1, 6))
    fits(host, "2v2-host-ar-small")
    fits(friends[1], "2v2-friend-fr-phone")
    fits(friends[2], "2v2-friend-ar-landscape")
    t1 = time.perf_counter()
    play_until_audited(host, friends, seed=5)
    print(f"online 2v2: the round played to its audit in {time.perf_counter() - t1:.1f} s; "
          f"a friend's move to its next view, {latencies(list(friends.values()))}")
    record = host.evaluate("() => window.chkobbaOnline.record()")
    for seat, page in friends.items():
        assert page.evaluate("() => window.chkobbaOnline.friend.failures") == []
        assert page.locator("#audit-line").is_visible()
        assert page.evaluate("() => window.chkobbaOnline.friend.audited")[0] == 1
        assert check_received(page.evaluate("() => window.chkobbaOnline.received"), record, seat) > 5
    print(f"online 2v2: the whole test {time.perf_counter() - t0:.1f} s")


def test_online_a_seven_diamonds_round_with_four_phones_a_drop_and_a_host_reload(make_page: Any) -> None:
    t0 = time.perf_counter()
    host = host_table(make_page, "seven_diamonds", {1: "friend", 2: "friend", 3: "friend"}, "ar")
    friends = {1: make_page(PHONE), 2: make_page(PHONE), 3: make_page(SMALL)}
    langs = {1: "ar", 2: "fr", 3: "ar"}
    seconds = connect_all(host, friends, langs=langs)
    print(f"\nonline 7D: from opening the invitation to sitting down (three friends at once): "
          + ", ".join(f"seat {s + 1} {x:.2f} s" for s, x in seconds.items()))
    for page in friends.values():
        page.wait_for_function("() => window.chkobbaOnline.friend && window.chkobbaOnline.timing.view", timeout=120_000)
    raw: dict[int, list[str]] = {seat: [] for seat in friends}   # every message each friend's phone received

    # some moves, then friend 2's page closes: the host sees it gone and shows a new invitation for that seat
    play_until_audited(host, friends, seed=7, stop=lambda: host_position(host) >= (1, 5))
    assert host_position(host)[0] == 1, "round 1 ended before the drop"
    ctx, watch = friends[2].context, friends[2].watch
    raw[2] += friends[2].evaluate("() => window.chkobbaOnline.received")
    lat: list[float] = friends[2].evaluate("() => window.chkobbaOnline.latencies")
    kept = friends[2].evaluate("() => Object.entries(localStorage).find(([k]) => k.startsWith('chkobba.online.guest.'))")
    assert kept is not None
    t_drop = time.perf_counter()
    friends[2].close()
    host.wait_for_selector("#presence [data-seat='2'][data-state='gone']")
    invite_link(host, 2)
    print(f"online 7D: a closed page seen gone, with a new invitation, after {time.perf_counter() - t_drop:.1f} s")
    for seat, name in ((1, "7d-friend-ar-phone"), (3, "7d-friend-ar-small")):
        friends[seat].wait_for_selector("#presence [data-seat='2'][data-state='gone']")
        fits(friends[seat], name)
    # the host's new invitation lies over the table; hidden, the host's hand is on screen; the bar shows it again
    assert host.locator("#invites.in-play .invite-card[data-seat='2']").is_visible()
    fits(host, "7d-host-ar-phone-invite", hand=False)
    host.click("#invites .invites-close")
    assert not host.locator("#invites").is_visible()
    fits(host, "7d-host-ar-phone-invite-hidden")
    host.click("#invites-toggle")
    assert host.locator("#invites .invite-card[data-seat='2']").is_visible()
    again = ctx.new_page()   # the same phone (its storage, its kept secret), a new tab
    again.on("pageerror", lambda e: watch.errors.append(str(e)))
    again.on("console", watch.on_console)
    again.set_default_timeout(60_000)
    friends[2] = again
    print(f"online 7D: the friend back at its seat in {connect(host, again, 2, lang='fr'):.2f} s")
    seated(host, 2)
    # the same seat, by the secret kept on the friend's phone (another secret would be refused)
    assert not any('"online.seat_taken"' in m for m in again.evaluate("() => window.chkobbaOnline.received"))

    # more moves, then the host's page reloads: it resumes from its save, every friend sits again
    play_until_audited(host, friends, seed=8, stop=lambda: host_position(host) >= (1, 11))
    assert host_position(host)[0] == 1, "round 1 ended before the host's reload"
    for seat, page in friends.items():
        raw[seat] += page.evaluate("() => window.chkobbaOnline.received")
        lat += page.evaluate("() => window.chkobbaOnline.latencies")
    before = host.evaluate("() => window.chkobbaOnline.record()")
    host.reload()
    host.wait_for_selector("#resume:not([hidden])")
    host.click("#resume-go")
    for page in friends.values():
        page.wait_for_selector("#online-status:not([hidden])")   # each friend is told the host's phone is gone
    for seat in friends:
        invite_link(host, seat)   # the resumed table: a new invitation for every friend's seat
    assert host.evaluate("() => window.chkobbaOnline.record()") == before, "nothing played is lost"
    t_back = time.perf_counter()
    seconds = connect_all(host, friends, drawn=True, langs=langs)
    print(f"online 7D: after the host's reload, each friend back at the table (the same tab opening the new "
          f"invitation) in " + ", ".join(f"{x:.2f} s" for x in seconds.values())
          + f"; all three {time.perf_counter() - t_back:.1f} s")
    for page in friends.values():
        assert not any('"online.seat_taken"' in m for m in page.evaluate("() => window.chkobbaOnline.received"))

    play_until_audited(host, friends, seed=9)
    print(f"online 7D: a friend's move to its next view, {latencies(list(friends.values()), lat)}")
    record = host.evaluate("() => window.chkobbaOnline.record()")
    played = json.loads(before)["rounds"][0]["actions"]
    assert json.loads(record)["rounds"][0]["actions"][:len(played)] == played, "nothing played is lost"
    for seat, page in friends.items():
        assert page.evaluate("() => window.chkobbaOnline.friend.failures") == []
        assert page.evaluate("() => window.chkobbaOnline.friend.audited")[0] == 1
        assert page.locator("#audit-line").is_visible()
        raw[seat] += page.evaluate("() => window.chkobbaOnline.received")
        assert check_received(raw[seat], record, seat) > 3
    print(f"online 7D: the whole test {time.perf_counter() - t0:.1f} s")


def test_online_a_friend_whose_page_is_busy_starting_still_sits_down(make_page: Any) -> None:
    """A slow phone: between its channel opening and its sitting down, the
    friend's page is busy starting its Python and sends nothing for longer
    than a seated friend may be silent (10 s): it is not dropped, it sits
    down (the 2v2 test above lost a friend this way, with pages starting
    their Pythons at once on a loaded machine)."""
    host = host_table(make_page, "chkobba-2", {})
    friend = make_page(PHONE)
    answer = answer_of(friend, invite_link(host, 1))
    # the moment its channel opens, before its Python sits it down: twelve seconds of nothing
    # (the page notes "friend:open" in its event log first: the busy loop is hooked there)
    friend.evaluate("""() => { const ev = window.chkobbaOnline.events, push = ev.push.bind(ev);
        ev.push = (e) => { const n = push(e);
            if (e === 'friend:open') { const t = performance.now(); while (performance.now() - t < 12000) {} }
            return n; }; }""")
    give_answer(host, 1, answer)
    host.wait_for_function("() => window.chkobbaOnline.events.includes('host:1:open')", timeout=60_000)
    try:
        friend.wait_for_function(DRAWN, timeout=120_000)
    except Exception:
        raise AssertionError(str([host.evaluate("() => window.chkobbaOnline.events"),
                                  friend.evaluate("() => [window.chkobbaOnline.events, document.getElementById('online-status').textContent, window.chkobbaOnline.received.slice(-3), window.chkobbaOnline.timing]")])) from None
    seated(host, 1)
    assert "host:1:open" in host.evaluate("() => window.chkobbaOnline.events")
    assert not [e for e in host.evaluate("() => window.chkobbaOnline.events") if e.endswith(":silent")]
    # once seated, a silent friend is noticed again as before (the heartbeat's 10 s)
    assert host.evaluate("() => [...window.chkobbaOnline.peers.values()].map((p) => p.options.silentMs)") == [10_000]
