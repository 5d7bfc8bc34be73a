#!/usr/bin/env python3
"""Serve a built site folder on 127.0.0.1 with the MIME types Pyodide needs.

    python scripts/serve.py [--dir build/site] [--port 8000]

`--port 0` picks a free port. The e2e tests and the benchmark import
`start_server(directory, port=0)`, which serves from a background thread and
returns the server (its URL is `server.url`).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import socket
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

EXTRA_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
    ".py": "text/plain; charset=utf-8",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **EXTRA_TYPES}
    quiet = True

    def end_headers(self) -> None:
        # Revalidate every time (cheap 304s): a rebuilt site is never mixed
        # with stale files from the browser cache.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: object, client_address: object) -> None:
        # A browser that closes a connection mid-download (page reloaded or
        # closed) is normal; anything else is reported as usual.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"


def make_server(directory: Path | str, port: int = 0, host: str = "127.0.0.1",
                quiet: bool = True) -> Server:
    handler = functools.partial(Handler, directory=str(directory))
    Handler.quiet = quiet
    return Server((host, port), handler)


def start_server(directory: Path | str, port: int = 0, host: str = "127.0.0.1") -> Server:
    """Serve `directory` from a daemon thread; call `.shutdown()` to stop."""
    server = make_server(directory, port, host)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    return server


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Serve the built site on 127.0.0.1")
    ap.add_argument("--dir", type=Path, default=ROOT / "build" / "site")
    ap.add_argument("--port", type=int, default=8000,
                    help="port (0 = any free one; if the given one is busy, a free one is used)")
    ap.add_argument("--verbose", action="store_true", help="log every request")
    args = ap.parse_args(argv)
    if not (args.dir / "index.html").exists():
        print(f"no site in {args.dir}: run python scripts/build_site.py", file=sys.stderr)
        return 1
    port = args.port
    if port and not port_is_free(port):
        print(f"port {port} is busy; using a free one", file=sys.stderr)
        port = 0
    server = make_server(args.dir, port, quiet=not args.verbose)
    print(f"Serving {args.dir} at {server.url}  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
