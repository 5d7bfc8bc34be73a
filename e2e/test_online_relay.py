"""Playing a friend over the internet, strictly opt-in (docs/online.md, "Over
the internet"), through the real pages: the phones find each other through a
WebSocket BitTorrent tracker (the WebTorrent protocol the default public
relays speak), here one started by the test from npm
(@peertube/bittorrent-tracker-server) on this machine: nothing leaves it.

Before any request leaves the page's origin the player is shown who will be
contacted and agrees; declining sends nothing (no WebSocket, no request). A
friend's page whose connection stalled rebuilds it by itself when it comes
back to the foreground, through the same room."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from a11y_util import axe
from e2e_driver import PHONE
from test_online_play import ARTIFACTS, check_received, open_host, play_until_audited

ROOT = Path(__file__).resolve().parent.parent

# The tracker, logging every message it is sent (what a public relay sees).
TRACKER = """
import { Server } from '@peertube/bittorrent-tracker-server';
const s = new Server({ udp: false, http: true, ws: true, stats: false });
s.on('error', (e) => console.log('ERROR ' + e.message));
s.on('warning', (e) => console.log('WARNING ' + e.message));
s.on('listening', () => {
  s.ws.on('connection', (socket) => socket.on('message', (d) => console.log('MSG ' + d)));
  console.log('PORT ' + s.http.address().port);
});
s.listen(0, '127.0.0.1');
"""


class LocalRelay:
    """A relay started on this machine by a test (a node process that prints
    ``PORT n`` once listening, then ``MSG ...`` for each message it receives)."""

    def __init__(self, proc: subprocess.Popen[str], url: str) -> None:
        self.proc = proc
        self.url = url
        self.lines: list[str] = []

    def stop(self) -> None:
        """End the relay (once) and keep what it logged."""
        if self.proc.poll() is None:
            self.proc.terminate()
            out, _ = self.proc.communicate(timeout=10)
            self.lines = out.split("\n")   # not splitlines: the 20-byte strings may hold U+0085

    def messages(self) -> list[Any]:
        return [json.loads(line[4:]) for line in self.lines if line.startswith("MSG ")]


Tracker = LocalRelay


def start_relay(args: list[str], what: str) -> LocalRelay:
    """Run ``node args`` and wait for the port it listens on."""
    proc = subprocess.Popen(["node", *args], cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    m = re.match(r"PORT (\d+)", first)
    assert m, f"the {what} did not start: {first}"
    return LocalRelay(proc, f"ws://127.0.0.1:{m.group(1)}")


@pytest.fixture()
def tracker() -> Iterator[LocalRelay]:
    t = start_relay(["--input-type=module", "-e", TRACKER], "tracker")
    yield t
    t.stop()


def sockets_of(page: Any) -> list[str]:
    urls: list[str] = []
    page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def host_over_relay(make_page: Any, relay: str, table: str = "chkobba-2") -> tuple[Any, list[str]]:
    host = open_host(make_page, table)
    host.watch.allowed.add(relay)
    opened = sockets_of(host)
    host.check("input[name=via][value=internet]")
    host.click(".net-settings summary")
    host.fill("textarea[name=relays]", relay)
    host.fill("textarea[name=stun]", "")   # on this machine: no STUN server (nothing leaves it)
    host.click("#host-button")
    host.wait_for_selector("#consent:not([hidden])")
    items = host.locator("#consent .consent-list li").all_inner_texts()
    assert len(items) == 1 and relay.split("//")[1] in items[0]
    assert opened == [] and host.evaluate("() => window.chkobbaOnline.consent") == "asked"
    return host, opened


# The friend's phone's own settings: no STUN server on this machine (nothing leaves it).
NO_STUN = """if (!localStorage.getItem('chkobba.online.settings'))
  localStorage.setItem('chkobba.online.settings', JSON.stringify({stun: []}));"""


def link_relay(link: str) -> str:
    b64 = re.search(r"&relays=([A-Za-z0-9_-]+)", link)
    assert b64
    relays: list[str] = json.loads(base64.urlsafe_b64decode(b64.group(1) + "=" * (-len(b64.group(1)) % 4)))
    return relays[0].rstrip("/")


def sit_over_relay(friend: Any, link: str) -> tuple[float, list[str]]:
    opened = sockets_of(friend)
    friend.watch.allowed.add(link_relay(link))
    friend.add_init_script(NO_STUN)
    t0 = time.perf_counter()
    friend.goto(link)
    friend.wait_for_selector("#consent:not([hidden])")
    assert opened == []   # nothing before the player agrees
    assert len(friend.locator("#consent .consent-list li").all_inner_texts()) == 1   # the relay, no STUN server
    friend.click("#consent-yes")
    friend.wait_for_function("() => window.chkobbaOnline.friend && window.chkobbaOnline.timing.view")
    return time.perf_counter() - t0, opened


def test_online_two_phones_find_each_other_through_a_relay_and_play(make_page: Any, tracker: Tracker) -> None:
    host, host_sockets = host_over_relay(make_page, tracker.url)
    host.click("#consent-yes")
    card = host.locator(".invite-card[data-seat='1'][data-state=inviting]")
    card.wait_for()
    link = card.get_attribute("data-link")
    assert "#room=" in link and "offer=" not in link
    assert len(link.split("#", 1)[1]) < 200   # a short link (the room code, and the relay's address as it is not the site's own)
    assert host.locator(".invite-card[data-seat='1'] .answer-field").is_hidden()
    friend = make_page(PHONE)
    seconds, friend_sockets = sit_over_relay(friend, link.replace("online.html#", "online.html?lang=ar#"))
    timing = friend.evaluate("() => window.chkobbaOnline.timing")
    print(f"\nonline over a relay: from opening the invitation to sitting down: {seconds:.2f} s (the friend's page: "
          f"notice agreed {timing['agreed'] / 1000:.2f} s, offer received {timing['offer'] / 1000:.2f} s, "
          f"answered {timing['answer'] / 1000:.2f} s, channel open {timing['open'] / 1000:.2f} s, first view "
          f"{timing['view'] / 1000:.2f} s after it opened)")
    ARTIFACTS.mkdir(exist_ok=True)
    friend.screenshot(path=str(ARTIFACTS / "online-relay-friend-ar.png"))
    # the online timer is on by default: the host's page shows the seconds left at the seat to act
    left = host.locator("#presence [data-state='thinking'][data-left]")
    left.wait_for()
    assert 0 <= int(left.get_attribute("data-left")) <= 30
    play_until_audited(host, {1: friend})
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []
    record = host.evaluate("() => window.chkobbaOnline.record()")
    assert check_received(friend.evaluate("() => window.chkobbaOnline.received"), record, 1) > 10
    # the only outside address either page spoke to is the relay the player named
    assert set(host_sockets) | set(friend_sockets) == {tracker.url + "/"} or \
        set(host_sockets) | set(friend_sockets) == {tracker.url}
    # and each page's policy was narrowed to exactly that relay before it was contacted (signal.js)
    for page in (host, friend):
        metas = page.eval_on_selector_all('meta[http-equiv="Content-Security-Policy"]', "els => els.map(e => e.content)")
        assert [m.rstrip("/") for m in metas[1:]] == [f"connect-src 'self' {tracker.url}"], metas
    host.close()
    friend.close()
    tracker.stop()
    msgs = tracker.messages()
    assert msgs and all(m["action"] == "announce" for m in msgs)
    offers = [o["offer"]["sdp"] for m in msgs for o in m.get("offers", [])]
    answers = [m["answer"]["sdp"] for m in msgs if "answer" in m]
    assert offers and answers
    # what the relay sees of the set-up is sealed: no ICE credential, candidate or card in the clear
    for text in offers + answers:
        assert re.fullmatch(r"[A-Za-z0-9_-]+", text)
    for line in tracker.lines:
        assert "candidate" not in line and "ufrag" not in line
        assert "ERROR" not in line


def test_online_declining_the_notice_sends_nothing(make_page: Any, tracker: Tracker) -> None:
    host, host_sockets = host_over_relay(make_page, tracker.url)
    host.click("#consent-no")
    host.wait_for_selector("#setup:not([hidden])")
    assert "Nothing was sent" in host.locator("#online-status").inner_text()
    assert host.locator(".invite-card").count() == 0
    assert host_sockets == []
    # a friend who opens a link over the internet and declines: nothing either
    friend = make_page(PHONE)
    friend_sockets = sockets_of(friend)
    relays = base64.urlsafe_b64encode(json.dumps([tracker.url]).encode()).decode().rstrip("=")
    friend.goto(friend.base_url + f"online.html?lang=fr#room=AAAAAAAAAAAAAAAA&seat=1&table={'0' * 16}&relays={relays}")
    friend.wait_for_selector("#consent:not([hidden])")
    friend.screenshot(path=str(ARTIFACTS / "online-consent-fr.png"))
    friend.click("#consent-no")
    friend.wait_for_function("() => document.querySelector('#online-status').textContent.includes('Rien')")
    assert friend.evaluate("() => window.chkobbaOnline.consent") == "declined"
    assert friend_sockets == []
    host.close()
    friend.close()
    tracker.proc.terminate()
    out, _ = tracker.proc.communicate(timeout=10)
    assert "MSG" not in out   # the relay was never spoken to


def test_online_a_friend_back_in_the_foreground_rebuilds_its_connection(make_page: Any, tracker: Tracker) -> None:
    host, _ = host_over_relay(make_page, tracker.url)
    host.click("#consent-yes")
    card = host.locator(".invite-card[data-seat='1'][data-state=inviting]")
    card.wait_for()
    friend = make_page(PHONE)
    sit_over_relay(friend, card.get_attribute("data-link"))
    host.wait_for_selector("#presence [data-seat='1'][data-state='here'], #presence [data-seat='1'][data-state='thinking']")
    # the phone was in the background: its connection stalled (no heartbeat for longer than the limit)
    friend.evaluate("() => { const p = window.chkobbaOnline.friendPeer(); clearInterval(p._timer); p.lastSeen = -1e9; }")
    with friend.expect_navigation():
        friend.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    # it sits down again by itself, through the same room, with the secret it kept (no new consent in this tab)
    friend.wait_for_function("() => window.chkobbaOnline && window.chkobbaOnline.friend && window.chkobbaOnline.timing && window.chkobbaOnline.timing.view")
    assert friend.locator("#consent").is_hidden()
    assert friend.evaluate("() => window.chkobbaOnline.received.some((m) => JSON.parse(m).type === 'welcome')")
    assert not friend.evaluate("() => window.chkobbaOnline.received.some((m) => JSON.parse(m).type === 'error')")
    events = host.evaluate("() => window.chkobbaOnline.events")
    assert [e for e in events if e.startswith("host:1:open")].__len__() == 2
    play_until_audited(host, {1: friend})
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []


SIZES = {"phone": PHONE, "small": {"width": 320, "height": 568}, "landscape": {"width": 640, "height": 360}}


def test_online_the_settings_and_the_notice_fit_each_screen(make_page: Any) -> None:
    """The connection settings and the notice fit 360x640, 320x568 and
    640x360 in Arabic and French without sideways scrolling; the site's own
    relays are named (and declined here: nothing is sent)."""
    ARTIFACTS.mkdir(exist_ok=True)
    fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
    for lang in ("ar", "fr"):
        for name, size in SIZES.items():
            page = make_page(size)
            opened = sockets_of(page)
            page.goto(page.base_url + f"online.html?lang={lang}")
            page.wait_for_selector("html.ready", state="attached")
            page.check("input[name=via][value=internet]")
            page.click(".net-settings summary")
            assert page.locator("textarea[name=relays]").input_value().startswith("wss://")
            assert page.evaluate(fits), f"{lang} {name}: the settings scroll sideways"
            page.screenshot(path=str(ARTIFACTS / f"online-settings-{lang}-{name}.png"), full_page=True)
            if name == "small":
                assert axe(page, f"online settings {lang}") == []
            # a relay that is not a secure WebSocket address: one plain error, nothing kept, nothing sent
            page.fill("textarea[name=relays]", "http://example.org")
            page.click("#host-button")
            page.wait_for_function("() => document.querySelector('.settings-note').textContent.includes('http://example.org')")
            assert page.locator("#consent").is_hidden()
            page.fill("textarea[name=relays]", "wss://tracker.openwebtorrent.com")
            page.click("#host-button")
            page.wait_for_selector("#consent:not([hidden])")
            assert page.evaluate(fits), f"{lang} {name}: the notice scrolls sideways"
            page.locator("#consent-yes").scroll_into_view_if_needed()
            assert page.locator("#consent-yes").is_visible()
            page.screenshot(path=str(ARTIFACTS / f"online-consent-{lang}-{name}.png"))
            if name == "small":
                assert axe(page, f"online notice {lang}") == []
            page.click("#consent-no")
            page.wait_for_selector("#setup:not([hidden])")
            assert opened == []
            page.close()


def test_online_the_host_reloads_and_its_friend_comes_back_through_the_room(make_page: Any, tracker: Tracker) -> None:
    """Over the internet the room outlives the host's page: the host reloads
    mid-round, resumes, and the friend's page finds the host's new offer in
    the same room by itself (no new link passes between the phones), sits at
    its seat again with the secret it kept, and the round goes on."""
    host, _ = host_over_relay(make_page, tracker.url)
    host.click("#consent-yes")
    card = host.locator(".invite-card[data-seat='1'][data-state=inviting]")
    card.wait_for()
    link = card.get_attribute("data-link")
    friend = make_page(PHONE)
    sit_over_relay(friend, link)
    host.wait_for_selector("#presence [data-seat='1'][data-state='here'], #presence [data-seat='1'][data-state='thinking']")
    # a few moves, so there is something to lose
    for _ in range(40):
        if host.evaluate("() => window.chkobbaOnline.table.position")[1] >= 2:
            break
        for page in (host, friend):
            legal = page.evaluate("() => window.chkobbaOnline.legal()")
            if legal:
                before = friend.evaluate("() => window.chkobbaOnline.received.length")
                page.evaluate("(a) => window.chkobbaOnline.act(a)", legal[0])
                friend.wait_for_function("(n) => window.chkobbaOnline.received.length > n", arg=before)
                break
    record = host.evaluate("() => window.chkobbaOnline.record()")
    visits = []
    friend.on("framenavigated", lambda f: visits.append(f.url) if f == friend.main_frame else None)
    host.reload()
    host.wait_for_selector("#resume:not([hidden])")
    host.click("#resume-go")
    if host.locator("#consent:not([hidden])").count():
        host.click("#consent-yes")
    # the friend's page sits down again by itself, through the same room
    host.wait_for_selector("#presence [data-seat='1'][data-state='here'], #presence [data-seat='1'][data-state='thinking']",
                           timeout=60_000)
    friend.wait_for_function("() => window.chkobbaOnline && window.chkobbaOnline.friend && window.chkobbaOnline.timing && window.chkobbaOnline.timing.view",
                             timeout=60_000)
    assert visits and all(v == link or v.split("#")[0] == link.split("#")[0] for v in visits), visits   # only its own link, reloaded
    assert friend.locator("#consent").is_hidden()
    assert host.evaluate("() => window.chkobbaOnline.record()") == record, "nothing played is lost"
    assert not friend.evaluate("() => window.chkobbaOnline.received.some((m) => JSON.parse(m).type === 'error')")
    play_until_audited(host, {1: friend})
    assert friend.evaluate("() => window.chkobbaOnline.friend.failures") == []
