"""Run one benchmark on the working tree and on another revision, side by side.

The other revision is checked out once as a git worktree in ``.cache/rev-<sha>``
(ignored by git; the same place ``bench/vs_revision.py`` uses). Each
measurement runs in a fresh subprocess whose ``sys.path`` starts with its
checkout (it checks that ``chkobba`` really came from there), pinned to one
core with ``taskset`` when available. The two sides run one after the other,
never at once, alternating which goes first, for several repeats; the report
gives each side's median and the ratio of the medians.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


BASELINE = "91c6593"   # main when issue 13 was filed (tag v0.1 where it exists)


def checkout(rev: str) -> Path:
    """A worktree of ``rev`` under .cache/ (the working tree itself for ``.``)."""
    if rev in (".", "working-tree", "HEAD+"):
        return ROOT
    if rev == "v0.1":   # the tag may exist only in the clone that made it
        rev = BASELINE
    sha = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    path = ROOT / ".cache" / f"rev-{sha[:12]}"
    if not (path / "chkobba" / "__init__.py").exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        git("worktree", "add", "--detach", "--force", str(path), sha)
    return path


def enter(root: str) -> None:
    """In a worker: import ``chkobba`` from ``root`` and nowhere else."""
    sys.path.insert(0, root)
    import chkobba
    origin = Path(chkobba.__file__).resolve()
    if Path(root).resolve() not in origin.parents:
        raise SystemExit(f"chkobba was imported from {origin}, not from {root}")


def run_worker(script: Path, root: Path, args: Sequence[str], cpu: int | None) -> dict[str, Any]:
    cmd = [sys.executable, str(script), "--worker", str(root), *args]
    if cpu is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(cpu), *cmd]
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    out = subprocess.run(cmd, cwd=root, check=True, capture_output=True, text=True, env=env).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def side_by_side(script: Path, baseline: str, args: Sequence[str], repeats: int, cpu: int | None,
                 higher_is_better: Sequence[str]) -> dict[str, Any]:
    """Run ``script --worker <checkout> args`` ``repeats`` times on each side,
    alternating; return the runs, the medians and the ratios (tree / baseline)."""
    base_root = checkout(baseline)
    sides = {"baseline": base_root, "tree": ROOT}
    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "tree": []}
    for i in range(repeats):
        order = ("baseline", "tree") if i % 2 == 0 else ("tree", "baseline")
        for name in order:
            r = run_worker(script, sides[name], args, cpu)
            runs[name].append(r)
            print(f"  repeat {i + 1}/{repeats} {name:8s} " +
                  "  ".join(f"{k}={r[k]:,}" for k in higher_is_better), file=sys.stderr, flush=True)
    medians = {name: {k: statistics.median(r[k] for r in rs) for k in higher_is_better} for name, rs in runs.items()}
    ratios = {k: round(medians["tree"][k] / medians["baseline"][k], 2) for k in higher_is_better}
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    try:
        load = list(os.getloadavg())
    except OSError:
        load = []
    return {
        "baseline": baseline,
        "baseline_commit": git("rev-parse", f"{baseline}^{{commit}}"),
        "tree_commit": git("rev-parse", "HEAD") + (" (+ uncommitted changes)" if dirty else ""),
        "repeats": repeats,
        "cpu": cpu if shutil.which("taskset") else None,
        "load_average_after": [round(x, 2) for x in load],
        "median": medians,
        "ratio": ratios,
        "runs": runs,
    }


def table(report: dict[str, Any], labels: dict[str, str]) -> str:
    """The medians and ratios as a Markdown table."""
    lines = ["| measure | baseline " + report["baseline"] + " | working tree | ratio |", "|---|---|---|---|"]
    for k, label in labels.items():
        b = report["median"]["baseline"][k]
        t = report["median"]["tree"][k]
        lines.append(f"| {label} | {b:,.0f} | {t:,.0f} | **{report['ratio'][k]:.2f}x** |")
    return "\n".join(lines)
