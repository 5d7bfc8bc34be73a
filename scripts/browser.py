"""Start a headless Chromium for the e2e tests and the boot benchmark.

Uses Debian's `chromium` when it is on PATH (this machine cannot download
Playwright's own browser), else Playwright's default Chromium, so that
`playwright install chromium` is all a developer elsewhere needs.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

# Flags that keep Chromium from phoning home (this machine's network is closed,
# and the site must make no request to another origin anyway).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-features=MediaRouter,OptimizationHints,Translate",
]


def chromium_executable() -> str | None:
    explicit = os.environ.get("CHROMIUM")
    if explicit:
        return explicit
    return shutil.which("chromium") or shutil.which("chromium-browser")


def launch(playwright: Any, **kwargs: Any) -> Any:
    """Launch headless Chromium with the project's flags."""
    exe = chromium_executable()
    opts: dict[str, Any] = {"headless": True, "args": list(CHROMIUM_ARGS)}
    if exe:
        opts["executable_path"] = exe
    opts.update(kwargs)
    return playwright.chromium.launch(**opts)


def launch_persistent(playwright: Any, user_data_dir: str, **kwargs: Any) -> Any:
    """A persistent context (a real on-disk profile and HTTP cache), as a
    returning visitor's browser has; used by the boot benchmark's warm runs."""
    exe = chromium_executable()
    opts: dict[str, Any] = {"headless": True, "args": list(CHROMIUM_ARGS)}
    if exe:
        opts["executable_path"] = exe
    opts.update(kwargs)
    return playwright.chromium.launch_persistent_context(user_data_dir, **opts)
