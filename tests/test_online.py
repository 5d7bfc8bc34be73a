"""chkobba.online: the message edge, seats and secrets, the committed seeds,
the round audit, and what a friend's phone is sent (never another's hand)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chkobba.online import wire
from chkobba.online.deal import audit, commitment, deck, round_seed
from chkobba.online.guest import Guest
from chkobba.online.host import COMPUTER, HOST, REMOTE, HostTable, SeatSpec, TokenBucket
from chkobba.records import Record, RoundRecord
from chkobba.session import Session
from hidden_cards import cards_in, others_hands, view_leak


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Net:
    """A host and its guests, passing messages as JSON text both ways."""

    def __init__(self, game: str, options: dict[str, Any], kinds: list[str], seed: int = 0,
                 level: str = "easy") -> None:
        self.clock = Clock()
        self.rng = random.Random(seed)
        seeds = random.Random(seed + 1)
        self.host = HostTable(game, options, [SeatSpec(k, level) for k in kinds], self.clock,
                              rng=random.Random(seed + 2), host_seed=lambda: "%032x" % seeds.getrandbits(128))
        self.guests: dict[int, Guest] = {}
        self.inbox: dict[int, list[dict[str, Any]]] = {}  # peer -> every message it got, as sent
        self.log: list[tuple[int, dict[str, Any], tuple[int, int]]] = []  # (peer, msg, host position)
        for seat, kind in enumerate(kinds):
            if kind == REMOTE:
                self.add_guest(seat, Guest(seat, "%032x" % seeds.getrandbits(128),
                                           seed=lambda: "%032x" % seeds.getrandbits(128)))

    def add_guest(self, peer: int, guest: Guest) -> None:
        self.guests[peer] = guest
        self.host.connect(peer)
        self.inbox.setdefault(peer, [])
        self.send(peer, guest.join())

    def deliver(self, out: list[tuple[int, dict[str, Any]]]) -> None:
        queue = list(out)
        while queue:
            peer, msg = queue.pop(0)
            text = json.dumps(msg)
            got = json.loads(text)
            self.inbox.setdefault(peer, []).append(got)
            self.log.append((peer, got, self.host.position()))
            guest = self.guests.get(peer)
            if guest is not None and peer in self.host.peers:
                for reply in guest.receive(got):
                    queue += self.host.receive(peer, reply)

    def send(self, peer: int, text: str | bytes) -> list[tuple[int, dict[str, Any]]]:
        out = self.host.receive(peer, text)
        self.deliver(out)
        return out

    def step(self) -> bool:
        """One move by whoever is to act; False when nothing can move."""
        h = self.host
        self.deliver(h.tick())
        s = h.session
        if s is None or s.is_over:
            return False
        seat = s.to_act()
        if seat is None:
            return False
        if seat == h.host_seat:
            self.deliver(h.host_act(self.rng.choice(s.legal())))
        else:
            peer = h.seats[seat].peer
            if peer is None or h.computer_plays(seat):
                return False
            g = self.guests[peer]
            assert g.view is not None and g.legal, "the guest to act was sent its legal actions"
            self.send(peer, g.act(self.rng.choice(g.legal)))
        self.clock.now += 0.3
        return True

    def play(self, rounds: int, limit: int = 5000) -> None:
        for _ in range(limit):
            if self.host.position()[0] > rounds or not self.step():
                if self.host.session is not None and self.host.session.is_over:
                    return
                self.deliver(self.host.tick())
                if self.host.position()[0] > rounds:
                    return


def snapshot(h: HostTable) -> Any:
    """Everything a message could change."""
    s = h.session
    return (s.record_json() if s else None, h.position(),
            [(x.secret_hash, x.peer, x.away_since) for x in h.seats],
            {n: (list(sd.seats), dict(sd.commits), dict(sd.reveals), sd.announced) for n, sd in h.seeds.items()},
            {p: q.seat for p, q in h.peers.items()}, {r: list(a) for r, a in h.seen.items()})


# ------------------------------------------------------------------ wire

GOOD: list[wire.Message] = [wire.Join(1, "ab" * 16), wire.Act("claim QHx7DAS", 2, 7), wire.Commit(1, "0f" * 32),
        wire.Reveal(3, "12" * 16), wire.Heartbeat(123456), wire.Reaction("bravo"), wire.Leave()]


@pytest.mark.parametrize("msg", GOOD, ids=lambda m: type(m).__name__)
def test_every_message_reads_back_as_written(msg: wire.Message) -> None:
    assert wire.read(wire.encode(msg)) == msg
    assert wire.read(wire.encode(msg).encode()) == msg


@pytest.mark.parametrize("text,code", [
    ("x" * 2000, "online.too_large"),
    ('{"v": 1, "type": "leave", "type": "leave"}', "online.duplicate_key"),
    ('{"v": 1, "type": "heartbeat", "t": NaN}', "online.json"),
    ("[1, 2]", "online.not_object"),
    ("{", "online.json"),
    (b'{"v": 1, "type": "leave"\xff}', "online.json"),
    ('[' * 600 + ']' * 600, "online.too_large"),
    ('[' * 400 + ']' * 400, "online.not_object"),
    ('{"v": 2, "type": "leave"}', "online.version"),
    ('{"v": true, "type": "leave"}', "online.version"),
    ('{"v": 1, "type": "shout"}', "online.type"),
    ('{"v": 1, "type": "leave", "seat": 1}', "online.fields"),
    ('{"v": 1, "type": "act", "action": "7D", "round": 1}', "online.fields"),
    ('{"v": 1, "type": "act", "action": "7D", "round": true, "ply": 0}', "online.field"),
    ('{"v": 1, "type": "act", "action": "7D", "round": 0, "ply": 0}', "online.field"),
    ('{"v": 1, "type": "act", "action": "' + "7" * 65 + '", "round": 1, "ply": 0}', "online.field"),
    ('{"v": 1, "type": "act", "action": "7D\\n", "round": 1, "ply": 0}', "online.field"),
    ('{"v": 1, "type": "join", "seat": 1, "secret": "' + "AB" * 16 + '"}', "online.field"),
    ('{"v": 1, "type": "join", "seat": 9, "secret": "' + "ab" * 16 + '"}', "online.field"),
    ('{"v": 1, "type": "reaction", "reaction": "you lose"}', "online.field"),
    ('{"v": 1, "type": "commit", "round": 1, "hash": "abc"}', "online.field"),
])
def test_bad_messages_get_one_line_with_a_code(text: str | bytes, code: str) -> None:
    with pytest.raises(wire.OnlineError) as err:
        wire.read(text)
    assert err.value.code == code
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


def test_the_fields_error_says_which_fields_may_be_left_out() -> None:
    with pytest.raises(wire.OnlineError) as err:
        wire.read('{"v": 1, "type": "join", "seat": 1}')
    assert str(err.value) == 'a "join" message has the fields v, type, seat, secret, and may have name'
    with pytest.raises(wire.OnlineError) as err:
        wire.read('{"v": 1, "type": "leave", "seat": 1}')
    assert str(err.value) == 'a "leave" message has exactly the fields v, type'


def test_token_bucket_refills_with_the_clock() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=2.0, burst=3.0, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.5
    assert bucket.take() and not bucket.take()
    clock.now += 100
    assert sum(bucket.take() for _ in range(10)) == 3


# ----------------------------------------------------------- seats, turns

def started(game: str = "chkobba", options: dict[str, Any] | None = None, kinds: list[str] | None = None,
            seed: int = 0) -> Net:
    net = Net(game, options if options is not None else {"players": 2}, kinds or [HOST, REMOTE], seed)
    net.deliver(net.host.start())
    assert net.host.session is not None, "every phone committed and revealed: the game is dealt"
    return net


def test_a_seat_belongs_to_its_secret_not_to_its_number() -> None:
    net = started()
    g = net.guests[1]
    net.host.connect(50)
    before = snapshot(net.host)
    thief = Guest(1)  # knows the seat number, not the secret
    out = net.send(50, thief.join())
    assert [m["code"] for _, m in out] == ["online.seat_taken"] and snapshot(net.host) == before
    # the owner's phone reconnects (new connection) with its secret and takes its seat back
    net.host.disconnect(1)
    net.host.connect(51)
    out = net.send(51, g.join())
    assert out[0][1]["type"] == "welcome" and out[0][1]["seat"] == 1
    assert net.host.seats[1].peer == 51 and not net.host.computer_plays(1)
    # neither the host's seat nor a computer's can be claimed
    net.host.connect(52)
    for seat in (0, 3):
        (_, msg), = net.send(52, wire.encode(wire.Join(seat, "cd" * 16)))
        assert msg["code"] == "online.no_seat"


def test_a_guest_acts_only_on_its_turn_and_for_the_position_it_saw() -> None:
    net = started()
    h, g = net.host, net.guests[1]
    while h.session is not None and h.session.to_act() != 0:
        assert net.step()
    before = snapshot(h)
    legal_for_host = h.session.legal()[0] if h.session else ""
    (_, msg), = net.send(1, g.act(legal_for_host))
    assert msg["code"] == "online.not_your_turn" and snapshot(h) == before
    while h.session is not None and h.session.to_act() == 0:
        net.deliver(h.host_act(h.session.legal()[0]))
    assert h.session is not None and h.session.to_act() == 1
    before = snapshot(h)
    (_, msg), = net.send(1, wire.encode(wire.Act(h.session.legal()[0], 1, 0)))  # an old position
    assert msg["code"] == "online.stale" and snapshot(h) == before
    (_, msg), = net.send(1, g.act("KKD"))  # unreadable: the engine's one-line reason
    assert msg["code"].startswith(("card.", "action.")) and snapshot(h) == before


def test_a_peer_must_sit_down_before_anything_but_a_heartbeat() -> None:
    net = started()
    net.host.connect(9)
    before = snapshot(net.host)
    for msg in GOOD[1:]:
        if isinstance(msg, (wire.Heartbeat,)):
            (_, ans), = net.send(9, wire.encode(msg))
            assert ans == {"v": 1, "type": "heartbeat", "t": msg.t}
        elif not isinstance(msg, wire.Join):
            (_, ans), = net.send(9, wire.encode(msg))
            assert ans["code"] == "online.not_seated"
    assert snapshot(net.host) == before


def test_flooding_is_refused_without_changing_anything() -> None:
    net = started()
    net.clock.now += 5  # a full bucket (heartbeats not yet late)
    before = snapshot(net.host)
    answers = [net.host.receive(1, "{}") for _ in range(200)]
    codes = [m["code"] for out in answers for _, m in out]
    # 16 read and refused, then 64 over the allowance; past the flood allowance (80) dropped unread, unanswered
    assert codes.count("online.version") == 16 and codes.count("online.rate") == 64
    assert answers[80:] == [[]] * 120
    assert snapshot(net.host) == before
    net.clock.now += 10
    assert net.host.receive(1, wire.encode(wire.Heartbeat(1)))[0][1]["type"] == "heartbeat"


def test_reactions_reach_every_friend_but_are_rate_limited() -> None:
    net = started("chkobba", {"players": 4}, [HOST, REMOTE, REMOTE, COMPUTER])
    net.clock.now += 5
    answers = [net.send(1, wire.encode(wire.Reaction("bravo"))) for _ in range(5)]
    assert [sorted(p for p, _ in out) for out in answers[:3]] == [[1, 2]] * 3
    assert [[m["code"] for _, m in out] for out in answers[3:]] == [["online.rate"]] * 2
    assert net.guests[2].reactions == [(1, "bravo")] * 3
    net.clock.now += 4
    assert len(net.send(1, wire.encode(wire.Reaction("thanks")))) == 2


# --------------------------------------------------------------- fuzzing

near = st.fixed_dictionaries({"v": st.sampled_from([1, 1, 1, 0, 2, "1", True]),
                              "type": st.sampled_from(list(wire.FIELDS) + ["x", ""])},
                             optional={"seat": st.integers(-2, 5) | st.text(max_size=3),
                                       "secret": st.text("0123456789abcdefAB", min_size=30, max_size=34),
                                       "action": st.text(max_size=70) | st.sampled_from(["7D", "keep", "pass"]),
                                       "round": st.integers(-1, 4) | st.booleans(),
                                       "ply": st.integers(-1, 50), "hash": st.text("0af", min_size=63, max_size=65),
                                       "seed": st.text("0af", min_size=31, max_size=33),
                                       "t": st.integers(-1, 2**54) | st.floats(),
                                       "reaction": st.sampled_from(list(wire.REACTIONS) + ["hi"]),
                                       "extra": st.none()})
junk = (st.binary(max_size=1500) | st.text(max_size=1500)
        | near.map(json.dumps)
        | near.map(lambda d: json.dumps(d)[:-1] + ', "type": "leave"}')
        | st.recursive(st.none() | st.integers() | st.text(max_size=5), lambda c: st.lists(c, max_size=4)
                       | st.dictionaries(st.text(max_size=4), c, max_size=4)).map(json.dumps))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(junk, min_size=1, max_size=30), st.sampled_from([1, 77]), st.integers(0, 3))
def test_fuzzed_messages_never_crash_and_a_refusal_changes_nothing(texts: list[Any], peer: int, seed: int) -> None:
    net = started(seed=seed)
    net.host.connect(77)
    for text in texts:
        before = snapshot(net.host)
        out = net.host.receive(peer, text)
        errors = [m for _, m in out if m["type"] == "error"]
        if errors:
            assert len(out) == 1 and snapshot(net.host) == before
            assert errors[0]["code"].split(".")[0] in ("online", "card", "action", "deal", "play", "capture",
                                                      "claim", "chkobba", "seven_diamonds", "match")
        json.dumps(out)  # every answer can be sent


# ------------------------------------------------- what a guest receives


def check_guest_stream(net: Net) -> int:
    """Every message each guest got: no card in another seat's hand at that
    moment; seeds of a round only in that round's audit, after it ended."""
    h = net.host
    assert h.session is not None
    record = h.session.record_json()
    checked = 0
    audited: set[tuple[int, int]] = set()
    for peer, msg, pos in net.log:
        guest = net.guests.get(peer)
        if guest is None:
            continue
        seat = guest.seat
        kind = msg["type"]
        if kind == "audit":
            assert msg["round"] < pos[0] or h.session.is_over, "a round's deck is sent only once it is over"
            audited.add((peer, msg["round"]))
            continue
        for number, sd in h.seeds.items():
            if (peer, number) not in audited:
                others = {s: v for s, v in sd.reveals.items() if s != seat}
                assert not any(v in json.dumps(msg) for v in others.values()), "no other phone's seed before the audit"
                if sd.ready():
                    assert round_seed(h.game, number, sd.reveals) not in json.dumps(msg)
        if kind == "view":
            leak = view_leak(msg, record, seat)
            assert not leak, f"seat {seat} was shown {leak} at {(msg['round'], msg['ply'])}"
            checked += 1
        elif kind == "move":
            rounds = json.loads(record)["rounds"]
            assert rounds[msg["round"] - 1]["actions"][msg["ply"]] == msg["action"]
        elif kind == "error":
            leak = cards_in(msg) & others_hands(record, pos, seat)
            assert not leak
    return checked


