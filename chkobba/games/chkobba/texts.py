"""Chkobba's own messages: its refusals and its statistics label (the
registry registers them with :mod:`chkobba.messages`)."""

MESSAGES: dict[str, str] = {
    # -------------------------------------------------- chkobba: the deck
    "chkobba.deck_size": "a Chkobba deck has 40 cards, this one has {count}",
    "chkobba.deck_foreign_card": "{card} is not a card of the Chkobba deck (no 8, 9 or 10)",
    "chkobba.deck_wrong": "the deck is not the 40 Chkobba cards",
    "chkobba.action_foreign_card": '"{action}": {card} is not a card of the Chkobba deck (no 8, 9 or 10)',
    # ---------------------------------------------- chkobba: cut, re-deal
    "chkobba.cut": 'it is the cut: the cutter (seat {seat}) says "keep" or "table", not "{action}"',
    "chkobba.redeal": 'the table shows three cards of one value: seat {seat} says "propose" (a re-deal) or "pass", not "{action}"',
    "chkobba.answer": 'seat {proposer} proposed a re-deal: seat {seat} says "accept" or "refuse", not "{action}"',
    "chkobba.play_a_card": '"{action}" is not a move now: play a card from your hand',
    # ------------------------------------------------- chkobba: captures
    "capture.compulsory": "capture is compulsory at this table: {card} can capture, so it must",
    "capture.none": "{card} can't capture",
    "capture.not_on_table": "{taken_card} is not on the table",
    "capture.value_mismatch": "{card} is worth {value} and {taken_card} is worth {taken_value}",
    "capture.sum_mismatch": "{card} is worth {value} and those cards add up to {sum}",
    "capture.value_first": "{same_card} is worth {value} like {card}: a card of the same value must be taken before any sum",
    "capture.cannot_take": "{card} can't take those cards",
    # --------------------------------------------------- chkobba: claims
    "claim.off": "missed captures can't be claimed at this table",
    "claim.none": "there is no missed capture to claim now: only the card just laid, before you play, can be claimed",
    "claim.wrong_card": "only {laid_card}, the card just laid, can be claimed, not {card}",
    "claim.nothing": "{card} could not have captured anything, so there is nothing to claim",
    "claim.not_on_table": "{taken_card} was not on the table when it was laid",
    "stats.game.chkobba": "Chkobba",
}
