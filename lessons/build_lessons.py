"""Writes the lesson files of this folder (python lessons/build_lessons.py).

Optional: an author may write a lesson file by hand instead (docs/links.md).
The positions of the late steps are found by random play from fixed seeds;
each text is written from the engine's own counts.
"""
import json, random, sys
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from chkobba.cards import card, code
from chkobba.games.chkobba.state import DECK as CDECK
from chkobba.games.seven_diamonds.state import DECK as SDECK
from chkobba.session import Session
from chkobba.records import parse_record
from chkobba.links.lessons import parse_lesson

OUT = str(HERE) + "/"

def cdeck(table, h0, h1, rest=""):
    head = (table + " " + h0 + " " + h1 + " " + rest).split()
    assert len(set(head)) == len(head)
    return head + [code(c) for c in CDECK if code(c) not in head]

def crec(deck, actions, options=None):
    return {"game": "chkobba", "options": options or {}, "first_dealer": 1,
            "rounds": [{"decks": [deck], "actions": actions}]}

def T(key, text): return {"key": key, "text": text}

def step(lesson, sid, record, at, seat, text, hint, moves, expect=None, wrong=()):
    return {"id": sid, "record": record, "at": list(at), "seat": seat,
            "text": T(f"lesson.{lesson}.{sid}.text", text), "hint": T(f"lesson.{lesson}.{sid}.hint", hint),
            "moves": moves, "expect": expect or {}, "wrong": [{"move": m, "code": c} for m, c in wrong]}

def subset_wrong(s, move):
    """A plausible illegal move at a late position: the same card taking one table card it can't."""
    st = s.state
    card = move.split("x")[0]
    for t in st.table:
        m = card + "x" + code(t)
        if str(st.parse(m)) not in s.legal():
            return (m, st.explain(st.parse(m)).code)
    raise SystemExit("no wrong move for " + move)

def lesson(n, lid, title, game, steps):
    d = {"id": lid, "title": T(f"lesson.{lid}.title", title), "game": game, "steps": steps}
    parse_lesson(d, lid)
    json.dump(d, open(f"{OUT}{n:02d}-{lid}.json", "w"), indent=1)

# ---------------------------------------------------------------- chkobba basics
L = []
L.append(step("captures", "by_value", crec(cdeck("5S KD 2C 4H", "5H AC 6D", "7S 3C QH"), ["table"]), (1, 1), 0,
    "Capture by value: your 5H can take the 5S, a card of the same value. Take it.",
    "Play 5H and take the 5S lying on the table.", ["5Hx5S"], {"taken": ["5H", "5S"], "chkobba": False},
    [("5Hx2C", "capture.value_mismatch")]))
L.append(step("captures", "by_sum", crec(cdeck("2C 3D 6H KS", "5H AC 4D", "7S 3C QH"), ["table"]), (1, 1), 0,
    "Capture by sum: no card on the table is worth 5, but 2C and 3D add up to 5. Take them both with your 5H.",
    "2 + 3 = 5: play 5H and take 2C and 3D.", ["5Hx2C3D"], {"taken": ["2C", "3D", "5H"]},
    [("5Hx6H", "capture.value_mismatch")]))
L.append(step("captures", "value_first", crec(cdeck("5S 2C 3D KH", "5H AC 6C", "7S 3C QH"), ["table"]), (1, 1), 0,
    "Value before sum: 2C and 3D add up to 5, but the 5S is worth 5 itself. A card of the same value must be taken before any sum.",
    "Take the 5S with your 5H: the sum is not allowed while a 5 lies on the table.", ["5Hx5S"],
    {"taken": ["5H", "5S"]}, [("5Hx2C3D", "capture.value_first")]))
L.append(step("captures", "choose", crec(cdeck("4S 3H 5D 2C", "7H AC KC", "7S 3C QH"), ["table"]), (1, 1), 0,
    "You choose between captures: your 7H can take 4S and 3H, or 5D and 2C. Either is yours to choose; take one.",
    "4 + 3 = 7 and 5 + 2 = 7: play 7H and take one of the two pairs.", ["7Hx3H4S", "7Hx2C5D"], {},
    [("7Hx2C3H4S", "capture.sum_mismatch")]))
L.append(step("captures", "lay", crec(cdeck("KH QS JC 7S", "AC 2D 3H", "6S 3C 4H"), ["table"]), (1, 1), 0,
    "Laying a card: none of your cards can capture anything here, so you lay one on the table.",
    "Lay any of your cards: AC, 2D or 3H.", ["AC", "2D", "3H"], {"taken": [], "chkobba": False},
    [("ACxKH", "capture.value_mismatch")]))
L.append(step("captures", "chkobba", crec(cdeck("AC 2D 3H 4S", "KD 6C 5C", "6S 3C 4H"), ["table"]), (1, 1), 0,
    "The chkobba: A + 2 + 3 + 4 = 10, the value of your KD. Take all four and the table is empty: a chkobba, one point.",
    "Play KD and take the four cards on the table.", ["KDxAC2D3H4S"],
    {"taken": ["2D", "3H", "4S", "AC", "KD"], "chkobba": True, "table": []},
    [("KDx3H4S", "capture.sum_mismatch")]))
# missed capture: dealer 0, cutter 1 lays 5H although it could take 5S; seat 0 claims it
d = cdeck("5S KD 2C 4H", "5H 6C 7C", "AS 3D QH")
claim_rec = {"game": "chkobba", "options": {}, "first_dealer": 0, "rounds": [{"decks": [d], "actions": ["table", "5H"]}]}
L.append(step("captures", "claim", claim_rec, (1, 2), 0,
    "The missed-capture claim: your opponent laid 5H though it could take the 5S. Before you play, claim it: you take the 5H together with the 5S it could have taken.",
    "Claim the 5H with the 5S it could have taken: \"claim 5Hx5S\".", ["claim 5Hx5S"],
    {"taken": ["5H", "5S"]}, [("claim 5Hx2C", "capture.value_mismatch")]))

# ------------------------------------------- end of the round: search random rounds
def greedy(s, rng):
    legal = s.legal()
    caps = [a for a in legal if "x" in a and not a.startswith("claim")]
    if caps and rng.random() < 0.9:
        return max(caps, key=len)
    return rng.choice(legal)

def find_last(pred, options=None):
    for seed in range(20000):
        s = Session.new("chkobba", options or {}, seed=seed, first_dealer=1)
        rng = random.Random(seed)
        while True:
            st = s.state
            if st.deck_left == 0 and sum(len(h) for h in st.hands) == 1 and st.to_act() is not None:
                r = pred(s)
                if r:
                    return s, r
                break
            if s.state.round_over() or s.is_over:
                break
            s.apply(greedy(s, rng))
    raise SystemExit("not found")

def last_sweep(s):
    st = s.state
    for a in s.legal():
        if "x" in a and not a.startswith("claim") and len(a) == 3 + 2 * len(st.table) and len(st.table) >= 2:
            return a
    return None

s, sweep = find_last(last_sweep)
rec = s.record(); ply = len(rec["rounds"][0]["actions"]); seat = s.to_act()
L.append(step("captures", "last_card", rec, (1, ply), seat,
    "No chkobba on the last card: this is the last card of the round. It takes the whole table, but a sweep with the very last card is not a chkobba at this table.",
    "Play your last card and take the table: the cards are yours, the chkobba point is not.", [sweep],
    {"chkobba": False, "round_over": True}, [subset_wrong(s, sweep)]))
rec2 = json.loads(json.dumps(rec)); rec2["options"] = {"last_card_sweep": True}
L.append(step("captures", "last_card_option", rec2, (1, ply), seat,
    "The same last card at a table where a sweep with the last card counts (option: a sweep with the last card is a chkobba): here it is a chkobba.",
    "Play your last card and take the whole table.", [sweep], {"chkobba": True, "round_over": True},
    [subset_wrong(s, sweep)]))
lesson(1, "captures", "Capturing cards", "chkobba", L)

# leftovers + scoring
def leftovers(s):
    st = s.state
    for a in s.legal():
        if "x" in a and not a.startswith("claim"):
            n_taken = (len(a) - 3) // 2
            if len(st.table) - n_taken >= 2:
                return a
    return None

s, cap = find_last(leftovers)
rec = s.record(); ply = len(rec["rounds"][0]["actions"]); seat = s.to_act()
s2 = Session.from_record(rec, seed=0); s2.apply(cap); res = s2.state.results[-1].details()
side = seat & 1
left = res["leftovers"]
S = []
S.append(step("scoring", "leftovers", rec, (1, ply), seat,
    f"The leftovers go to the last capturer: take with your last card, and the {len(left)} cards still on the table ({', '.join(left)}) go to your pile too.",
    f"Capture with your last card ({cap}): you are then the last to have captured.", [cap],
    {"round_over": True, "result": {"leftovers": left, "leftovers_to": side}}, [subset_wrong(s, cap)]))
you, them = side, 1 - side
def who(pair, key):
    return "you" if pair[you] else "your opponent" if pair[them] else "nobody (a tie)"
cats = [
    ("karta", f"Karta, most cards: you have {res['cards'][you]} cards, your opponent {res['cards'][them]}. The point goes to {who(res['karta'], 'karta')}.", {"karta": res["karta"], "cards": res["cards"]}),
    ("dinari", f"Dinari, most diamonds: you have {res['diamonds'][you]}, your opponent {res['diamonds'][them]}. The point goes to {who(res['dinari'], 'dinari')}.", {"dinari": res["dinari"], "diamonds": res["diamonds"]}),
    ("barmila", f"Barmila, most sevens (then most sixes): sevens {res['sevens'][you]} to {res['sevens'][them]}, sixes {res['sixes'][you]} to {res['sixes'][them]}. The point goes to {who(res['barmila'], 'barmila')}.", {"barmila": res["barmila"], "sevens": res["sevens"], "sixes": res["sixes"]}),
    ("haya", f"Sab'a l-hayya, the 7D: the point goes to {who(res['haya'], 'haya')}, whoever holds it in their pile.", {"haya": res["haya"]}),
    ("chkobba", f"Chkobba: one point for each sweep of the round. You made {res['chkobba'][you]}, your opponent {res['chkobba'][them]}. In all this round: {res['points'][you]} points to {res['points'][them]}.", {"chkobba": res["chkobba"], "points": res["points"]}),
]
for cat, text, exp in cats:
    S.append(step("scoring", cat, rec, (1, ply), seat, text, f"Play your last card ({cap}) to end the round and see the count.",
                  [cap], {"round_over": True, "result": exp}, [subset_wrong(s, cap)]))
lesson(2, "scoring", "The end of a round and its points", "chkobba", S)

# ---------------------------------------------------------------- seven diamonds
NOTIME = {"timers": False, "calls": False}
def sd_session(seed, options):
    return Session.new("seven_diamonds", options, seed=seed, first_dealer=0)

D = []
s = sd_session(1, NOTIME)
holder = s.to_act(); rec = s.record()
from chkobba.cards import cards_of
other = next(code(c) for c in cards_of(s.state.hands[holder]) if code(c) != "7D")
assert s.state.explain(s.state.parse(other)).code == "seven_diamonds.opens_with_7d"
D.append(step("seven_diamonds", "open", rec, (1, 0), holder,
    "Opening with the 7D: you hold the seven of diamonds, and no other card can start the round. Lay it.",
    "Lay 7D.", ["7D"], {"events": [[holder, "7D"]]}, [(other, s.state.explain(s.state.parse(other)).code)]))

# building up: find a position after 7D where the seat to act holds 8D
for seed in range(2000):
    s = sd_session(seed, NOTIME)
    s.apply("7D")
    if "8D" in s.legal() and s.state.hands[s.to_act()] >> card("9D") & 1:
        break
rec = s.record(); seat = s.to_act()
D.append(step("seven_diamonds", "build", rec, (1, 1), seat,
    "Building up: the 7D is down. The next card up in diamonds is the 8D, and you hold it: lay it on the 7D.",
    "Cards go up one at a time in a suit: 7, 8, 9, 10, J, Q, K, A. Lay 8D.", ["8D"], {},
    [("9D", s.state.explain(s.state.parse("9D")).code)]))

# forced passes
found = None
for seed in range(3000):
    s = sd_session(seed, NOTIME)
    rng = random.Random(seed)
    while not s.state.results:
        for a in s.legal():
            t = s.state.copy(); t.play(t.parse(a))
            ev = t.event_log()[len(s.state.event_log()):]
            if any(e.kind == "passed" for e in ev) and not t.results and s.state.log_len >= 6:
                found = (s, a, [e.to_json() for e in ev])
                break
        if found:
            break
        s.apply(rng.choice(s.legal()))
    if found:
        break
s, a, ev = found
rec = s.record(); seat = s.to_act(); ply = len(rec["rounds"][0]["actions"])
passed = [e[0] for e in ev if e[1] == "passed"]
D.append(step("seven_diamonds", "forced_pass", rec, (1, ply), seat,
    f"Forced passes: lay {a}. Seat {passed[0]} then holds no card that fits, so the game passes for them.",
    f"Lay {a} and watch the next player pass.", [a], {"events": ev},
    [("pass", s.state.explain(s.state.parse("pass")).code)]))

# double and triple
CALLS = {"timers": False}
s = sd_session(5, CALLS)
rec = s.record(); seat = s.to_act()
D.append(step("seven_diamonds", "double", rec, (1, 0), seat,
    "Double: before play each player speaks once. Nobody has doubled yet: say double, and the round counts twice, whichever team wins it.",
    "Say \"double\".", ["double"], {"multiplier": 2}, [("triple", "seven_diamonds.nobody_doubled")]))
s.apply("double")
rec = s.record(); seat = s.to_act()
D.append(step("seven_diamonds", "triple", rec, (1, 1), seat,
    "Triple: the other team doubled. A player of your team may triple once: the round then counts three times.",
    "Say \"triple\".", ["triple"], {"multiplier": 3}, [("double", "seven_diamonds.doubled_triple")]))

# scoring and last-seven bonus
found = None
for seed in range(5000):
    s = sd_session(seed, NOTIME)
    rng = random.Random(seed)
    while not s.state.results:
        st = s.state
        if bin(st.hands[st.turn]).count("1") == 1:
            legal = s.legal()
            if len(legal) == 1 and legal[0][0] == "7":
                found = (s, legal[0]); break
        s.apply(rng.choice(s.legal()))
    if found: break
s, last = found
rec = s.record(); seat = s.to_act(); ply = len(rec["rounds"][0]["actions"])
s2 = Session.from_record(rec, seed=0); s2.apply(last); res = s2.state.results[-1].details()
D.append(step("seven_diamonds", "scoring", rec, (1, ply), seat,
    f"Scoring: lay {last}, your last card, and your team wins the round. It scores the cards left in the other team's hands: aces 20, kings, queens and jacks 10: {res['cards']} points here.",
    f"Lay {last} to go out.", [last], {"round_over": True, "result": {"cards": res["cards"], "winner_team": seat & 1}},
    [("pass", s.state.explain(s.state.parse("pass")).code)]))
D.append(step("seven_diamonds", "last_seven", rec, (1, ply), seat,
    f"The last-seven bonus: you go out with a seven ({last}), which adds {res['bonus']} points. The round scores {res['cards']} + {res['bonus']} = {res['points'][seat & 1]}.",
    f"Lay {last}: going out with a seven earns the bonus.", [last],
    {"round_over": True, "result": {"bonus": res["bonus"], "points": res["points"]}},
    [("pass", s.state.explain(s.state.parse("pass")).code)]))
lesson(3, "seven_diamonds", "Seven Diamonds", "seven_diamonds", D)
print("ok")