@pytest.mark.parametrize("game,options,kinds", [
    ("chkobba", {"players": 2}, [HOST, REMOTE]),
    ("chkobba", {"players": 4}, [HOST, REMOTE, REMOTE, COMPUTER]),
    ("chkobba", {"players": 4}, [REMOTE, COMPUTER, HOST, REMOTE]),
    ("seven_diamonds", {}, [HOST, REMOTE, REMOTE, REMOTE]),
], ids=["chkobba-1v1", "chkobba-2v2", "chkobba-2v2-b", "seven-4-phones"])
@pytest.mark.parametrize("seed", [0, 1])
def test_a_guest_is_never_sent_another_seats_hidden_card(game: str, options: dict[str, Any],
                                                         kinds: list[str], seed: int) -> None:
    net = started(game, options, kinds, seed)
    net.play(rounds=2)
    h = net.host
    assert h.session is not None and (h.position()[0] >= 3 or h.session.is_over), h.position()
    assert check_guest_stream(net) > 20
    for g in net.guests.values():
        assert g.audit_failures == [] and g.audited[:2] == [1, 2], (g.audited, g.audit_failures)
        # the guest also checked the moves it saw live
        assert g.seen[1]


def test_the_stream_check_finds_a_leak() -> None:
    """The check above can fail: a host sending the whole table is caught."""
    net = started()
    h = net.host
    for _ in range(4):
        net.step()
    assert h.session is not None
    at = h.position()
    from chkobba.web.answer import Reader, answer
    from chkobba.web.edge import Seat
    whole = answer(h.session, Reader(1, 1, every=True), [Seat("human")] * 2, table="online")
    net.deliver([(1, {"v": 1, "type": "view", "round": at[0], "ply": at[1], "answer": whole, "legal": []})])
    with pytest.raises(AssertionError, match="was shown"):
        check_guest_stream(net)


