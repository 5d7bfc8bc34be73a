"""Two kinds of relay at once (web/online/signal.js, web/online/nostr.js):
WebTorrent trackers and Nostr relays (`nostr+wss://` in the relay list).
Two phones still find each other when every tracker is dead (through a
Nostr relay started by the test on this machine, e2e/nostr_relay.mjs, which
checks each event's signature as a public relay does), and when every Nostr
relay is dead (through the local tracker); in both, the page's policy allows
exactly the relays configured, and what a relay sees of the set-up is
sealed."""

from __future__ import annotations

import re
import socket
from pathlib import Path
from typing import Any, Iterator

import pytest
from e2e_driver import PHONE
from test_online_play import open_host
from test_online_relay import NO_STUN, LocalRelay, Tracker, sockets_of, start_relay, tracker  # noqa: F401 (the tracker fixture)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def nostr_relay() -> Iterator[LocalRelay]:
    relay = start_relay([str(ROOT / "e2e" / "nostr_relay.mjs")], "Nostr relay")
    yield relay
    relay.stop()


def dead_port() -> str:
    """A closed port on this machine: a relay that is down."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"ws://127.0.0.1:{s.getsockname()[1]}"


def policy_sources(page: Any) -> list[str]:
    metas = page.eval_on_selector_all('meta[http-equiv="Content-Security-Policy"]', "els => els.map(e => e.content)")
    assert len(metas) == 2, metas
    words = metas[1].split()
    assert words[:2] == ["connect-src", "'self'"], metas
    return sorted(w.rstrip("/") for w in words[2:])


def forget_dead_sockets(page: Any) -> None:
    page.watch.console[:] = [c for c in page.watch.console if "WebSocket connection to" not in c]


def connect_over(make_page: Any, relays: list[str], sockets: set[str]) -> tuple[Any, Any, list[str]]:
    """The host names these relays and agrees; the friend opens the
    invitation and agrees; returns both pages once the friend sees the table,
    and every WebSocket either page opened."""
    host = open_host(make_page)
    host.watch.allowed.update(sockets)
    opened = sockets_of(host)
    host.check("input[name=via][value=internet]")
    host.click(".net-settings summary")
    host.fill("textarea[name=relays]", "\n".join(relays))
    host.fill("textarea[name=stun]", "")
    host.click("#host-button")
    host.wait_for_selector("#consent:not([hidden])")
    assert len(host.locator("#consent .consent-list li").all_inner_texts()) == len(relays)
    assert opened == []
    host.click("#consent-yes")
    card = host.locator(".invite-card[data-seat='1'][data-state=inviting]")
    card.wait_for()
    link = card.get_attribute("data-link")
    friend = make_page(PHONE)
    friend.watch.allowed.update(sockets)
    friend_opened = sockets_of(friend)
    friend.add_init_script(NO_STUN)
    friend.goto(link)
    friend.wait_for_selector("#consent:not([hidden])")
    assert friend_opened == []   # nothing before the player agrees
    assert len(friend.locator("#consent .consent-list li").all_inner_texts()) == len(relays)
    friend.click("#consent-yes")
    friend.wait_for_function("() => window.chkobbaOnline.friend && window.chkobbaOnline.timing.view")
    host.wait_for_selector("#presence [data-seat='1'][data-state='here'], #presence [data-seat='1'][data-state='thinking']")
    for page in (host, friend):
        # the page's policy allows exactly the relays configured (a Nostr relay without its prefix)
        assert policy_sources(page) == sorted(s.rstrip("/") for s in sockets)
        forget_dead_sockets(page)
    return host, friend, opened + friend_opened


def test_online_two_phones_connect_through_a_nostr_relay_when_the_tracker_is_dead(
        make_page: Any, nostr_relay: LocalRelay) -> None:
    tracker_url = dead_port()
    host, friend, opened = connect_over(make_page, [tracker_url, "nostr+" + nostr_relay.url],
                                        {tracker_url, nostr_relay.url})
    assert {u.rstrip("/") for u in opened} == {tracker_url, nostr_relay.url}   # both kinds tried
    host.close()
    friend.close()
    nostr_relay.stop()
    msgs = nostr_relay.messages()
    events = [m[1] for m in msgs if m[0] == "EVENT"]
    assert len({e["pubkey"] for e in events}) == 2   # the host's offer and the friend's answer, each page's own key
    assert {m[0] for m in msgs} <= {"REQ", "EVENT", "CLOSE"}
    for e in events:
        assert 20000 <= e["kind"] < 30000   # ephemeral: a relay keeps none
        assert [t[0] for t in e["tags"]] == ["x"]
        assert re.fullmatch(r"[A-Za-z0-9_-]+", e["content"])   # sealed
    for line in nostr_relay.lines:
        assert "candidate" not in line and "ufrag" not in line and "sdp" not in line
        assert "ERROR" not in line   # every event's id and signature checked out


def test_online_two_phones_connect_through_the_tracker_when_the_nostr_relay_is_dead(
        make_page: Any, tracker: Tracker) -> None:
    nostr_url = dead_port()
    host, friend, opened = connect_over(make_page, [tracker.url, "nostr+" + nostr_url], {tracker.url, nostr_url})
    assert {u.rstrip("/") for u in opened} == {tracker.url, nostr_url}   # both kinds tried
    host.close()
    friend.close()
    tracker.proc.terminate()
    out, _ = tracker.proc.communicate(timeout=10)
    assert any("answer" in line for line in out.split("\n") if line.startswith("MSG "))


def test_online_relay_list_takes_both_kinds(page: Any) -> None:
    page.goto(page.base_url + "online.html")
    page.wait_for_selector(".ready", state="attached")
    got = page.evaluate("""async () => { const m = await import('./online/signal.js');
        const refused = (t) => { try { m.parseRelays(t); return false; } catch { return true; } };
        return { ok: m.parseRelays('wss://a.example  nostr+wss://b.example\\nNOSTR+wss://c.example/x'),
                 refused: ['nostr+https://b.example', 'nostr+ws://b.example', 'nostr+wss://u:p@b.example',
                           'nostr+', 'nostr:wss://b.example'].map(refused),
                 nostr: m.isNostr('nostr+wss://b.example/') && !m.isNostr('wss://a.example/') }; }""")
    assert got["ok"] == ["wss://a.example/", "nostr+wss://b.example/", "nostr+wss://c.example/x"]
    assert got["nostr"]
    assert got["refused"] == [True] * 5, got
