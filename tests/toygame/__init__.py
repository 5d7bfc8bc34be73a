"""High Card: a toy third game, registered only by its test
(tests/test_toy_game.py), to show that a game is a package of its own.

Two players, six cards (ace, 2 and 3 of diamonds and hearts), three each.
The seat after the dealer leads; each trick is one card from each seat,
the higher rank takes it (a tie: nobody), and whoever took the trick (the
leader, after a tie) leads the next. The seat with more tricks scores a
point; the first to the target wins the match. ``game.GAME`` declares it.
"""