# ------------------------------------------------------------- the audit

def honest_round(game: str = "chkobba", seed: int = 0) -> tuple[Record, dict[int, str], dict[int, str], dict[int, str]]:
    net = started(game, {"players": 2} if game == "chkobba" else {}, None if game == "chkobba" else
                  [HOST, REMOTE, REMOTE, REMOTE], seed)
    net.play(rounds=1)
    h = net.host
    assert h.session is not None and h.position()[0] >= 2
    record = h.session.record_value().copy()
    sd = h.seeds[1]
    seen = dict(enumerate(h.seen[1]))
    return record, dict(sd.commits), dict(sd.reveals), seen


@pytest.mark.parametrize("game", ["chkobba", "seven_diamonds"])
def test_the_audit_passes_an_honest_round(game: str) -> None:
    record, commits, reveals, seen = honest_round(game)
    audit(record, 1, commits, reveals, seen=seen, own=(1, reveals[1]))
    assert record.rounds[0].decks[0] == deck(game, round_seed(game, 1, reveals), 0)


def test_the_audit_catches_a_seed_changed_after_its_commitment() -> None:
    record, commits, reveals, seen = honest_round()
    changed = {**reveals, 0: "%032x" % (int(reveals[0], 16) ^ 1)}
    with pytest.raises(wire.OnlineError) as err:
        audit(record, 1, commits, changed, seen=seen)
    assert err.value.code == "online.audit_seed" and err.value.params["seat"] == 0
    # ... even when the host also changes its commitment to match (the guest holds the old one)
    recommitted = {**commits, 0: commitment(changed[0])}
    with pytest.raises(wire.OnlineError) as err:
        audit(record, 1, recommitted, changed, seen=seen)
    assert err.value.code == "online.audit_deck"
    # a host that replaced the guest's seed with one of its choosing
    mine = (1, reveals[1])
    forged = {**reveals, 1: "ab" * 16}
    with pytest.raises(wire.OnlineError) as err:
        audit(record, 1, {**commits, 1: commitment(forged[1])}, forged, seen=seen, own=mine)
    assert err.value.code in ("online.audit_own", "online.audit_deck")


