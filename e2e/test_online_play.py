"""Playing a friend through the real pages (web/online.html): the host
chooses the seats and hosts, the friend opens the invitation link on its own
phone (another browser context), sends its answer back, sits down and plays;
a whole Chkobba round is played and audited on the friend's phone. Every
message the friend's page received is inspected for another seat's hidden
card. A friend that closes its page and rejoins from a new invitation keeps
its seat (its secret is kept on its phone). No request leaves the machine
(the fixtures check every request)."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

from a11y_util import axe
from e2e_driver import HAND, PHONE, T, TABLE_CARDS
from online_helpers import (answer_of, check_received, connect, host_position, invite_link, open_host,
                            play_until_audited)
from test_fit import FRAMES, OFF_SCREEN


ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


def test_online_a_chkobba_round_between_two_phones_through_the_pages(make_page: Any) -> None:
    host = open_host(make_page)
    ARTIFACTS.mkdir(exist_ok=True)
    host.screenshot(path=str(ARTIFACTS / "online-setup.png"))
    host.fill("input[name=player_name]", "  Leïla  ")   # trimmed, kept on the host's phone
    host.click("#host-button")
    friend = make_page(PHONE)
    seconds = connect(host, friend, 1, lang="ar", name="سامي")
    assert friend.evaluate("() => document.documentElement.dir") == "rtl"
    timing = friend.evaluate("() => window.chkobbaOnline.timing")
    print(f"\nonline: from opening the invitation to sitting down: {seconds:.2f} s (the friend's page: answer "
          f"shown {timing['answer'] / 1000:.2f} s, channel open {timing['open'] / 1000:.2f} s, first view "
          f"{timing['view'] / 1000:.2f} s after it opened)")
    host.wait_for_selector("#presence [data-seat='1'][data-state='here'], #presence [data-seat='1'][data-state='thinking']")
    # each phone shows the other's name at its seat (isolated: FSI ... PDI), in the table and the presence line
    assert host.evaluate("() => localStorage.getItem('chkobba.online.name')") == "Leïla"
    assert "\u2068سامي\u2069" in host.locator("#table .seat-top .seat-title").inner_text()
    assert "\u2068Leïla\u2069" in friend.locator("#table .seat-top .seat-title").inner_text()
    assert friend.locator("#presence [data-seat='0'] .presence-name").text_content() == "\u2068Leïla\u2069"
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
    320x568 and 640x360 without sideways scrolling; Arabic is right to left.
    One page a language, resized: the set-up at each size, then the
    invitations at 320x568."""
    ARTIFACTS.mkdir(exist_ok=True)
    fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
    for lang in ("ar", "fr"):
        page = make_page(PHONE)
        page.goto(page.base_url + f"online.html?lang={lang}")
        page.wait_for_selector("html.ready", state="attached")
        assert page.evaluate("() => document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr"), lang
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            page.evaluate(FRAMES)
            assert page.locator("#setup .trust").is_visible(), f"{lang} {name}: the trust line is not shown"
            assert page.evaluate(fits), f"{lang} {name}: the set-up scrolls sideways"
            page.screenshot(path=str(ARTIFACTS / f"online-setup-{lang}-{name}.png"))
        name = "small"
        page.set_viewport_size(SIZES[name])
        page.evaluate(FRAMES)
        assert axe(page, f"online set-up {lang}") == []
        page.check("input[name=table][value=chkobba-4]")
        assert page.locator(".seat-rows select").count() == 3
        page.click("#host-button")
        page.wait_for_selector(".invite-card[data-state=inviting] .invite-qr svg")
        assert page.evaluate(fits), f"{lang} {name}: the invitations scroll sideways"
        assert axe(page, f"online invitations {lang}") == []
        page.screenshot(path=str(ARTIFACTS / f"online-invite-{lang}-{name}.png"), full_page=True)


