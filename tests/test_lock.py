"""requirements-test.lock answers pyproject.toml: every test and build
requirement is pinned there to one version its range allows, with hashes (a
range edited without re-running scripts/lock_python.sh fails here)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s\\]+)")


def pins(text: str) -> dict[str, tuple[Version, int]]:
    """Each pinned package's version and how many hashes it carries."""
    out: dict[str, tuple[Version, int]] = {}
    name = ""
    for line in text.splitlines():
        m = PIN.match(line)
        if m:
            name = canonicalize_name(m.group(1))
            assert name not in out, f"{name} pinned twice"
            out[name] = (Version(m.group(2)), 0)
        elif line.strip().startswith("--hash=sha256:") and name:
            version, hashes = out[name]
            out[name] = (version, hashes + 1)
    return out


def required() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    reqs = project["project"]["optional-dependencies"]["test"] + project["build-system"]["requires"]
    return [Requirement(r) for r in reqs]


def unmet(lock: str) -> list[str]:
    locked = pins(lock)
    out = []
    for req in required():
        name = canonicalize_name(req.name)
        if name not in locked:
            out.append(f"{req.name} is not in the lock")
        elif not req.specifier.contains(locked[name][0], prereleases=True):
            out.append(f"{req.name}: the lock has {locked[name][0]}, pyproject.toml asks {req.specifier}")
    out += [f"{n} has no hash" for n, (_, hashes) in locked.items() if hashes == 0]
    return out


def test_the_lock_pins_every_requirement_with_hashes() -> None:
    lock = (ROOT / "requirements-test.lock").read_text(encoding="utf-8")
    assert unmet(lock) == []
    assert {"pytest", "hypothesis", "mypy", "playwright", "setuptools"} <= set(pins(lock))


def test_the_check_sees_a_stale_lock() -> None:
    lock = (ROOT / "requirements-test.lock").read_text(encoding="utf-8")
    pytest_pin = re.search(r"^pytest==\S+", lock, re.M)
    assert pytest_pin
    assert unmet(lock.replace(pytest_pin.group(0), "pytest==7.4.0")) == \
        ["pytest: the lock has 7.4.0, pyproject.toml asks >=8"]
    no_mypy = re.sub(r"^mypy==.*?(?=^\S)", "", lock, flags=re.M | re.S)
    assert unmet(no_mypy) == ["mypy is not in the lock"]