def test_the_audit_catches_a_move_changed_after_the_fact() -> None:
    record, commits, reveals, seen = honest_round()
    actions = record.rounds[0].actions
    ply = next(i for i, a in enumerate(actions) if a not in ("keep", "table") and i > 2)
    state = Session.from_record(record, at=(1, ply)).state
    other = next(str(a) for a in state.legal_actions() if str(a) != actions[ply])
    actions[ply] = other  # a legal move, but not the one played
    with pytest.raises(wire.OnlineError) as err:
        audit(record, 1, commits, reveals, seen=seen)
    assert err.value.code == "online.audit_moves" and err.value.params["ply"] == ply


def test_the_audit_catches_a_stacked_deck_and_an_illegal_record() -> None:
    record, commits, reveals, seen = honest_round()
    stacked = record.copy()
    d = stacked.rounds[0].decks[0]
    d[0], d[1] = d[1], d[0]
    with pytest.raises(wire.OnlineError) as err:
        audit(stacked, 1, commits, reveals)
    assert err.value.code == "online.audit_deck"
    broken = record.copy()
    broken.rounds[0].actions[3] = "pass"
    with pytest.raises(wire.OnlineError) as err:
        audit(broken, 1, commits, reveals)
    assert err.value.code == "online.audit_replay"


