"""Online timers (chkobba.online.host.HostTable ``timers``): a player who
runs out of time gets the engine's ``timeout`` move (Seven Diamonds), or, in
Chkobba (no timeout move in its rules), the easy computer's move for that
seat; a new position starts a new clock; the setting is kept in the save."""

from __future__ import annotations

from test_online import Net, started

from chkobba.online.host import HOST, REMOTE, HostTable


def wait(net: Net, seconds: float) -> None:
    net.host.heartbeat_timeout = 1e9   # the phones' heartbeats are not simulated here: they stay
    net.deliver(net.host.tick())   # the turn's clock starts at the first tick that sees it
    net.clock.now += seconds
    net.deliver(net.host.tick())


def friend_to_act(net: Net, seat: int = 1) -> None:
    h = net.host
    for _ in range(200):
        s = h.session
        assert s is not None
        if s.to_act() == seat:
            return
        assert net.step()
    raise AssertionError("the friend never got the turn")


def test_seven_diamonds_a_friend_out_of_time_gets_the_timeout_move() -> None:
    net = started("seven_diamonds", {}, [HOST, REMOTE, REMOTE, REMOTE])
    h = net.host
    h.timers = (10.0, 12.0)
    friend_to_act(net)
    assert h.session is not None
    before = h.position()
    limit = h._limit()
    assert limit in (10.0, 12.0)
    wait(net, limit - 0.5)
    assert h.position() == before and h.time_left() is not None and h.time_left() <= 0.5   # not yet
    wait(net, 1.0)
    assert h.position() != before
    actions = h.session.record_value().rounds[-1].actions
    assert actions[-1] == "timeout"
    # every friend's phone was told, as of any move (the live log its audit checks)
    assert any(m["type"] == "move" and m["action"] == "timeout" for m in net.inbox[2])


def test_chkobba_a_friend_out_of_time_gets_the_easy_computers_move() -> None:
    net = started()
    h = net.host
    h.timers = (30.0, 30.0)
    friend_to_act(net)
    s = h.session
    assert s is not None
    legal = s.legal()
    before = h.position()
    wait(net, 29.0)
    assert h.position() == before
    wait(net, 2.0)
    assert h.position() != before
    played = s.record_value().rounds[before[0] - 1].actions[before[1]]
    assert played in legal and played != "timeout"


def test_a_move_in_time_starts_a_new_clock_and_no_timer_means_none() -> None:
    net = started()
    h = net.host
    h.timers = (30.0, 30.0)
    friend_to_act(net, 0)
    wait(net, 20.0)
    net.deliver(h.host_act(h.session.legal()[0]))   # the host plays in time
    friend_to_act(net, 0)
    wait(net, 20.0)   # 40 s since the first clock started, 20 s on this one
    assert h.session is not None and h.session.to_act() == 0
    off = started()
    friend_to_act(off, 1)
    pos = off.host.position()
    wait(off, 3600.0)
    assert off.host.position() == pos and off.host.time_left() is None


def test_the_timers_are_kept_in_the_save() -> None:
    net = started()
    net.host.timers = (10.0, 12.0)
    again = HostTable.resume(net.host.save(), net.clock)
    assert again.timers == (10.0, 12.0)
    assert HostTable.resume(started().host.save(), net.clock).timers is None
