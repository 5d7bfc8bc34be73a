"""Weights of the learnt Chkobba play policy (:mod:`chkobba.agents.policy`).

Made by (from the repository root, after the README's set-up)::

    python bench/learn_policy.py collect --gen 0 --slices 0-15 --games 12 --seed 1 --worlds 24
    python bench/learn_policy.py fit --gen 0 --ridge 1.0 --objective choice --write chkobba/agents/policy_weights.py

(``python bench/learn_policy.py train`` runs both for the committed weights; the
collection is resumable, data in .cache/selfplay/, about 4 CPU minutes.)

Fitted on 11361 decisions (generation(s) 0); holdout (every 5th slice, fitted without
it): squared error 0.202 (medium) -> 0.2126, best move picked 0.7685 -> 0.7906.
"""

WEIGHTS: tuple[float, ...] = (
    1.13036,   # medium
    -0.15986,   # sweep_risk
    -0.13327,   # pile_gain
    0.06963,   # capture
    0.09087,   # claim
    0.15904,   # cards_taken
    -0.02181,   # takes_7d
    -0.04651,   # sevens_taken
    -0.05738,   # diamonds_taken
    0.03873,   # sixes_taken
    0.00000,   # chkobba
    -0.49556,   # lay_value
    -0.03881,   # lay_seven
    0.09374,   # lay_diamond
    0.00427,   # lay_7d
    0.00598,   # lay_six
    0.02051,   # lay_pair_kept
    -0.22254,   # lay_unseen_same
    0.00000,   # lay_on_empty
    -0.18176,   # table_cards
    -0.01551,   # table_sum_10
    -0.00769,   # table_sum
    0.25336,   # follow_up
    -0.00252,   # late
    0.04135,   # late_medium
    0.11700,   # late_capture
    0.00025,   # last_hand
    0.00083,   # left_7d
    -0.04999,   # left_sevens
    0.06316,   # left_diamonds
    0.11154,   # follow_sweep
    -0.01188,   # last_deal_medium
    0.11206,   # last_deal_capture
)