def test_a_guest_reports_a_host_that_rewrites_a_move() -> None:
    net = started()
    h = net.host
    net.play(rounds=1)
    g = net.guests[1]
    assert g.audited and not g.audit_failures
    assert h.session is not None
    # a dishonest host sends round 1's audit again with a changed move
    for _, msg, _ in net.log:
        if msg["type"] == "audit" and msg["round"] == 1:
            forged = json.loads(json.dumps(msg))
            forged["actions"][5] = "nothing"
            g.audited.clear()
            g.receive(forged)
            assert g.audit_failures and "online.audit_moves" in g.audit_failures[0][1]
            break
    else:
        pytest.fail("no audit of round 1 was sent")


# ------------------------------------------------- dropped seats, seeds

def test_a_dropped_seat_waits_then_the_computer_plays_it_until_its_owner_returns() -> None:
    net = started(seed=3)
    h, g = net.host, net.guests[1]
    while h.session is not None and h.session.to_act() != 1:
        assert net.step()
    net.deliver(h.disconnect(1))
    assert not h.computer_plays(1)
    position = h.position()
    net.deliver(h.tick())
    assert h.position() == position, "within the grace period the seat waits"
    net.clock.now += h.grace
    net.deliver(h.tick())
    assert h.position() != position, "after it, the computer plays the seat"
    # the owner comes back on a new connection with its secret
    h.connect(2)
    net.guests[2] = g
    net.inbox[2] = []
    net.send(2, g.join())
    assert h.seats[1].peer == 2 and not h.computer_plays(1)
    views = [m for m in net.inbox[2] if m["type"] == "view"]
    assert views and views[-1]["answer"]["view"]["seat"] == 1


