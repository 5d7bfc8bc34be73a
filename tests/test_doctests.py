"""The examples in the small modules' docstrings are run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["chkobba.cards", "chkobba.actions", "chkobba.messages", "chkobba.errors", "chkobba.options",
           "chkobba.games.chkobba.setup", "chkobba.games.seven_diamonds.setup"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
