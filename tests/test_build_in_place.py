"""scripts/build_site.py builds beside the site and then puts the new site in
its place: a server serving the folder meanwhile (a page's update check
during `build_site.py` while `serve.py` runs) finds the old site or the new
one whole, never a half-built one; a build that fails leaves the old site."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import build_site  # noqa: E402


def old_site(out: Path) -> None:
    out.mkdir(parents=True)
    (out / "sw.js").write_text("old")
    (out / "index.html").write_text("old")


def test_the_old_site_is_served_whole_until_the_new_one_replaces_it(tmp_path: Path,
                                                                    monkeypatch: Any) -> None:
    out = tmp_path / "site"
    old_site(out)
    seen: list[dict[str, str]] = []

    def build_into(stage: Path, *args: Any) -> dict[str, object]:
        stage.mkdir(parents=True)
        (stage / "sw.js").write_text("template")  # the first step copies web/ as it is
        seen.append({p.name: p.read_text() for p in out.iterdir()})
        (stage / "sw.js").write_text("new")
        (stage / "index.html").write_text("new")
        seen.append({p.name: p.read_text() for p in out.iterdir()})
        return {"build_id": "x"}

    monkeypatch.setattr(build_site, "build_into", build_into)
    assert build_site.build(out, True, "x") == {"build_id": "x"}
    assert seen == [{"sw.js": "old", "index.html": "old"}] * 2
    assert {p.name: p.read_text() for p in out.iterdir()} == {"sw.js": "new", "index.html": "new"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"], "a scratch folder was left behind"


def test_a_failed_build_leaves_the_old_site(tmp_path: Path, monkeypatch: Any) -> None:
    out = tmp_path / "site"
    old_site(out)

    def build_into(stage: Path, *args: Any) -> dict[str, object]:
        stage.mkdir(parents=True)
        (stage / "sw.js").write_text("template")
        raise SystemExit("[build] missing something")

    monkeypatch.setattr(build_site, "build_into", build_into)
    with pytest.raises(SystemExit):
        build_site.build(out, True, "x")
    assert {p.name: p.read_text() for p in out.iterdir()} == {"sw.js": "old", "index.html": "old"}
    # The next build starts from a clean scratch folder.
    monkeypatch.setattr(build_site, "build_into", lambda stage, *a: (stage.mkdir(), {})[1])
    build_site.build(out, True, "x")
    assert list(out.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_the_first_build_makes_the_folder(tmp_path: Path, monkeypatch: Any) -> None:
    out = tmp_path / "a" / "site"

    def build_into(stage: Path, *args: Any) -> dict[str, object]:
        stage.mkdir(parents=True)
        (stage / "sw.js").write_text("new")
        return {}

    monkeypatch.setattr(build_site, "build_into", build_into)
    build_site.build(out, True, "x")
    assert (out / "sw.js").read_text() == "new"


def test_one_build_at_a_time_uses_the_cache(tmp_path: Path, monkeypatch: Any) -> None:
    """Two builds side by side (two test processes, or a build while another
    runs) would write build/cache/'s intermediate files under each other: the
    second one waits for the first's lock."""
    import fcntl
    monkeypatch.setattr(build_site, "CACHE", tmp_path / "cache")
    held: list[bool] = []

    def build_into(stage: Path, *args: Any) -> dict[str, object]:
        stage.mkdir()
        with open(tmp_path / "cache" / ".lock", "w") as other:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                held.append(True)
            else:
                held.append(False)
        return {}

    monkeypatch.setattr(build_site, "build_into", build_into)
    build_site.build(tmp_path / "site", True, "x")
    assert held == [True]
    # and it is let go once the build is done
    with open(tmp_path / "cache" / ".lock", "w") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_a_node_step_that_fails_is_tried_twice_then_named(monkeypatch: Any) -> None:
    """A Node step that fails (here: a script that does not exist) is run once
    more, then the build goes on without it and says why: in its log, in
    build-info.json's warnings, and with --strict as a failed build."""
    monkeypatch.setattr(build_site, "WARNINGS", [])
    runs: list[list[str]] = []
    real_popen = build_site.subprocess.Popen

    def popen(cmd: list[str], **kw: Any) -> Any:
        runs.append(cmd)
        return real_popen(cmd, **kw)

    monkeypatch.setattr(build_site.subprocess, "Popen", popen)
    assert build_site.run_node("no-such-step.mjs", [], timeout=60) is None
    assert len(runs) == 2
    assert len(build_site.WARNINGS) == 1
    assert "no-such-step.mjs failed (exit 1:" in build_site.WARNINGS[0], build_site.WARNINGS


def test_a_node_step_shows_its_lines_as_they_come_and_a_silent_hang_is_stopped(tmp_path: Path,
                                                                               monkeypatch: Any) -> None:
    """The build's progress: each line a Node step prints reaches ``show``
    while the step runs; a step that hangs without a word is stopped at its
    timeout (a watchdog, not the next line), tried once more, then named."""
    monkeypatch.setattr(build_site, "WARNINGS", [])
    script = build_site.ROOT / "scripts" / f".test-step-{os.getpid()}.mjs"
    script.write_text("console.log('one'); console.log('two'); setTimeout(() => {}, 60000);\n")
    try:
        seen: list[str] = []
        t0 = time.monotonic()
        assert build_site.run_node(script.name, [], timeout=3, show=seen.append) is None
        assert seen == ["one", "two", "one", "two"]
        assert time.monotonic() - t0 < 20
        assert "timed out" in build_site.WARNINGS[0], build_site.WARNINGS
    finally:
        script.unlink()


def test_strict_fails_a_build_that_went_without_a_step(tmp_path: Path, monkeypatch: Any,
                                                       capsys: Any) -> None:
    monkeypatch.setattr(build_site, "WARNINGS", [])

    def build(out: Path, *args: Any, **kw: Any) -> dict[str, object]:
        build_site.warn("make_snapshot.mjs failed (exit 1: out of memory)")
        return {}

    monkeypatch.setattr(build_site, "build", build)
    assert build_site.main(["--out", str(tmp_path / "site")]) == 0
    assert build_site.main(["--out", str(tmp_path / "site"), "--strict"]) == 1
    assert "failed (--strict): make_snapshot.mjs failed (exit 1: out of memory)" in capsys.readouterr().err