def test_online_a_2v2_round_with_one_friend_and_the_computer(make_page: Any) -> None:
    host = open_host(make_page, "chkobba-4")
    host.select_option("select[name=seat2]", "hard")
    host.select_option("select[name=seat3]", "easy")
    host.click("#host-button")
    friend = make_page(PHONE)
    connect(host, friend, 1, via="link")   # the answer's link opened on the host's own phone
    play_until_audited(host, {1: friend}, seed=1)
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []
    record = host.evaluate("() => window.chkobbaOnline.record()")
    assert check_received(friend.evaluate("() => window.chkobbaOnline.received"), record, 1) > 10
    # the host's page thought the computer's moves in slices, between which it drew and answered:
    # the hard partner's searches took more than one (docs/online.md, "The computer's seats")
    moves = host.evaluate("() => window.chkobbaOnline.computerMoves")
    print("computer moves on the host's page (slices, ms):", moves)
    assert len(moves) >= 10 and max(slices for slices, _ in moves) > 1
    # the friend's phone (the normal pace) saw the moves' cards fly, as on the table page, each once:
    # it draws again on every message (the seats, a reaction), and a position drawn again flies nothing;
    # the host's phone (the instant pace) saw none
    flown = friend.evaluate("""() => {
      const v = window.chkobbaOnline.tableView;
      const moves = [...v.state.last_round_moves, ...v.state.moves];
      return { count: v.flightCount, log: v.flightLog,
               most: moves.reduce((n, m) => n + (m.card ? 1 + (m.cards || m.take || []).length : 0), 0) };
    }""")
    print("flights on the friend's phone:", flown["count"], "of at most", flown["most"], flown["log"][:2])
    assert 5 <= flown["count"] <= flown["most"] and {f["origin"] for f in flown["log"]} >= {"seat"}
    assert host.evaluate("() => window.chkobbaOnline.tableView.flightCount") == 0


# (test_fit's check: the hand, the table's cards and the move buttons on
# screen and not covered, and no page scroll)
ON_SCREEN = f"{HAND} .card, {TABLE_CARDS} .card, {T} .controls button, {T} .choices button"
SEAT_TOPS = """() => ['left', 'top', 'right'].map((s) => Math.round(
    document.querySelector(`#table .ck.players-4 .seat-${s}`).getBoundingClientRect().top))
    .concat([Math.round(document.querySelector('#table .felt').getBoundingClientRect().top)])"""


def test_online_a_tablet_or_a_laptop_shows_the_whole_2v2_table(make_page: Any) -> None:
    """The friend's page at table size, mid-round: as on the table page
    (e2e/test_fit.py), an upright tablet and a short screen under 1200 px
    seat the other three in one row above the felt, and on those and on
    laptops' short pages the hand, the table's cards and the buttons are on
    screen without scrolling."""
    host = open_host(make_page, "chkobba-4", lang="fr")
    host.select_option("select[name=seat2]", "easy")
    host.select_option("select[name=seat3]", "easy")
    host.click("#host-button")
    friend = make_page(PHONE)
    connect(host, friend, 1, lang="fr")
    play_until_audited(host, {1: friend}, seed=3, stop=lambda: host_position(host)[1] >= 6)
    problems = []
    for w, h in ((768, 1024), (1024, 690), (1366, 625), (1536, 730)):
        friend.set_viewport_size({"width": w, "height": h})
        friend.evaluate(FRAMES)
        got = friend.evaluate(OFF_SCREEN, [ON_SCREEN, True])
        assert got["n"] > 0, "nothing to check"
        problems += [f"{w}x{h}: {p}" for p in got["bad"]]
        friend.screenshot(path=str(ARTIFACTS / f"online-friend-2v2-{w}x{h}.png"))
        if w < 1200:
            left, top, right, felt = friend.evaluate(SEAT_TOPS)
            if not (abs(left - top) <= 2 and abs(right - top) <= 2 and felt > top):
                problems.append(f"{w}x{h}: the seats are not in one row above the felt: {[left, top, right, felt]}")
    assert not problems, "\n".join(problems)


def test_online_a_seven_diamonds_round_with_one_friend_and_two_computers(make_page: Any) -> None:
    host = open_host(make_page, "seven_diamonds")
    host.select_option("select[name=seat2]", "easy")
    host.select_option("select[name=seat3]", "easy")
    host.click("#host-button")
    friend = make_page(PHONE)
    connect(host, friend, 1)
    # the host's clock counts down on the friend's page too (its "seats" message), at the seat to act
    left = friend.locator("#presence [data-state='thinking'][data-left]")
    left.wait_for()
    first = int(left.get_attribute("data-left"))
    assert 0 < first <= 12 + 15, first
    friend.wait_for_function("(n) => { const e = document.querySelector(\"#presence [data-left]\"); "
                             "return e && Number(e.dataset.left) < n; }", arg=first)
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


