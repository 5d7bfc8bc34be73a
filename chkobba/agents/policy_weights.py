"""Weights of the learnt Chkobba play policy (:mod:`chkobba.agents.policy`).

Not fitted yet: medium's own estimate (the policy plays as medium).
"""

WEIGHTS: tuple[float, ...] = (1.0,) + (0.0,) * 26
