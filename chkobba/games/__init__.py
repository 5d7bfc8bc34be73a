"""One package per game, each with the same modules: ``options`` (its table
options), ``constants`` (phases, deck, card values), ``state`` (the rules and
the scoring), ``observation`` (what a seat sees), ``determinize`` (hidden
cards dealt consistently with an observation) and ``view`` (the table as
JSON, and moves described). ``chkobba.registry`` imports every game; no game
imports another."""
