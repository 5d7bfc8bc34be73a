"""Chkobba: options, constants, state (rules and scoring), observation,
determinize, view, and ``setup`` (a position from its parts)."""