# The host's give-up bound (web/online/common.js), and the one this test's host
# page has instead: its setTimeout of exactly that delay waits SHORT_GIVE_UP_MS
# (an init script of the test's page; the page itself is unchanged).
GIVE_UP_MS = int(re.search(r"GIVE_UP_MS = ([0-9_]+);", (ROOT / "web" / "online" / "common.js")
                           .read_text(encoding="utf-8")).group(1).replace("_", ""))
SHORT_GIVE_UP_MS = 3_000
SHORTER_GIVE_UP = """([bound, short]) => { const real = window.setTimeout;
  window.setTimeout = function (fn, ms, ...rest) { return real.call(this, fn, ms === bound ? short : ms, ...rest); }; }"""
# every state the invitation card of seat 1 goes through, in order
CARD_STATES = """() => { const card = document.querySelector(".invite-card[data-seat='1']");
  window.__cardStates = [card.dataset.state];
  new MutationObserver(() => window.__cardStates.push(card.dataset.state))
    .observe(card, { attributes: true, attributeFilter: ['data-state'] }); }"""


def test_online_a_connection_that_never_opens_is_given_up_with_the_fallbacks(make_page: Any) -> None:
    """The friend's phone leaves between its answer and the host's use of it:
    the host's card says "Connecting...", then gives up (when the browser
    says the connection failed, at the latest after its bound, here
    SHORT_GIVE_UP_MS for the page's 20 s) in plain words naming the
    fallbacks, and offers a new invitation."""
    assert GIVE_UP_MS > SHORT_GIVE_UP_MS

    def host_page(viewport: dict[str, int]) -> Any:
        page = make_page(viewport)
        page.add_init_script(f"({SHORTER_GIVE_UP})({json.dumps([GIVE_UP_MS, SHORT_GIVE_UP_MS])})")
        return page

    host = open_host(host_page, lang="fr")
    host.click("#host-button")
    friend = make_page(PHONE)
    answer = answer_of(friend, invite_link(host, 1))
    friend.close()
    card = ".invite-card[data-seat='1']"
    host.evaluate(CARD_STATES)
    host.fill(f"{card} .answer-input", answer)
    host.click(f"{card} .answer-use")
    t0 = time.perf_counter()
    host.wait_for_selector(f"{card}[data-state=failed]", timeout=60_000)   # the browser's ICE failure, or the bound
    print(f"\nonline: a connection that never opened was given up after {time.perf_counter() - t0:.1f} s")
    states = host.evaluate("() => window.__cardStates")
    changes = [s for i, s in enumerate(states) if i == 0 or s != states[i - 1]]
    assert changes[-2:] == ["connecting", "failed"], f"the card's states: {states}"
    text = host.locator(f"{card} .invite-state").inner_text()
    assert "Wi-Fi" in text and "partage de connexion" in text, text
    host.click(f"{card} .invite-box button")
    host.wait_for_selector(f"{card}[data-state=inviting]")


def fits_each_screen(page: Any, what: str, name: str) -> None:
    """The open summary (or the page) at 360x640, 320x568 and 640x360: no
    sideways scrolling, its buttons reachable (the dialog scrolls inside)."""
    lang = page.evaluate("() => document.documentElement.lang")
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), \
            f"{what} {lang} {size_name}: scrolls sideways"
        box = page.locator("#summary[open] .summary-box")
        if box.count():
            r = box.bounding_box()
            assert r is not None and r["x"] >= 0 and r["x"] + r["width"] <= size["width"] + 1, (what, lang, size_name, r)
            page.locator("#summary-next").scroll_into_view_if_needed()
            assert page.locator("#summary-next").is_visible()
        page.screenshot(path=str(ARTIFACTS / f"online-{name}-{lang}-{size_name}.png"))
    page.set_viewport_size(PHONE)


