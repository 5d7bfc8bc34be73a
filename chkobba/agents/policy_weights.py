"""Weights of the learnt Chkobba play policy (:mod:`chkobba.agents.policy`).

Made by (from the repository root, after the README's set-up)::

    python bench/learn_policy.py collect --gen 0 --slices 0-15 --games 12 --seed 1 --worlds 24
    python bench/learn_policy.py fit --gen 0 --ridge 1.0 --objective values --write chkobba/agents/policy_weights.py

(``python bench/learn_policy.py train`` runs both for the committed weights; the
collection is resumable, data in .cache/selfplay/, about 4 CPU minutes.)

Fitted on 11361 decisions (generation(s) 0); holdout (every 5th slice, fitted without
it): squared error 0.202 (medium) -> 0.1753, best move picked 0.7685 -> 0.7704.
"""

WEIGHTS: tuple[float, ...] = (
    1.13250,   # medium
    0.24885,   # sweep_risk
    -0.19655,   # pile_gain
    -0.12490,   # capture
    0.02906,   # claim
    0.16562,   # cards_taken
    -0.14112,   # takes_7d
    -0.18157,   # sevens_taken
    -0.02889,   # diamonds_taken
    -0.02435,   # sixes_taken
    -0.15091,   # chkobba
    -0.23774,   # lay_value
    -0.13384,   # lay_seven
    0.07582,   # lay_diamond
    -0.05453,   # lay_7d
    0.00872,   # lay_six
    -0.13548,   # lay_pair_kept
    -0.02758,   # lay_unseen_same
    0.00000,   # lay_on_empty
    -0.17288,   # table_cards
    0.11062,   # table_sum_10
    0.04222,   # table_sum
    0.27545,   # follow_up
    -0.00081,   # late
    0.05599,   # late_medium
    -0.10981,   # late_capture
    0.04573,   # last_hand
    -0.02627,   # left_7d
    -0.08539,   # left_sevens
    -0.08308,   # left_diamonds
    -0.06429,   # follow_sweep
    -0.06285,   # last_deal_medium
    0.07147,   # last_deal_capture
)
