"""Hypothesis strategies shared by the property, fuzz and link tests."""

from __future__ import annotations

from hypothesis import strategies as st

# One strategy per Chkobba table option, over every value the rules allow
# (targets and match lengths from the usual choices).
CHKOBBA_OPTIONS = {
    "players": st.sampled_from([2, 4]),
    "faces": st.sampled_from(["QJK", "JQK"]),
    "capture": st.sampled_from(["optional", "compulsory"]),
    "missed_capture": st.booleans(),
    "last_card_sweep": st.booleans(),
    "redeal": st.booleans(),
    "target": st.sampled_from([11, 21, 31]),
    "match": st.sampled_from([1, 3, 5]),
    "all_diamonds_wins": st.booleans(),
}
