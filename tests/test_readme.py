"""The README's "Using the engine" example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_using_the_engine_example_runs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Using the engine", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), "README.md", "exec"), namespace)  # noqa: S102 (our own README)
    assert "p" in namespace
