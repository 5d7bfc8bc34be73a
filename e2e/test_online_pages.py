"""The online transport (web/online/peer.js) between two browser contexts on
this machine: the host's offer and the friend's answer pass by hand (the test
carries the texts, as a link or a QR code would), messages flow both ways,
and the heartbeat notices a peer that went quiet or left. No request leaves
the origin (the fixtures check every request)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e_driver import PHONE


def bench(make_page: Any, **options: Any) -> Any:
    page = make_page(PHONE)
    page.goto(page.base_url + "online/test.html")
    page.wait_for_selector("html.ready", state="attached")
    return page


def connect(make_page: Any, options: dict[str, Any] | None = None) -> tuple[Any, Any, dict[str, float]]:
    host, friend = bench(make_page), bench(make_page)
    opts = options or {}
    t0 = time.perf_counter()
    offer = host.evaluate("(o) => online.host(o)", opts)
    t1 = time.perf_counter()
    answer = friend.evaluate("([text, o]) => online.join(text, o)", [offer, opts])
    t2 = time.perf_counter()
    host.evaluate("(text) => online.accept(text)", answer)
    host.evaluate("() => online.opened()")
    friend.evaluate("() => online.opened()")
    t3 = time.perf_counter()
    figures = {"offer_s": t1 - t0, "answer_s": t2 - t1, "open_s": t3 - t2, "total_s": t3 - t0,
               "offer_chars": len(offer), "answer_chars": len(answer)}
    print(f"\nonline connect: {figures}")
    return host, friend, figures


def test_online_two_phones_connect_by_hand_and_talk(make_page: Any) -> None:
    host, friend, figures = connect(make_page)
    # the texts are short enough for a link and a QR code
    assert figures["offer_chars"] < 700 and figures["answer_chars"] < 700
    assert host.evaluate("() => online.state.states") == ["connecting", "open"]
    msg = {"v": 1, "type": "act", "action": "7D", "round": 1, "ply": 0}
    assert friend.evaluate("(m) => online.send(m)", msg)
    host.wait_for_function("() => online.state.received.some((m) => m.type === 'act')")
    got = host.evaluate("() => online.state.received.filter((m) => m.type === 'act')")
    assert got == [msg]
    host.evaluate("() => online.send({v: 1, type: 'view', round: 1, ply: 1, view: {hand: ['7D']}})")
    friend.wait_for_function("() => online.state.received.some((m) => m.type === 'view')")
    assert friend.evaluate("() => online.route()") == "host", "same place: a direct path, no relay"
    median = friend.evaluate("() => online.pingpong(50)")
    print(f"online round trip, median of 50: {median:.2f} ms")
    assert median > 0


def test_online_invite_round_trip_link_and_qr(make_page: Any) -> None:
    host = bench(make_page)
    offer = host.evaluate("() => online.host({})")
    desc = host.evaluate("(t) => online.decode(t)", offer)
    assert desc["type"] == "offer" and "a=fingerprint:sha-256 " in desc["sdp"] and "a=candidate:" in desc["sdp"]
    link = host.evaluate("(t) => online.link('offer', t)", offer)
    assert link.startswith(host.base_url) and link.endswith("#offer=" + offer)
    frag = host.evaluate("(h) => online.fragment(h)", "#offer=" + offer)
    assert frag == {"kind": "offer", "text": offer}
    assert host.evaluate("() => online.fragment('#offer=<script>')") is None
    modules = host.evaluate("(t) => online.qr(t)", link)
    assert 21 <= modules <= 177
    assert host.locator("#qr svg").count() == 1
    # a damaged invitation is refused in words, not a crash
    err = host.evaluate("(t) => online.decode(t).then(() => '', (e) => e.message)", offer[:-8] + "AAAAAAAA")
    assert err


def test_online_heartbeat_notices_a_silent_or_closed_peer(make_page: Any) -> None:
    fast = {"heartbeatMs": 200, "silentMs": 1200}
    host, friend, _ = connect(make_page, fast)
    friend.evaluate("() => online.freeze()")
    host.wait_for_function("() => online.state.states.includes('closed:silent')", timeout=15_000)
    host2, friend2, _ = connect(make_page, fast)
    friend2.evaluate("() => online.close()")
    host2.wait_for_function("() => online.state.states.some((s) => s.startsWith('closed'))", timeout=15_000)
    assert friend2.evaluate("() => online.state.states").pop() == "closed:left"


# ------------------------------------------------------------ a TURN relay

def own_address() -> str | None:
    """This machine's own non-loopback IPv4 address (Chromium gathers no
    loopback candidates); nothing is sent to find it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))
        except OSError:
            return None
        address: str = s.getsockname()[0]
    return None if address.startswith("127.") else address


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture()
def turn_server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """coturn (Debian's package; scripts/test.sh installs it), started for the
    test on this machine's address, long-term credentials, no TLS, no CLI."""
    exe = shutil.which("turnserver")
    address = own_address()
    if exe is None or address is None:
        pytest.skip("no turnserver (apt-get install coturn) or no non-loopback address")
    port = free_port()
    log = tmp_path / "turn.log"
    proc = subprocess.Popen(
        [exe, "-n", "--listening-ip", address, "--relay-ip", address, "--listening-port", str(port),
         "--min-port", "49160", "--max-port", "49400", "--lt-cred-mech", "--user", "chkobba:test-only",
         "--realm", "chkobba.test", "--no-tls", "--no-dtls", "--no-cli", "--simple-log",
         "--log-file", str(log), "--pidfile", str(tmp_path / "turn.pid"), "--no-software-attribute"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:  # wait until it accepts TCP on its port (it listens on UDP too)
            try:
                socket.create_connection((address, port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"turnserver did not start: {log.read_text() if log.exists() else ''}")
                time.sleep(0.1)
        yield {"urls": f"turn:{address}:{port}?transport=udp", "username": "chkobba", "credential": "test-only",
               "log": log}
    finally:
        proc.terminate()
        proc.wait(10)


def test_online_through_a_local_turn_relay_with_the_direct_path_blocked(make_page: Any,
                                                                        turn_server: dict[str, Any]) -> None:
    ice = {"urls": turn_server["urls"], "username": turn_server["username"],
           "credential": turn_server["credential"]}
    host, friend, figures = connect(make_page, {"iceServers": [ice], "iceTransportPolicy": "relay"})
    offer_sdp = host.evaluate("() => online.state.peer.pc.localDescription.sdp")
    assert " typ relay " in offer_sdp and " typ host " not in offer_sdp, "only the relay's candidates"
    assert host.evaluate("() => online.route()") == "relay"
    assert friend.evaluate("() => online.route()") == "relay"
    friend.evaluate("() => online.send({v: 1, type: 'reaction', reaction: 'bravo'})")
    host.wait_for_function("() => online.state.received.some((m) => m.type === 'reaction')")


# ------------------------------------------------- two phones, two browsers

def test_online_two_browsers_connect_on_the_same_network(make_page: Any, browser: Any) -> None:
    """Two browser processes, as two phones on one Wi-Fi: host candidates
    travel as the browser writes them (mDNS names unless the flags of
    scripts/browser.py say otherwise)."""
    from browser import CHROMIUM_ARGS, chromium_executable
    host = bench(make_page)
    exe = chromium_executable()
    other = browser.browser_type.launch(headless=True, args=list(CHROMIUM_ARGS),
                                        **({"executable_path": exe} if exe else {}))
    try:
        ctx = other.new_context(viewport=PHONE, service_workers="block")
        problems: list[str] = []
        ctx.on("request", lambda r: None if r.url.startswith(host.base_url) else problems.append(r.url))
        friend = ctx.new_page()
        friend.on("console", lambda m: problems.append(m.text) if m.type in ("warning", "error") else None)
        friend.goto(host.base_url + "online/test.html")
        friend.wait_for_selector("html.ready", state="attached")
        t0 = time.perf_counter()
        offer = host.evaluate("() => online.host({})")
        answer = friend.evaluate("(t) => online.join(t, {})", offer)
        host.evaluate("(t) => online.accept(t)", answer)
        host.evaluate("() => online.opened()")
        friend.evaluate("() => online.opened()")
        print(f"\nonline two browsers: open in {time.perf_counter() - t0:.2f} s")
        friend.evaluate("() => online.send({v: 1, type: 'leave'})")
        host.wait_for_function("() => online.state.received.some((m) => m.type === 'leave')")
        assert problems == []
    finally:
        other.close()


# ---------------------------------------- a whole round across two pages

def test_online_a_chkobba_round_between_two_pages_with_the_audit(make_page: Any) -> None:
    """The host's page runs HostTable in its Pyodide, the friend's page a
    Guest in its own; they play over the data channel until the first round is
    over and the friend's phone has audited it (seeds, deck, every move)."""
    host, friend, _ = connect(make_page)
    t0 = time.perf_counter()
    host.evaluate("() => online.python()")
    friend.evaluate("() => online.python()")
    print(f"\nonline: two Pyodides started (no snapshot) in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    host.evaluate("() => online.runHost('chkobba', {players: 2}, ['host', 'remote'])")
    friend.evaluate("() => online.runGuest(1)")
    friend.wait_for_function("() => online.pyStatus().audited.length >= 1 || online.pyStatus().failures.length",
                             timeout=60_000)
    status = friend.evaluate("() => online.pyStatus()")
    print(f"\nonline: a Chkobba round across two pages in {time.perf_counter() - t0:.1f} s: {status}")
    assert status["failures"] == [] and status["audited"][0] == 1
    # this friend answers at once, faster than a person: the host's rate limit may slow it down, nothing else
    assert set(status["errors"]) <= {"online.rate"} and len(status["errors"]) < 20, status["errors"]
    assert host.evaluate("() => online.pyStatus()")["position"][0] >= 2


@pytest.mark.parametrize("game,options,kinds", [
    ("chkobba", {"players": 4}, ["host", "remote", "remote", "computer"]),
    ("seven_diamonds", {}, ["host", "remote", "remote", "remote"]),
], ids=["chkobba-2v2", "seven-diamonds-4-phones"])
def test_online_a_round_with_friends_on_their_own_pages(make_page: Any, game: str, options: dict[str, Any],
                                                        kinds: list[str]) -> None:
    """The host's page and one page per friend (each on its own data channel
    to the host; Chkobba 2v2 with the computer at seat 3, Seven Diamonds with
    four phones); every friend audits round 1."""
    host = bench(make_page)
    friends = {seat: bench(make_page) for seat, kind in enumerate(kinds) if kind == "remote"}
    for seat, friend in friends.items():
        offer = host.evaluate("([id]) => online.host({}, id)", [seat])
        answer = friend.evaluate("(t) => online.join(t, {})", offer)
        host.evaluate("([t, id]) => online.accept(t, id)", [answer, seat])
        host.evaluate("([id]) => online.opened(id)", [seat])
        friend.evaluate("() => online.opened()")
    for page in (host, *friends.values()):
        page.evaluate("() => online.python()")
    t0 = time.perf_counter()
    host.evaluate("([g, o, k]) => online.runHost(g, o, k)", [game, options, kinds])
    for seat, friend in friends.items():
        friend.evaluate("(s) => online.runGuest(s)", seat)
    for friend in friends.values():
        friend.wait_for_function("() => online.pyStatus().audited.length >= 1 || online.pyStatus().failures.length",
                                 timeout=90_000)
    print(f"\nonline: a {game} round across {len(friends) + 1} pages in {time.perf_counter() - t0:.1f} s")
    for friend in friends.values():
        status = friend.evaluate("() => online.pyStatus()")
        assert status["failures"] == [] and status["audited"][0] == 1
        assert set(status["errors"]) <= {"online.rate"}, status["errors"]

