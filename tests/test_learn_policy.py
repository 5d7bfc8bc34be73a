"""The training of the learnt Chkobba policy (docs/agents.md, "Wave 6" and the
closing section) runs from its one documented command, ``python
bench/learn_policy.py train``, here at a tiny size (one slice of one game,
two sampled deals a move) into a temporary folder: it collects, fits and
writes a weights module that loads; a second run resumes (the finished slice
is not played again) and writes the same weights, so the data's seed decides
them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from chkobba.agents.policy import N_FEATURES

ROOT = Path(__file__).resolve().parents[1]


def train(tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "bench/learn_policy.py", "train", "--slices", "0", "--games", "1",
                           "--worlds", "2", "--data", str(tmp / "data"), "--write", str(tmp / "weights.py")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)


def test_the_documented_training_command_runs_at_a_tiny_size(tmp_path: Path) -> None:
    first = train(tmp_path)
    lines = (tmp_path / "data" / "gen0" / "slice-0.jsonl").read_text().splitlines()
    meta = json.loads(lines[-1])
    assert meta["done"] and meta["games"] == 1 and meta["worlds"] == 2 and meta["rows"] == len(lines) - 1 > 10
    assert '"slice": 0' in first.stdout          # the slice was collected
    ns: dict[str, object] = {}
    text = (tmp_path / "weights.py").read_text()
    exec(text, ns)
    weights = ns["WEIGHTS"]
    assert isinstance(weights, tuple) and len(weights) == N_FEATURES
    assert "collect --gen 0 --slices 0 --games 1 --seed 1 --worlds 2" in text   # the data's command and seed
    again = train(tmp_path)
    assert '"slice": 0' not in again.stdout      # resumed: nothing collected again
    assert (tmp_path / "weights.py").read_text() == text