def test_online_a_match_ends_the_friend_asks_and_the_host_starts_a_rematch(make_page: Any) -> None:
    """Between rounds both phones show the round's summary (from their own
    seat's answer); at the match's end the result and "Rematch": the
    friend's asks the host, who sees who asked; the host's starts a new match
    at the same seats, fresh seeds, and its first moves are played."""
    ARTIFACTS.mkdir(exist_ok=True)
    host = open_host(make_page, lang="fr")
    host.click("#host-button")
    friend = make_page(PHONE)
    connect(host, friend, 1, lang="ar")
    shot = {"round": False}

    def over() -> bool:
        if not shot["round"] and friend.evaluate("() => window.chkobbaOnline.summaries.length > 0"):
            shot["round"] = True
            # the first round's summary, on the friend's phone, from its seat's answer
            friend.wait_for_selector("#summary[open] #summary-body table")
            fits_each_screen(friend, "round summary", "summary")
        return bool(host.evaluate("() => window.chkobbaOnline.table.over"))

    play_until_audited(host, {1: friend}, seed=5, until=over)
    for page in (host, friend):
        page.wait_for_selector("#summary[open][data-next='over'] .result")
        summaries = page.evaluate("() => window.chkobbaOnline.summaries")
        assert [n for n, _ in summaries] == list(range(1, len(summaries) + 1)) and summaries[-1][1] == "over", summaries
        assert len(summaries) >= 2, "a match to 11 takes more than one round"
    assert host.locator("#summary-next").inner_text().strip() == "Revanche"
    played = host.evaluate("() => window.chkobbaOnline.table.position[0]")
    friend.wait_for_function("(n) => window.chkobbaOnline.friend.audited.length === n", arg=played)
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []
    # each phone's statistics count its own seat's match once (level "online"), and the
    # summary links the last round's replay, as the table's does
    for page in (host, friend):
        page.wait_for_function("() => { const s = JSON.parse(localStorage.getItem('chkobba.stats.v1') || 'null');"
                               " return s && s.matches.length === 1 && s.groups[0].level === 'online'; }")
        page.wait_for_selector("#summary[open] .replay-round a[href*='embed.html#']")
    fits_each_screen(friend, "match result", "result")
    fits_each_screen(host, "match result", "result")
    assert axe(friend, "online match result ar") == []
    # the friend asks; the host sees who asked (and the reaction at the seat)
    friend.click("#summary-next")
    assert friend.locator("#summary-next").is_disabled()
    assert friend.locator("#summary .rematch-line").inner_text().strip()
    line = host.locator("#summary .rematch-line")
    line.wait_for()
    assert "place 2" in line.inner_text(), line.inner_text()
    host.wait_for_selector("#presence [data-seat='1'] .react-bubble[data-reaction='rematch']")
    host.screenshot(path=str(ARTIFACTS / "online-rematch-asked-fr.png"))
    # the host starts it: the same seats, a new match, fresh seeds, both summaries closed
    old_record = json.loads(host.evaluate("() => window.chkobbaOnline.record()"))
    host.click("#summary-next")
    for page in (host, friend):
        page.wait_for_function("() => !document.getElementById('summary').open")
    friend.wait_for_function("() => window.chkobbaOnline.friend.match === 2")
    host.wait_for_function("() => window.chkobbaOnline.table.match === 2 && window.chkobbaOnline.table.answer")
    play_until_audited(host, {1: friend}, seed=6,
                       until=lambda: host.evaluate("() => window.chkobbaOnline.table.position")[1] >= 4)
    record = json.loads(host.evaluate("() => window.chkobbaOnline.record()"))
    assert len(record["rounds"]) == 1 and record["rounds"][0]["decks"][0] != old_record["rounds"][0]["decks"][0]
    assert host.evaluate("() => window.chkobbaOnline.table.presence[1].present")
    assert not friend.evaluate("() => window.chkobbaOnline.received.some((m) => JSON.parse(m).type === 'error' "
                               "&& ['online.seat_taken', 'online.no_commit', 'online.reveal_mismatch'].includes(JSON.parse(m).code))")
    # what the friend was sent in the new match: its own seat's answers only
    raw = friend.evaluate("() => window.chkobbaOnline.received")
    since = max(i for i, m in enumerate(raw) if json.loads(m)["type"] == "rematch")
    assert check_received(raw[since:], host.evaluate("() => window.chkobbaOnline.record()"), 1) >= 2


