"""The round's end and the match's: a rematch at the same seats (new seeds,
the same secrets), asked for by a friend but started only by the host; a
finished table resumed offers a rematch; quick reactions and the host's own;
the rate allowances (heartbeats apart, a refusal answering the type it
refused); the clock of a timed turn sent to every phone."""

from __future__ import annotations

import json
import random

import pytest

from test_online import Net, snapshot, started

from chkobba.online import wire
from chkobba.online.deal import deck, round_seed
from chkobba.online.guest import Guest
from chkobba.online.host import COMPUTER, HOST, READING, REMOTE, HostTable


def finished(game: str = "chkobba", options: dict[str, object] | None = None,
             kinds: list[str] | None = None, seed: int = 3) -> Net:
    net = started(game, options, kinds, seed)
    net.play(rounds=10_000, limit=20_000)
    assert net.host.over, net.host.position()
    return net


def test_a_rematch_keeps_the_seats_and_deals_from_new_seeds_that_audit() -> None:
    net = finished()
    h, g = net.host, net.guests[1]
    old_seeds = {n: dict(sd.reveals) for n, sd in h.seeds.items()}
    old_deck = h.session.record_value().rounds[0].decks[0] if h.session else None
    old_secret_hash, old_peer = h.seats[1].secret_hash, h.seats[1].peer
    played = len(h.session.record_value().rounds) if h.session else 0
    assert g.audit_failures == [] and g.audited == list(range(1, played + 1))
    net.deliver(h.rematch())
    assert h.match == 2 and g.match == 2
    assert h.session is not None and not h.over and h.position()[0] == 1, "round 1 of the new match is dealt"
    # the same phone at the same seat, by the same secret
    assert (h.seats[1].secret_hash, h.seats[1].peer) == (old_secret_hash, old_peer) and not h.computer_plays(1)
    # fresh seeds from every phone: none of the last match's (its audits revealed them)
    new = h.seeds[1].reveals
    assert set(new) == {0, 1} and not set(new.values()) & {s for r in old_seeds.values() for s in r.values()}
    assert g.seeds[1] == new[1]
    first = h.session.record_value().rounds[0].decks[0]
    assert first == deck("chkobba", round_seed("chkobba", 1, new), 0) and first != old_deck
    assert [m["type"] for m in net.inbox[1]].count("rematch") == 1
    # the new match plays and every round of it audits on the friend's phone
    net.play(rounds=2)
    assert g.audit_failures == [] and g.audited[:2] == [1, 2], (g.audited, g.audit_failures)


def test_a_rematch_before_the_match_is_over_does_nothing() -> None:
    net = started()
    before = snapshot(net.host)
    assert net.host.rematch() == [] and snapshot(net.host) == before and net.host.match == 1


def test_a_friend_cannot_start_a_rematch_only_ask_for_one() -> None:
    net = started("chkobba", {"players": 4}, [HOST, REMOTE, REMOTE, COMPUTER])
    h = net.host
    net.clock.now += 5
    # during the match, "rematch" is a reaction like another: nobody is counted as asking
    net.send(1, wire.encode(wire.Reaction("rematch")))
    assert h.rematch_asks == set()
    net.play(rounds=10_000, limit=20_000)
    assert h.over
    before = snapshot(h)
    # no message starts one: there is no such type
    (_, refused), = net.send(1, json.dumps({"v": 1, "type": "rematch"}))
    assert refused["code"] == "online.type" and snapshot(h) == before
    net.clock.now += 10
    out = net.send(2, wire.encode(wire.Reaction("rematch")))
    assert snapshot(h) == before and h.match == 1 and h.over, "asking starts nothing"
    assert h.rematch_asks == {2}
    assert [p["rematch"] for p in h.presence()] == [False, False, True, False]
    # every friend sees who asked (the reaction at its seat, and the seats' line)
    assert {(p, m["type"]) for p, m in out} >= {(1, "reaction"), (2, "reaction"), (1, "seats")}
    assert (2, "rematch") in net.guests[1].reactions
    net.deliver(h.rematch())
    assert h.rematch_asks == set() and h.match == 2


def test_a_finished_table_resumed_offers_a_rematch_not_a_game() -> None:
    net = finished()
    h = net.host
    saved = json.loads(json.dumps(h.save()))
    assert saved["over"] is True and saved["match"] == 1
    h2 = HostTable.resume(saved, net.clock, rng=random.Random(4))
    assert h2.over and h2.session is not None and h2.session.legal() == [], "nothing to play: the match is over"
    net.host = h2
    g = net.guests.pop(1)
    net.deliver(h2.rematch())   # the host's page: "Rematch" on the finished table
    assert h2.match == 2 and h2.session is not None and not h2.over, "the host's seed alone deals round 1"
    assert h2.seeds[1].seats == [0]
    # the friend comes back with its kept secret: the same seat, and plays the new match
    net.add_guest(7, g)
    assert h2.seats[1].peer == 7 and g.match == 2 and h2.present(1)
    thief = Guest(1)
    h2.connect(8)
    (_, msg), = net.send(8, thief.join())
    assert msg["code"] == "online.seat_taken"
    net.play(rounds=2)
    assert g.audit_failures == [] and 2 in g.audited, (g.audited, g.audit_failures)
    # a save of the rematch resumes as match 2
    assert HostTable.resume(json.loads(json.dumps(h2.save())), net.clock).match == 2