def test_silent_heartbeats_count_as_a_departure() -> None:
    net = started()
    h = net.host
    net.clock.now += h.heartbeat_timeout + 1
    net.deliver(h.tick())
    assert h.seats[1].away_since is not None and 1 not in h.peers


def test_seeds_restart_without_a_phone_that_left_before_revealing() -> None:
    net = Net("chkobba", {"players": 2}, [HOST, REMOTE])
    h = net.host
    g = net.guests.pop(1)  # this phone will not answer
    out = h.start()
    assert [m["type"] for _, m in out] == ["commit_request"] and h.session is None
    net.clock.now += 5
    net.deliver(h.tick())
    assert h.session is None, "the round waits for the phone"
    net.clock.now += h.heartbeat_timeout
    net.deliver(h.tick())
    assert h.session is None and h.seats[1].away_since is not None, "silent: away, within its grace period"
    net.clock.now += h.grace
    net.deliver(h.tick())
    assert h.session is not None and h.seeds[1].seats == [0], "then deals from the phones still there"
    assert g.seeds == {}


def test_a_commitment_is_fixed_and_a_seed_must_match_it() -> None:
    net = Net("chkobba", {"players": 2}, [HOST, REMOTE])
    h = net.host
    g = net.guests.pop(1)
    net.deliver(h.start())
    seed = "11" * 16
    assert h.receive(1, wire.encode(wire.Reveal(1, seed)))[0][1]["code"] == "online.no_reveal"
    out = h.receive(1, wire.encode(wire.Commit(1, commitment(seed))))
    assert [m["type"] for _, m in out] == ["commits"]
    assert h.receive(1, wire.encode(wire.Commit(1, commitment("22" * 16))))[0][1]["code"] == "online.no_commit"
    before = snapshot(h)
    assert h.receive(1, wire.encode(wire.Reveal(1, "22" * 16)))[0][1]["code"] == "online.reveal_mismatch"
    assert snapshot(h) == before and h.session is None
    h.receive(1, wire.encode(wire.Reveal(1, seed)))
    assert h.session is not None and g.seat == 1


def test_the_wire_module_examples() -> None:
    import doctest
    assert doctest.testmod(wire).failed == 0


# ------------------------------------------------------- the host reloads

