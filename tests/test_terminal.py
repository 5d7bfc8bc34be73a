"""The terminal game: scripted input, plain-words refusals, saving and resuming."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from chkobba.session import Session
from chkobba.cli.terminal import main

pytest.importorskip("chkobba.agents")


def test_play_refuses_illegal_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    out = io.StringIO()
    # seat 0 plays whatever is asked; a wrong capture first, then quit
    rc = main(["--seed", "3", "--level", "easy", "--save", str(save)], stdin=io.StringIO("?\nQHx7D\nquit\n"),
              stdout=out)
    assert rc == 0
    text = out.getvalue()
    assert "legal:" in text and "not allowed: QH is not in your hand" in text
    rec = json.loads(save.read_text())
    sess = Session.from_record(rec)
    assert sess.to_act() == 0  # resumed at the human's turn
    out2 = io.StringIO()
    assert main(["--resume", str(save)], stdin=io.StringIO("quit\n"), stdout=out2) == 0
    assert "your hand:" in out2.getvalue()


def test_play_whole_match_with_first_legal_moves() -> None:
    """A scripted human asks for the legal moves (?) and plays the first one."""
    out = io.StringIO()

    class FirstLegal(io.StringIO):
        asked = False

        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            self.asked = not self.asked
            if self.asked:
                return "?\n"
            last = [ln for ln in out.getvalue().splitlines() if "legal: " in ln][-1]
            return last.split("legal: ")[1].split(",")[0].split("  ")[0] + "\n"

    rc = main(["--seed", "5", "--level", "easy"], stdin=FirstLegal(), stdout=out)
    assert rc == 0
    assert "match over: side" in out.getvalue()
    assert "not allowed" not in out.getvalue()