def test_a_guest_forgets_the_last_matchs_seeds_and_keeps_them_across_a_reload() -> None:
    g = Guest(1)
    g.receive({"type": "commit_request", "round": 1, "seats": [0, 1], "match": 1})
    first = g.my_commits[1]
    g.receive({"type": "rematch", "match": 2})
    assert g.seeds == {} and g.match == 2
    g.receive({"type": "commit_request", "round": 1, "seats": [0, 1], "match": 2})
    assert g.my_commits[1] != first
    back = Guest.resume(json.loads(json.dumps(g.save())))
    assert back.match == 2 and back.my_commits == g.my_commits
    # a page that missed the rematch message learns it from the welcome
    late = Guest(1)
    late.receive({"type": "commit_request", "round": 1, "seats": [0, 1], "match": 1})
    late.receive({"type": "welcome", "seat": 1, "game": "chkobba", "options": {}, "seats": [], "match": 2})
    assert late.seeds == {} and late.match == 2


# ------------------------------------------------------------------ reactions

def test_the_hosts_own_reactions_reach_every_friend_and_are_limited_quietly() -> None:
    net = started()
    h = net.host
    out = h.host_react("well_played")
    assert out == [(1, {"v": 1, "type": "reaction", "seat": 0, "reaction": "well_played"})]
    assert h.reactions[-1][1:] == (0, "well_played")
    h.host_react("bravo")
    h.host_react("thanks")
    with pytest.raises(wire.OnlineError) as over:   # a fourth reaction at once is over the allowance
        h.host_react("oops")
    assert over.value.code == "online.rate"
    with pytest.raises(wire.OnlineError) as free:   # no free text
        h.host_react("you lose")
    assert free.value.code == "online.field"


def test_a_limited_reaction_answers_its_type() -> None:
    net = started()
    net.clock.now += 5
    answers = [net.send(1, wire.encode(wire.Reaction("bravo"))) for _ in range(4)]
    (_, refused), = answers[3]
    assert refused["code"] == "online.rate" and refused["answers"] == "reaction"


# ------------------------------------------------------------------ allowances

def test_heartbeats_do_not_use_up_the_moves_allowance() -> None:
    net = started()
    h = net.host
    net.clock.now += 5
    # a phone's heartbeats, even many at once, leave its moves' allowance whole
    beats = [m for _ in range(30) for _, m in h.receive(1, wire.encode(wire.Heartbeat(1)))]
    assert [m["type"] for m in beats].count("heartbeat") == 4
    refused = [m for m in beats if m["type"] == "error"]
    assert {(m["code"], m["answers"]) for m in refused} == {("online.rate", "heartbeat")}
    codes = [m["code"] for _ in range(16) for _, m in h.receive(1, "{}")]
    assert codes == ["online.version"] * 16, "the moves' allowance is whole"
    # and a flood of other messages leaves heartbeats answered
    net.clock.now += 10
    for _ in range(40):
        h.receive(1, "{}")
    assert h.receive(1, wire.encode(wire.Heartbeat(2)))[0][1]["type"] == "heartbeat"


def test_a_rate_refusal_names_the_type_it_refused() -> None:
    net = started()
    h = net.host
    net.clock.now += 5
    for _ in range(16):
        h.receive(1, wire.encode(wire.Act("7D", 9, 9)))
    (_, m), = h.receive(1, wire.encode(wire.Act("7D", 9, 9)))
    assert (m["code"], m["answers"]) == ("online.rate", "act")
    (_, m), = h.receive(1, "not json")
    assert (m["code"], m["answers"]) == ("online.rate", "?")


# ------------------------------------------------------------------ the clock

def test_every_phone_is_sent_the_clock_of_a_timed_turn() -> None:
    net = started("seven_diamonds", {}, [HOST, REMOTE, REMOTE, REMOTE])
    h = net.host
    h.timers = (10.0, 12.0)
    h.heartbeat_timeout = 1e9
    for peer in net.inbox:
        net.inbox[peer].clear()
    net.deliver(h.tick())
    clocks = [m["clock"] for m in net.inbox[2] if m["type"] == "seats" and m.get("clock")]
    assert clocks, "the turn's clock started: every phone is told"
    c = clocks[-1]
    assert h.session is not None
    assert (c["round"], c["ply"]) == h.position() and c["seat"] == h.session.to_act() and c["left"] in (10, 12)
    assert clocks == [m["clock"] for m in net.inbox[1] if m["type"] == "seats" and m.get("clock")]


def test_the_first_turn_of_a_later_round_has_time_to_read_the_summary() -> None:
    net = started()
    h = net.host
    h.timers = (30.0, 30.0)
    assert h.position()[1] == 0 and h._limit() == 30.0
    net.play(rounds=1)
    assert h.session is not None and not h.session.is_over and h.position() == (2, 0)
    assert h._limit() == 30.0 + READING


def test_a_phone_whose_moves_used_up_their_allowance_still_commits_its_seed() -> None:
    """The next round's seeds are asked while a fast phone may have used up
    its moves' allowance: its commitment and seed are not refused for it (the
    round would wait for them for ever)."""
    net = Net("chkobba", {"players": 2}, [HOST, REMOTE])
    h = net.host
    g = net.guests[1]
    for _ in range(20):
        h.receive(1, wire.encode(wire.Act("7D", 9, 9)))   # the moves' allowance used up
    (_, refused), = h.receive(1, wire.encode(wire.Act("7D", 9, 9)))
    assert refused["code"] == "online.rate"
    net.deliver(h.start())   # round 1's seeds asked now: committed and revealed all the same
    assert h.seeds[1].ready() and h.session is not None and g.seeds[1] == h.seeds[1].reveals[1]