@pytest.mark.parametrize("game,options,kinds", [
    ("chkobba", {"players": 4}, [HOST, REMOTE, REMOTE, COMPUTER]),
    ("seven_diamonds", {}, [REMOTE, HOST, REMOTE, REMOTE]),
])
def test_the_host_reloads_and_the_table_resumes_from_its_save(game: str, options: dict[str, Any],
                                                              kinds: list[str]) -> None:
    net = started(game, options, kinds, seed=5)
    h = net.host
    for _ in range(30):
        net.step()
    assert h.session is not None
    saved = json.loads(json.dumps(h.save()))
    assert not any(g.secret in json.dumps(saved) for g in net.guests.values()), "the save holds no secret"
    record, position = h.session.record_json(), h.position()
    # the page reloads: a new table from the save, every connection gone
    h2 = HostTable.resume(saved, net.clock, rng=random.Random(9))
    assert h2.session is not None and h2.session.record_json() == record and h2.position() == position
    assert all(not h2.present(i) for i, k in enumerate(kinds) if k == REMOTE)
    net.host = h2
    # someone who knows only a seat number gets nowhere
    h2.connect(90)
    (_, msg), = net.send(90, Guest(kinds.index(REMOTE)).join())
    assert msg["code"] == "online.seat_taken"
    # the friends reconnect (new connections) with their secrets and play on
    for peer, g in list(net.guests.items()):
        net.guests[peer + 10] = net.guests.pop(peer)
        net.add_guest(peer + 10, g)
    assert all(h2.present(i) for i in range(len(kinds)))
    net.play(rounds=2)
    assert h2.position()[0] >= 3 or (h2.session is not None and h2.session.is_over)
    for g in net.guests.values():
        assert g.audit_failures == [] and 1 in g.audited and 2 in g.audited, (g.audited, g.audit_failures)


def test_a_friend_that_rejoins_between_commit_and_reveal_keeps_its_seed() -> None:
    """Rejoining while a round's seeds are pending: the host does not ask again
    for a commitment it holds, the phone reveals the seed it committed to."""
    net = Net("chkobba", {"players": 2}, [HOST, REMOTE])
    h = net.host
    g = net.guests.pop(1)
    for _, m in h.start():
        for text in g.receive(json.loads(json.dumps(m))):
            h.receive(1, text)  # the commitment; the reveal answering "commits" is lost with the connection
    assert 1 in h.seeds[1].commits and h.session is None
    committed = g.my_commits[1]
    h.disconnect(1)
    h.connect(2)
    net.guests[2] = g
    net.send(2, g.join())
    assert g.my_commits[1] == committed and h.session is not None, "the same seed, revealed on rejoin"
    round1 = [m["type"] for m in net.inbox[2] if m.get("round") == 1 and m["type"].startswith("commit")]
    assert round1 == ["commits"], round1


def test_a_friend_refused_as_not_seated_sits_down_again() -> None:
    """The host's page restarted before the friend's join reached it: the
    friend's next message is refused as not seated, and its Guest joins again."""
    g = Guest(1)
    replies = g.receive({"v": 1, "type": "error", "code": "online.not_seated", "params": {}, "error": "",
                         "answers": "act"})
    assert replies == [g.join()]


def test_a_guest_saved_and_resumed_keeps_its_secret_seeds_and_moves() -> None:
    """A friend's page that reloads sits down again as the same phone: the
    save holds its secret, seeds, the moves it saw and the rounds it audited."""
    g = Guest(1)
    g.receive({"type": "commit_request", "round": 1, "seats": [0, 1]})
    g.receive({"type": "move", "round": 1, "ply": 0, "seat": 0, "action": "7D"})
    back = Guest.resume(json.loads(json.dumps(g.save())))
    assert (back.seat, back.secret, back.seeds, back.my_commits, back.seen) == \
        (g.seat, g.secret, g.seeds, g.my_commits, g.seen)
    assert back.receive({"type": "commits", "round": 1, "commits": {"1": g.my_commits[1]}}) == \
        g.receive({"type": "commits", "round": 1, "commits": {"1": g.my_commits[1]}})


def test_the_host_view_is_the_hosts_own_seat_answer() -> None:
    net = Net("chkobba", {"players": 2}, [HOST, REMOTE])
    assert net.host.host_view() is None
    net.deliver(net.host.start())
    view = net.host.host_view()
    while view is not None and not view["view"]["hand"] and net.step():
        view = net.host.host_view()
    assert view is not None and view["human"] == 0 and view["table"] == "online"
    friend = net.guests[1].view
    assert friend is not None and friend["human"] == 1
    assert len(view["view"]["hand"]) == 3 and not set(view["view"]["hand"]) & set(friend["view"]["hand"])
