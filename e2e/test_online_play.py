"""Playing a friend through the real pages (web/online.html): the host
chooses the seats and hosts, the friend opens the invitation link on its own
phone (another browser context), sends its answer back, sits down and plays;
a whole Chkobba round is played and audited on the friend's phone. Every
message the friend's page received is inspected for another seat's hidden
card. A friend that closes its page and rejoins from a new invitation keeps
its seat (its secret is kept on its phone). No request leaves the machine
(the fixtures check every request)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from a11y_util import axe
from e2e_driver import PHONE
from online_helpers import answer_of, check_received, connect, invite_link, open_host, play_until_audited


ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


def test_online_a_chkobba_round_between_two_phones_through_the_pages(make_page: Any) -> None:
    host = open_host(make_page)
    ARTIFACTS.mkdir(exist_ok=True)
    host.screenshot(path=str(ARTIFACTS / "online-setup.png"))
    host.click("#host-button")
    friend = make_page(PHONE)
    seconds = connect(host, friend, 1, lang="ar")
    assert friend.evaluate("() => document.documentElement.dir") == "rtl"
    timing = friend.evaluate("() => window.chkobbaOnline.timing")
    print(f"\nonline: from opening the invitation to sitting down: {seconds:.2f} s (the friend's page: answer "
          f"shown {timing['answer'] / 1000:.2f} s, channel open {timing['open'] / 1000:.2f} s, first view "
          f"{timing['view'] / 1000:.2f} s after it opened)")
    host.wait_for_selector("#presence [data-seat='1'][data-state='here'], #presence [data-seat='1'][data-state='thinking']")
    friend.screenshot(path=str(ARTIFACTS / "online-friend-table.png"))
    host.screenshot(path=str(ARTIFACTS / "online-host-table.png"))
    play_until_audited(host, {1: friend})
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []
    assert friend.locator("#audit-line").is_visible()
    lat = sorted(friend.evaluate("() => window.chkobbaOnline.latencies"))
    assert lat
    print(f"online: a friend's move to its next view, {len(lat)} moves: median {lat[len(lat) // 2]:.1f} ms, "
          f"max {lat[-1]:.1f} ms")
    friend.screenshot(path=str(ARTIFACTS / "online-friend-audited-ar.png"))
    record = host.evaluate("() => window.chkobbaOnline.record()")
    raw = friend.evaluate("() => window.chkobbaOnline.received")
    assert check_received(raw, record, 1) > 10
    # the friend's page drew its own seat's answer: its hand, never the host's
    hand = friend.evaluate("() => window.chkobbaOnline.friend && document.querySelectorAll('#table .hand-you .card').length")
    assert hand >= 0


def test_online_a_friend_that_leaves_and_rejoins_keeps_its_seat(make_page: Any) -> None:
    host = open_host(make_page)
    host.click("#host-button")
    friend = make_page(PHONE)
    connect(host, friend, 1)
    secret = friend.evaluate("() => Object.entries(localStorage).find(([k]) => k.startsWith('chkobba.online.guest.'))")
    assert secret is not None
    # the friend's phone closes its page: the host sees it gone and prepares a new invitation for that seat
    ctx, watch = friend.context, friend.watch
    friend.close()
    host.wait_for_selector("#presence [data-seat='1'][data-state='gone']")
    host.wait_for_selector(".invite-card[data-seat='1'][data-state=inviting]")
    again = ctx.new_page()
    again.on("pageerror", lambda e: watch.errors.append(str(e)))
    again.on("console", watch.on_console)
    again.set_default_timeout(60_000)
    connect(host, again, 1)
    # the same seat, by the secret kept on the friend's phone (a new secret would be refused)
    host.wait_for_selector("#presence [data-seat='1'][data-state='here'], #presence [data-seat='1'][data-state='thinking']")
    assert again.evaluate("() => window.chkobbaOnline.received.some((m) => JSON.parse(m).type === 'welcome')")
    assert not again.evaluate("() => window.chkobbaOnline.received.some((m) => JSON.parse(m).type === 'error' && JSON.parse(m).code === 'online.seat_taken')")
    play_until_audited(host, {1: again})
    assert again.evaluate("() => window.chkobbaOnline.friend.failures") == []


SIZES = {"phone": PHONE, "small": {"width": 320, "height": 568}, "landscape": {"width": 640, "height": 360}}


def test_online_setup_fits_each_screen_in_arabic_and_french(make_page: Any) -> None:
    """The set-up (with its trust line) and the invitation fit 360x640,
    320x568 and 640x360 without sideways scrolling; Arabic is right to left."""
    ARTIFACTS.mkdir(exist_ok=True)
    for lang in ("ar", "fr"):
        for name, size in SIZES.items():
            page = make_page(size)
            page.goto(page.base_url + f"online.html?lang={lang}")
            page.wait_for_selector("html.ready", state="attached")
            assert page.evaluate("() => document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
            assert page.locator("#setup .trust").is_visible()
            fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
            assert page.evaluate(fits), f"{lang} {name}: the set-up scrolls sideways"
            page.screenshot(path=str(ARTIFACTS / f"online-setup-{lang}-{name}.png"))
            if name == "small":
                assert axe(page, f"online set-up {lang}") == []
                page.check("input[name=table][value=chkobba-4]")
                assert page.locator(".seat-rows select").count() == 3
                page.click("#host-button")
                page.wait_for_selector(".invite-card[data-state=inviting] .invite-qr svg")
                assert page.evaluate(fits), f"{lang} {name}: the invitations scroll sideways"
                assert axe(page, f"online invitations {lang}") == []
                page.screenshot(path=str(ARTIFACTS / f"online-invite-{lang}-{name}.png"), full_page=True)
            page.context.close()


def test_online_a_2v2_round_with_one_friend_and_the_computer(make_page: Any) -> None:
    host = open_host(make_page, "chkobba-4")
    host.select_option("select[name=seat2]", "easy")
    host.select_option("select[name=seat3]", "easy")
    host.click("#host-button")
    friend = make_page(PHONE)
    connect(host, friend, 1, via="link")   # the answer's link opened on the host's own phone
    play_until_audited(host, {1: friend}, seed=1)
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []
    record = host.evaluate("() => window.chkobbaOnline.record()")
    assert check_received(friend.evaluate("() => window.chkobbaOnline.received"), record, 1) > 10


def test_online_a_seven_diamonds_round_with_one_friend_and_two_computers(make_page: Any) -> None:
    host = open_host(make_page, "seven_diamonds")
    host.select_option("select[name=seat2]", "easy")
    host.select_option("select[name=seat3]", "easy")
    host.click("#host-button")
    friend = make_page(PHONE)
    connect(host, friend, 1)
    play_until_audited(host, {1: friend}, seed=4)
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []
    assert friend.locator("#table .ck").count() == 1
    friend.screenshot(path=str(ARTIFACTS / "online-friend-seven.png"))


def test_online_the_host_page_reloads_and_the_table_resumes(make_page: Any) -> None:
    """The host's save is written after every change; on reload the table
    resumes from it, the friend sits down again (a new invitation, the kept
    secret) and nothing played is lost."""
    host = open_host(make_page)
    host.click("#host-button")
    friend = make_page(PHONE)
    connect(host, friend, 1)
    rng = random.Random(2)
    for _ in range(200):
        pos = host.evaluate("() => window.chkobbaOnline.table.position")
        if pos[1] >= 3:
            break
        for page in (host, friend):
            legal = page.evaluate("() => window.chkobbaOnline.legal()")
            if legal:
                before = friend.evaluate("() => window.chkobbaOnline.received.length")
                page.evaluate("(a) => window.chkobbaOnline.act(a)", rng.choice(legal))
                friend.wait_for_function("(n) => window.chkobbaOnline.received.length > n", arg=before)
                break
    before = host.evaluate("() => window.chkobbaOnline.record()")
    host.reload()
    host.wait_for_selector("#resume:not([hidden])")
    host.click("#resume-go")
    friend.wait_for_selector("#online-status:not([hidden])")   # the friend is told the host's phone is gone
    host.wait_for_selector(".invite-card[data-seat='1'][data-state=inviting]")
    after = host.evaluate("() => window.chkobbaOnline.record()")
    assert after == before, "nothing played is lost"
    connect(host, friend, 1)
    assert not friend.evaluate("() => window.chkobbaOnline.received.some((m) => JSON.parse(m).type === 'error' && JSON.parse(m).code === 'online.seat_taken')")
    play_until_audited(host, {1: friend}, seed=3)
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []


def test_online_the_start_screen_links_to_play_friends_without_loading_it(make_page: Any) -> None:
    """The table's start screen offers "Play friends" (a link); the table page
    loads nothing of the online play (no QR encoder, no transport)."""
    page = make_page(PHONE)
    page.goto(page.base_url + "?lang=ar")
    page.wait_for_selector("html.ready", state="attached")
    page.wait_for_function("() => document.getElementById('start').open")
    link = page.locator("#start-form .friends-link a")
    assert link.get_attribute("href") == "online.html" and link.inner_text().strip()
    link.scroll_into_view_if_needed()
    assert link.is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "online-start-link-ar.png"))
    assert not [u for u in page.watch.requests if "/online" in u], "the table page loaded the online play"
    link.click()
    page.wait_for_selector("#setup:not([hidden])")
    assert any(u.endswith("/online/qrcode.mjs") for u in page.watch.requests)


def test_online_a_connection_that_never_opens_is_given_up_with_the_fallbacks(make_page: Any) -> None:
    """The friend's phone leaves between its answer and the host's use of it:
    the host's card says "Connecting...", then gives up (when the browser
    says the connection failed, at the latest after 20 s) in plain words
    naming the fallbacks, and offers a new invitation."""
    host = open_host(make_page)
    host.goto(host.base_url + "online.html?lang=fr")
    host.wait_for_selector("html.ready", state="attached")
    host.click("#host-button")
    friend = make_page(PHONE)
    answer = answer_of(friend, invite_link(host, 1))
    friend.close()
    card = ".invite-card[data-seat='1']"
    host.fill(f"{card} .answer-input", answer)
    host.click(f"{card} .answer-use")
    host.wait_for_selector(f"{card}[data-state=connecting]")
    t0 = time.perf_counter()
    host.wait_for_selector(f"{card}[data-state=failed]", timeout=60_000)   # the browser's ICE failure, or the 20 s bound
    print(f"\nonline: a connection that never opened was given up after {time.perf_counter() - t0:.1f} s")
    text = host.locator(f"{card} .invite-state").inner_text()
    assert "Wi-Fi" in text and "partage de connexion" in text, text
    host.click(f"{card} .invite-box button")
    host.wait_for_selector(f"{card}[data-state=inviting]")