def test_online_quick_reactions_reach_the_host_and_flooding_does_not(make_page: Any) -> None:
    """A friend's quick reaction, chosen from the fixed set in its language,
    appears at its seat on the host's page; a flood is cut by the host's
    allowance, and the friend sees a quiet "wait a moment", not an error."""
    ARTIFACTS.mkdir(exist_ok=True)
    host = open_host(make_page, lang="ar")
    host.click("#host-button")
    friend = make_page(PHONE)
    connect(host, friend, 1, lang="fr")
    friend.click("#react .react-open")
    choices = friend.locator("#react-list .react-choice")
    assert choices.count() == 6
    assert "Bien joué !" in [choices.nth(i).inner_text().strip() for i in range(6)]
    for name, size in SIZES.items():
        friend.set_viewport_size(size)
        assert friend.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), name
        friend.screenshot(path=str(ARTIFACTS / f"online-reactions-fr-{name}.png"))
    friend.set_viewport_size(PHONE)
    friend.click("#react-list .react-choice[data-reaction='well_played']")
    bubble = host.locator("#presence [data-seat='1'] .react-bubble[data-reaction='well_played']")
    bubble.wait_for()
    assert bubble.inner_text().strip() == "لعبت مليح!"   # in the host page's own language
    friend.wait_for_selector("#presence [data-seat='1'] .react-bubble")   # at the sender's seat on its own phone too
    host.click("#react .react-open")
    for name, size in SIZES.items():
        host.set_viewport_size(size)
        assert host.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), name
        host.screenshot(path=str(ARTIFACTS / f"online-reactions-ar-{name}.png"))
    host.set_viewport_size(PHONE)
    assert axe(host, "online reactions ar") == []
    host.click("#react .react-open")
    # a flood: ten at once; the host passes at most its allowance (3 at once, then one every 4 s)
    friend.evaluate("() => { for (let i = 0; i < 10; i += 1) window.chkobbaOnline.react('bravo'); }")
    friend.wait_for_function("() => document.querySelector('#react .react-note').textContent.trim() !== ''")
    assert friend.locator("#react .react-note").inner_text().strip() == "Attends un instant"
    friend.wait_for_function("() => window.chkobbaOnline.received.filter((m) => m.includes('online.rate')).length >= 7")
    got = host.evaluate("() => window.chkobbaOnline.reactions.filter(([s]) => s === 1).length")
    assert got <= 1 + 3, got
    assert friend.locator("#table .message").inner_text().strip() == "", "a limited reaction is no error"


def test_online_a_finished_table_offers_a_rematch_not_a_resume(make_page: Any) -> None:
    """The host's page opened again on the save of a finished match offers
    "Rematch" or "New table", never "Resume": the rematch resumes the table
    and begins a new match at its seats; the friend sits down again with the
    secret its phone kept and plays the new match."""
    from test_online import started   # tests/test_online.py: a whole match between a HostTable and a Guest

    net = started(seed=11)
    net.play(rounds=10_000, limit=20_000)
    assert net.host.over
    table = "00112233aabbccdd"
    host = make_page(PHONE)
    host.goto(host.base_url + "online.html?lang=ar")
    host.evaluate("(v) => localStorage.setItem('chkobba.online.host', v)",
                  json.dumps({"id": table, "net": None, "save": net.host.save()}))
    host.reload()
    host.wait_for_selector("#finished:not([hidden])")
    assert host.locator("#resume").is_hidden() and host.locator("#setup").is_hidden()
    for name, size in SIZES.items():
        host.set_viewport_size(size)
        assert host.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), name
        assert host.locator("#finished-rematch").is_visible()
        host.screenshot(path=str(ARTIFACTS / f"online-finished-ar-{name}.png"))
    host.set_viewport_size(PHONE)
    host.click("#finished-rematch")
    host.wait_for_selector(".invite-card[data-seat='1'][data-state=inviting]")
    host.wait_for_function("() => window.chkobbaOnline.table && window.chkobbaOnline.table.match === 2 "
                           "&& !window.chkobbaOnline.table.over && window.chkobbaOnline.table.answer")
    friend = make_page(PHONE)
    # the friend's phone kept its secret from the match (its storage, before its page opens)
    friend.add_init_script(
        "if (!sessionStorage.getItem('kept')) { sessionStorage.setItem('kept', '1'); "
        f"localStorage.setItem({json.dumps(f'chkobba.online.guest.{table}.1')}, {json.dumps(json.dumps(net.guests[1].save()))}); }}")
    connect(host, friend, 1)
    friend.wait_for_function("() => window.chkobbaOnline.friend.match === 2")
    assert not friend.evaluate("() => window.chkobbaOnline.received.some((m) => JSON.parse(m).code === 'online.seat_taken')")
    host.wait_for_selector("#presence [data-seat='1'][data-state='here'], #presence [data-seat='1'][data-state='thinking']")
    play_until_audited(host, {1: friend}, seed=7,
                       until=lambda: host.evaluate("() => window.chkobbaOnline.table.position")[1] >= 4)
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []
