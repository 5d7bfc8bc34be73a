"""Structured messages: a stable code, its parameters, and the English text.

Every error the package raises, every coach reason and every move described
for a table carries a ``code`` (dotted lowercase ASCII, ``area.what``) and
``params``; :data:`MESSAGES` maps each code to its English template and
:func:`render` writes the English text, which is the default rendering (the
command line prints it; a page translates from the code instead).

Parameter naming, so that any renderer knows what is a card:

- a param named ``card`` or ending in ``_card`` holds ONE card code (``"6H"``);
- a param named ``cards`` or ending in ``_cards`` holds a LIST of card codes;
- a param holding a message (``{"code": ..., "params": ...}``), or a list of
  them, renders as that message (lists joined with ``", "``);
- other params are ints or short plain strings (an action's text is named
  ``action``, a seat ``seat``); any other list is joined with ``", "``.

The English renderer writes cards as their codes and joins lists with ``", "``:

>>> render("capture.value_mismatch", {"card": "QH", "value": 8, "taken_card": "7D", "taken_value": 7})
'QH is worth 8 and 7D is worth 7'
>>> render("seven_diamonds.must_lay", {"action": "pass", "cards": ["8H", "7S"]})
'"pass" is not a move now: you must lay a card when one fits (8H, 7S)'

Text that comes from outside (a record, a URL parameter, a request) is quoted
with :func:`quote` before it becomes a parameter: shortened, with control
characters escaped, so an error stays one short line. ``docs/messages.md`` is
the table of every code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple, Union

# A parameter value: an int, a plain string, a card list, a nested message.
Param = Union[int, str, bool, None, Sequence["Param"], Mapping[str, "Param"]]
Params = dict[str, Param]

# code -> English template ({name} placeholders; literal braces doubled).
CORE_MESSAGES: dict[str, str] = {
    # ------------------------------------------------------------- generic
    "error.text": "{text}",
    # ------------------------------------------------------------ cards
    "card.unknown": '"{text}" is not a card (a card is a rank A 2 3 4 5 6 7 8 9 T J Q K and a suit D H S C, like 7D)',
    "card.list_odd": '"{text}" is not a list of two-character card codes',
    # ---------------------------------------------------------- actions
    "action.not_text": 'an action is a text such as "7D" or "keep", not {value}',
    "action.spaces": '"{action}": an action is written without spaces (only "claim" is followed by one space, like "claim QHx7DAS")',
    "action.claim_form": '"{action}": a claim names the laid card and what it could have taken, like "claim QHx7DAS"',
    "action.take_missing": '"{action}": name the cards {card} takes after the x, like "{card}x7D"',
    "action.duplicate": '"{action}": {card} is named twice',
    "action.takes_itself": '"{action}": {card} cannot take itself',
    "action.unknown": '"{action}" is not an action (examples: "keep", "7D", "QHx7DAS", "claim QHx7DAS", "pass")',
    # -------------------------------------------------------- deal, turn
    "deal.first_dealer": "the first dealer must be a seat from 0 to {last}, not {value}",
    "deal.not_needed": "no deck is needed now: the round is under way",
    "deal.pending": "the cards are not dealt yet",
    "deal.card_twice": "{card} is twice in the deck",
    "match.over": "the match is over",
    "game.over": "the game is over",
    "play.not_in_hand": "{card} is not in your hand",
    # ------------------------------------------------------------ options
    "options.not_object": "options must be a JSON object",
    "options.unknown": 'unknown option "{option}" for {game} (known: {known})',
    "options.choice": 'option "{option}" must be one of {choices}, not {value}',
    "options.bool": 'option "{option}" must be true or false, not {value}',
    "options.target_range": 'option "target" must be a whole number of points from 1 to 100000, not {value}',
    "options.bonus_range": 'option "last_seven_bonus" must be a whole number from 0 to 10000, not {value}',
    "options.timers_key": 'option "timers" has unknown key "{key}" (known: call, card)',
    "options.timers_seconds": 'option "timers.{key}" must be a whole number of seconds from 1 to 600, not {value}',
    "options.timers_form": 'option "timers" must be false or {{"call": seconds, "card": seconds}}, not {value}',
    "options.unknown_game": 'unknown game "{game}" (known: {known})',
    # ------------------------------------------------ option labels (page)
    "option.players": "Players",
    "option.faces": "Face card values",
    "option.capture": "Capturing",
    "option.missed_capture": "Missed captures may be claimed",
    "option.last_card_sweep": "A sweep with the last card is a chkobba",
    "option.redeal": "Re-deal when the table shows three of a value",
    "option.target": "Points to win a game",
    "option.match": "Games in a match (best of)",
    "option.all_diamonds_wins": "All ten diamonds win the game",
    "option.calls": "Calls (double, triple)",
    "option.last_seven_bonus": "Bonus for going out with a seven",
    "option.timers": "Timers (seconds for a call and a card)",
    # ------------------------------------------------------------ records
    "record.action_refused": 'round {round}, action {index} "{action}": {reason}',
    # strict reading (RECORDS.md): every way a record can be refused
    "record.too_large": "record: the input is over {mb} MB, larger than any record can be",
    "record.too_deep": "record: the input is nested deeper than any record can be (at most {levels} levels)",
    "record.not_utf8": "record: not UTF-8 text (a record is JSON)",
    "record.json": "record: not valid JSON ({problem} at line {line}, column {column})",
    "record.json_constant": "record: not valid JSON ({value} is not a JSON number)",
    "record.json_long_number": "record: not valid JSON (a number has too many digits)",
    "record.duplicate_key": 'record: the key "{key}" appears twice in one object',
    "record.not_object": "record: a game record is a JSON object, not {value}",
    "record.unknown_key": 'record: unknown key "{key}" (known: game, options, first_dealer, rounds)',
    "record.missing_key": 'record: "{key}" is missing (a record has "game", "first_dealer" and "rounds")',
    "record.game": 'record: "game" must be one of the games (known: {known}), not {value}',
    "record.options_form": 'record: "options" must be a JSON object, not {value}',
    "record.option_unknown": 'record: unknown option "{option}" ({game} options: {known})',
    "record.option_other_game": 'record: option "{option}" is a {other} option, not a {game} one ({game} options: {known})',
    "record.option_huge": 'record: option "{option}" cannot be a very large number',
    "record.timers_key": 'record: option "timers" has an unknown key "{key}" (its keys: call, card)',
    "record.options": "record: {reason}",
    "record.first_dealer": 'record: "first_dealer" must be a seat from 0 to {last}, not {value}',
    "record.rounds_form": 'record: "rounds" must be a list, not {value}',
    "record.round_form": 'round {round}: a round is an object with "decks" and "actions", not {value}',
    "record.round_key": 'round {round}: unknown key "{key}" (a round has "decks" and "actions")',
    "record.round_missing": 'round {round}: "{key}" is missing (a round has "decks" and "actions")',
    "record.decks_form": 'round {round}: "decks" must be a list of decks, each a list of card codes, not {value}',
    "record.deck_form": "round {round}, deck {deck}: a deck is a list of card codes, not {value}",
    "record.deck_code": "round {round}, deck {deck}: {value} is not a card code (a rank A 2 3 4 5 6 7 8 9 T J Q K and a suit D H S C, like 7D)",
    "record.actions_form": 'round {round}: "actions" must be a list of action texts, not {value}',
    "record.action_type": 'round {round}, action {index}: an action is a text such as "7D" or "keep", not {value}',
    "record.action_empty": "an action cannot be empty",
    "record.action_spaces": "no space or line break may surround an action",
    "record.action_claim": 'write "claim", one space, then the capture, like "claim QHx7DAS"',
    "record.action_unknown": 'not an action (examples: "keep", "7D", "QHx7DAS", "claim QHx7DAS", "pass")',
    "record.card_named_twice": "{card} is named twice",
    "record.takes_itself": "{card} cannot take itself",
    "record.no_capture": 'nothing is captured in Seven Diamonds; lay one card, like "9H"',
    "record.round_over": "the round is over",
    "record.redeal_deck_missing": "a re-deal was accepted but the round lists no further deck",
    "record.redeal_unlisted": "round {round}: a re-deal was accepted but the round lists no further deck",
    "record.deck_refused": "round {round}, deck {deck}: {reason}",
    "record.deck_unused": "round {round}, deck {deck}: the round never uses this deck",
    "record.no_deck": "round {round}: the round lists no deck (each round entry holds the decks it deals)",
    "record.after_match": "round {round}: the match was already over after round {previous}",
    "record.after_unfinished": "round {round}: round {previous} stops before its end, yet round {round} follows",
    # ---------------------------------------------------------- positions
    "position.form": "a position is (round, ply): two whole numbers, round from 1 and ply from 0, not {value}",
    "position.round": "the record has {rounds} round(s): there is no round {round}",
    "position.ply": "round {round} of the record has {count} action(s): there is no ply {ply}",
    "position.hands": "a {players}-player position needs {players} hands, not {count}",
    "position.turn": "the seat to play must be from 0 to {last}, not {turn}",
    "position.hand_size": "a hand holds at most 3 cards, not {count}",
    "position.score": "the score must be two whole numbers from 0 that do not end the game (target {target}), not {score}",
    "position.games": "the games won must be two whole numbers from 0 to {most} (best of {match}), not {games}",
    # ------------------------------------------------------- word labels
    "word.keep": "Keep the cut card",
    "word.table": "Put the cut card on the table",
    "word.propose": "Propose a re-deal",
    "word.pass": "Play on",
    "word.accept": "Accept the re-deal",
    "word.refuse": "Refuse the re-deal",
    "word.double": "Double",
    "word.triple": "Triple",
    "word.call_pass": "Pass",
    # -------------------------------------------------------------- moves
    "move.cut_keep": "seat {seat} keeps the cut card",
    "move.cut_table": "seat {seat} puts the cut card on the table",
    "move.redeal_propose": "seat {seat} proposes a re-deal",
    "move.redeal_pass": "seat {seat} plays on",
    "move.redeal_accept": "seat {seat} accepts the re-deal",
    "move.redeal_refuse": "seat {seat} refuses the re-deal",
    "move.lay": "seat {seat} lays {card}",
    "move.capture": "seat {seat} takes {cards} with {card}",
    "move.claim": "seat {seat} claims {cards} with {card} (missed capture)",
    "move.double": "seat {seat} doubles",
    "move.triple": "seat {seat} triples",
    "move.pass": "seat {seat} passes",
    "move.timeout": "seat {seat} ran out of time",
    "move.forced_pass": "seat {seat} has no card to lay and passes",
    "move.last_card": "seat {seat} has one card left",
    "move.out": "seat {seat} is out",
    # the same moves told to the player who made them (see for_reader)
    "move.you.cut_keep": "you keep the cut card",
    "move.you.cut_table": "you put the cut card on the table",
    "move.you.redeal_propose": "you propose a re-deal",
    "move.you.redeal_pass": "you play on",
    "move.you.redeal_accept": "you accept the re-deal",
    "move.you.redeal_refuse": "you refuse the re-deal",
    "move.you.lay": "you lay {card}",
    "move.you.capture": "you take {cards} with {card}",
    "move.you.claim": "you claim {cards} with {card} (missed capture)",
    "move.you.double": "you double",
    "move.you.triple": "you triple",
    "move.you.pass": "you pass",
    "move.you.timeout": "you ran out of time",
    "move.you.forced_pass": "you have no card to lay and pass",
    "move.you.last_card": "you have one card left",
    "move.you.out": "you are out",
    # ----------------------------------------------------- coach reasons
    "coach.reason": "{parts}",
    "coach.keep": "keep {card} in your hand",
    "coach.keep_unseen": "keep the cut card in your hand",
    "coach.table": "put {card} and three more on the table; you play first",
    "coach.table_unseen": "put the cut card and three more on the table; you play first",
    "coach.propose": "ask for a new deal",
    "coach.play_deal": "play this deal",
    "coach.accept": "agree to a new deal",
    "coach.takes_7d": "takes the {card}",
    "coach.sevens": "{count} sevens",
    "coach.one_seven": "1 seven",
    "coach.diamonds": "{count} diamonds",
    "coach.one_diamond": "1 diamond",
    "coach.cards": "{count} cards",
    "coach.claims": "claims a missed capture",
    "coach.chkobba": "chkobba!",
    "coach.lays": "lays {card}",
    "coach.could_capture": "it could capture: the next player may claim it",
    "coach.sweep_risk": "sweep risk {percent}%",
    "coach.follow": "you can follow with {count} more",
    "coach.opens": "opens {card} to the others",
    "coach.sheds": "sheds {points} points",
    "coach.call": "{call}: hand strength {strength}",
    "coach.word": "{word}",
    # ------------------------------------------------------- the daily deal
    "daily.date": '"{value}" is not a date: write it YYYY-MM-DD, like 2026-12-01',
    "daily.instant": "a daily deal needs a date, or a moment with its time zone",
    "daily.calendar": "that moment is outside the calendar of the daily deals "
                      "(they are dated from 0001-01-01 to 9999-12-31 in Tunisia)",
    "daily.future": "The deal of {date} is not out yet: it can be played from {date} at 00:00 in Tunisia "
                    "(today is {today} there)",
    "daily.before": "There is no daily deal before 2000-01-01 (not {date})",
    "daily.game": '"{value}" has no daily deal (the daily games: {known})',
    "daily.round_over": "the daily round is over",
    "daily.not_over": "the daily round is not over yet",
    "daily.not_turn": "it is seat {to_act}'s turn, not seat {seat}'s",
    "daily.margin.above": "{count} above par",
    "daily.margin.below": "{count} below par",
    "daily.margin.level": "level with par",
    "daily.category.karta": "karta (most cards)",
    "daily.category.dinari": "dinari (most diamonds)",
    "daily.category.barmila": "barmila (most sevens)",
    "daily.category.haya": "the 7 of diamonds",
    "daily.category.none": "none",
    "daily.outcome.won": "my team went out first",
    "daily.outcome.lost": "the other team went out first",
    "daily.share.chkobba": "Chkobba, daily deal of {date}: score {points}, par {par} ({margin}). Won: {categories}. Chkobbas: {chkobbas}",
    "daily.share.seven_diamonds": "Seven Diamonds, daily deal of {date}: score {points}, par {par} ({margin}); {outcome}",
    "daily.where.file": "the daily results",
    "daily.where.row": "daily result {index}",
    "daily.where.rows": "daily results",
    # ------------------------------------------------------------ take-backs
    "takeback.mode": "Take-backs are only for games against the computer: not {mode}",
    "takeback.mode.online": "online",
    "takeback.mode.pass_and_play": "in pass and play",
    "takeback.mode.daily": "in the daily deal",
    "takeback.mode.challenge": "in a challenge",
    "takeback.unknown_mode": '"{value}" is not a way of playing (computer, online, pass_and_play, daily, challenge)',
    "takeback.nothing": "You have no move to take back in this round",
    "takeback.round_over": "The round is over: its moves can no longer be taken back",
    "takeback.dealt": "Cards were dealt since your last move: a take-back never goes back past a deal",
    "takeback.not_your_seat": "Seat {seat} is not a seat at this table",
    # -------------------------------------------- online table (chkobba.online)
    "online.too_large": "a message is at most {limit} bytes, this one has {size}",
    "online.json": "a message is one JSON object: {problem}",
    "online.duplicate_key": 'a message names "{key}" twice',
    "online.not_object": "a message is a JSON object, not {value}",
    "online.version": "this table speaks version {want} of the protocol, not {value}",
    "online.type": '"{value}" is not a message type (known: {known})',
    "online.fields": 'a "{type}" message has exactly the fields {want}',
    "online.fields_optional": 'a "{type}" message has the fields {want}, and may have {optional}',
    "online.field": 'the field "{field}" of a "{type}" message must be {want}',
    "online.rate": "too many messages: wait a moment",
    "online.not_seated": "join a seat first",
    "online.already_seated": "this phone already sits at seat {seat}",
    "online.no_seat": "there is no seat {seat} for a friend at this table",
    "online.seat_taken": "seat {seat} belongs to another phone",
    "online.not_started": "the game has not started yet",
    "online.not_your_turn": "it is not your turn: seat {seat} plays now",
    "online.stale": "this move answers round {round} move {ply}, but the table is at round {now_round} move {now_ply}",
    "online.no_commit": "no seed is asked of you for round {round} now",
    "online.no_reveal": "no seed is to be revealed for round {round} now",
    "online.reveal_mismatch": "this seed is not the one committed for round {round}",
    "online.audit_seats": "round {round}: the seeds of seats {seats} were committed, those of seats {revealed} revealed",
    "online.audit_seed": "round {round}: the seed of seat {seat} is not the one it committed",
    "online.audit_own": "round {round}: my own seed is missing or changed",
    "online.audit_deck": "round {round}: deck {deck} is not the one the seeds give",
    "online.audit_moves": "round {round}: move {ply} is {action}, but {seen} was played",
    "online.audit_replay": "round {round} does not replay: {reason}",
    "online.audit_round": "round {round} is not in this record",
    "online.audit_commits": "round {round}: the commitments are not the ones this phone was shown before it revealed its seed",
    "online.audit_not_asked": "round {round}: the phone at seat {seat} was at the table, but its seed was not asked for",
    "online.audit_restart": "round {round}: its seeds were started again (restart {count}) after this phone revealed its own, though no phone asked had left",
    "online.audit_missing": "round {round} is over, but the host sent no audit of it",
    "online.wrong_seat": "this invitation is for another seat",
    "online.seat_retired": "the host gave this seat a new invitation: this phone no longer sits there",
}

MESSAGES: dict[str, str] = dict(CORE_MESSAGES)


def register(messages: Mapping[str, str]) -> None:
    """Add codes of a module of its own (the web facade's ``web.*``).

    A code may not change its English text once registered."""
    for code, template in messages.items():
        old = MESSAGES.get(code)
        if old is not None and old != template:
            raise ValueError(f"message code {code!r} is already registered with another text")
        MESSAGES[code] = template


def _english(name: str, value: object) -> str:
    if isinstance(value, dict) and "code" in value:
        return render(str(value["code"]), value.get("params") or {})
    if isinstance(value, Message):
        return str(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_english(name, v) for v in value)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def render(code: str, params: Mapping[str, object] | None = None) -> str:
    """The English text of a message.

    >>> render("play.not_in_hand", {"card": "7D"})
    '7D is not in your hand'
    """
    template = MESSAGES[code]
    args = {k: _english(k, v) for k, v in (params or {}).items()}
    return template.format_map(args)


class Message(NamedTuple):
    """A code with its parameters; ``str()`` is the English text."""

    code: str
    params: Params

    def __str__(self) -> str:
        return render(self.code, self.params)

    def to_json(self) -> dict[str, Param]:
        """``{"code", "params"}``: what a page renders, or nests in another message."""
        return {"code": self.code, "params": self.params}


def message(code: str, **params: Param) -> Message:
    """A :class:`Message`; the code must exist.

    >>> str(message("capture.none", card="KH"))
    "KH can't capture"
    """
    if code not in MESSAGES:
        raise KeyError(f"unknown message code {code!r}")
    return Message(code, params)


def for_reader(msg: Message | Mapping[str, object], reader: int | None) -> Message:
    """A move's message in the person its reader needs: the ``move.you.*``
    form when ``reader`` is the seat that made the move (``params["seat"]``),
    else the message as it is (another seat's move, a spectator's replay with
    ``reader=None``, or a message that is not a move). The seat stays in the
    parameters, so a page can still name it.

    >>> str(for_reader(message("move.lay", seat=0, card="5H"), 0))
    'you lay 5H'
    >>> str(for_reader(message("move.lay", seat=1, card="5H"), 0))
    'seat 1 lays 5H'
    >>> str(for_reader({"code": "move.cut_keep", "params": {"seat": 2}}, None))
    'seat 2 keeps the cut card'
    """
    if isinstance(msg, Message):
        code, params = msg.code, dict(msg.params)
    else:
        code, raw = str(msg["code"]), msg.get("params")
        params = dict(raw) if isinstance(raw, Mapping) else {}
    seat = params.get("seat")
    you = "move.you." + code[len("move."):] if code.startswith("move.") else ""
    if reader is not None and isinstance(seat, int) and not isinstance(seat, bool) and seat == reader and you in MESSAGES:
        return Message(you, params)
    return Message(code, params)


def quote(text: object, limit: int = 60) -> str:
    """Outside text made safe to show in a one-line message: control and
    other invisible characters escaped (``\\n``, ``\\t``, ``\\x00``,
    ``\\u00a0``...), and shortened to about ``limit`` characters with ``...``
    in the middle. No quotation marks are added (templates write them).

    >>> quote("7D\\n")
    '7D\\\\n'
    >>> quote("x" * 100, limit=13)
    'xxxxx...xxxxx'
    >>> quote(5)
    '5'
    """
    s = text if isinstance(text, str) else repr(text)
    if len(s) > 4 * limit:  # never escape megabytes only to cut them
        s = s[:2 * limit] + s[-2 * limit:]
        cut = True
    else:
        cut = False
    out = []
    for ch in s:
        if ch.isprintable():
            out.append(ch)
        else:
            e = repr(ch)[1:-1]
            if e == ch or not e.startswith("\\"):
                e = f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}"
            out.append(e)
    escaped = "".join(out)
    if cut or len(escaped) > limit:
        half = max(1, (limit - 3) // 2)
        escaped = escaped[:half] + "..." + escaped[-half:]
    return escaped


def kind_of(value: object) -> str:
    """What a JSON value is, in words, for an error that must not quote it
    ("a number", "a list", ...): the facade's and the statistics file's."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "something else"
