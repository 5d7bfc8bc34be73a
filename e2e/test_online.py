"""The online transport (web/online/peer.js) between two browser contexts on
this machine: the host's offer and the friend's answer pass by hand (the test
carries the texts, as a link or a QR code would), messages flow both ways,
and the heartbeat notices a peer that went quiet or left. No request leaves
the origin (the fixtures check every request)."""

from __future__ import annotations

import time
from typing import Any

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
