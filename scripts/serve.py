#!/usr/bin/env python3
"""Serve a built site folder on 127.0.0.1 with the MIME types Pyodide needs.

Caching: the site's `_headers` file (written by scripts/build_site.py, in the
format Netlify and Cloudflare Pages read) names the files whose URL changes
with their content; they are sent with its Cache-Control (cached for good).
Everything else is sent with `no-cache` (revalidated on every use: cheap 304s,
and a rebuilt site is never mixed with stale files).

Compression: text, wasm, the zips and the memory snapshot are sent
compressed to browsers that accept it: the build's brotli copy (FILE.br,
scripts/build_site.py) where there is one and the browser accepts `br`, else
gzip (each file compressed once and kept in memory): the wasm goes from 9.6
to 2.8 MB on the wire (3.6 MB gzip; docs/boot.md). `--no-gzip` sends every
file as it is.
The site never depends on it: any static host works without.

    python scripts/serve.py [--dir build/site] [--port 8000]

`--port 0` picks a free port. The e2e tests and the benchmark import
`start_server(directory, port=0)`, which serves from a background thread and
returns the server (its URL is `server.url`).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import os
import socket
import sys
import threading
import urllib.parse
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


def read_headers_file(path: Path) -> list[tuple[str, list[tuple[str, str]]]]:
    """Rules of a `_headers` file: a URL path (a trailing `*` matches any
    rest) on its own line, then its headers indented as `Name: value`."""
    rules: list[tuple[str, list[tuple[str, str]]]] = []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return rules
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), []))
        elif rules and ":" in line:
            name, value = line.split(":", 1)
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def headers_for(url_path: str, rules: list[tuple[str, list[tuple[str, str]]]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pattern, headers in rules:
        hit = url_path.startswith(pattern[:-1]) if pattern.endswith("*") else url_path == pattern
        if hit:
            out.update(headers)
    return out


COMPRESSIBLE = {".wasm", ".mjs", ".js", ".css", ".html", ".json", ".webmanifest", ".svg", ".py", ".bin", ".zip"}
_GZIPPED: dict[tuple[str, int], bytes] = {}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **EXTRA_TYPES}
    quiet = True
    gzip = False

    def accepts(self, coding: str) -> bool:
        for part in self.headers.get("Accept-Encoding", "").split(","):
            name, _, params = part.strip().partition(";")
            if name.strip().lower() == coding:
                return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
        return False

    def send_head(self) -> io.BytesIO | None:  # type: ignore[override]
        path = self.translate_path(self.path)
        if (not self.gzip or os.path.isdir(path) or os.path.splitext(path)[1] not in COMPRESSIBLE
                or not os.path.isfile(path)):
            return super().send_head()  # type: ignore[return-value]
        if os.path.isfile(path + ".br") and self.accepts("br"):
            return self.send_encoded(path, "br")
        if not self.accepts("gzip"):
            return super().send_head()  # type: ignore[return-value]
        return self.send_encoded(path, "gzip")

    def send_encoded(self, path: str, coding: str) -> io.BytesIO | None:
        """The file gzipped (once, kept in memory) or its brotli copy made by
        the build (FILE.br), with validators of their own."""
        st = os.stat(path)
        etag = f'"{st.st_mtime_ns:x}-{st.st_size:x}-{"br" if coding == "br" else "gz"}"'
        modified = self.date_time_string(int(st.st_mtime))
        if self.headers.get("If-None-Match") == etag or (
                "If-None-Match" not in self.headers and self.headers.get("If-Modified-Since") == modified):
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        if coding == "br":
            with open(path + ".br", "rb") as fh:
                data = fh.read()
        else:
            key = (path, st.st_mtime_ns)
            data = _GZIPPED.get(key) or b""
            if not data:
                with open(path, "rb") as fh:
                    data = _GZIPPED[key] = gzip.compress(fh.read(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(data)

    def end_headers(self) -> None:
        # Read for every response (a small file): a site rebuilt in place
        # brings its own rules.
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        extra = self.rules_for(path) if getattr(self, "_status", 200) < 400 else {}
        extra.setdefault("Cache-Control", "no-cache")
        for name, value in extra.items():
            self.send_header(name, value)
        super().end_headers()

    def rules_for(self, path: str) -> dict[str, str]:
        """Headers from the nearest `_headers` at or above the file's folder
        (a site may be served from a subfolder, as the benchmark does); its
        paths are relative to the folder it is in."""
        root = Path(self.directory).resolve()
        parts = [p for p in path.split("/")[:-1] if p and p not in (".", "..")]
        for n in range(len(parts), -1, -1):
            folder = root.joinpath(*parts[:n])
            if (folder / "_headers").is_file():
                prefix = "/" + "".join(p + "/" for p in parts[:n])
                return headers_for("/" + path[len(prefix):], read_headers_file(folder / "_headers"))
        return {}

    def send_response(self, code: int, message: str | None = None) -> None:
        self._status = code
        super().send_response(code, message)

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
                quiet: bool = True, compress: bool = True) -> Server:
    cls = type("GzipHandler", (Handler,), {"gzip": True}) if compress else Handler
    handler = functools.partial(cls, directory=str(directory))
    Handler.quiet = quiet
    return Server((host, port), handler)


def start_server(directory: Path | str, port: int = 0, host: str = "127.0.0.1",
                 compress: bool = True) -> Server:
    """Serve `directory` from a daemon thread; call `.shutdown()` to stop."""
    server = make_server(directory, port, host, compress=compress)
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
    ap.add_argument("--no-gzip", action="store_true",
                    help="send every file as it is (by default text, wasm and the snapshot go gzip-compressed)")
    args = ap.parse_args(argv)
    if not (args.dir / "index.html").exists():
        print(f"no site in {args.dir}: run python scripts/build_site.py", file=sys.stderr)
        return 1
    port = args.port
    if port and not port_is_free(port):
        print(f"port {port} is busy; using a free one", file=sys.stderr)
        port = 0
    server = make_server(args.dir, port, quiet=not args.verbose, compress=not args.no_gzip)
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
