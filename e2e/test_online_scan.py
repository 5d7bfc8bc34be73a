"""The host scans the friend's answer with the camera ("Scan their answer",
web/online/scan.js): the friend's real answer drawn as a QR code by the
site's own encoder (npm qrcode-generator), written as a .y4m video that
Chromium's fake camera plays (--use-file-for-fake-video-capture), read by the
page (jsqr: headless Chromium on Linux has no BarcodeDetector for QR codes)
and checked as a pasted answer: the friend sits. A QR code of other text
gives one clear error and changes nothing, and the camera stops when the
dialog closes. An answer link opened in a browser that hosts no table says
where to go."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e_driver import PHONE
from online_helpers import DRAWN, answer_of, invite_link, open_host

ROOT = Path(__file__).resolve().parent.parent
SIDE = 720   # the fake camera's frames: SIDE x SIDE pixels

# Installed before the page's scripts: every camera stream the page opens, to see it stopped.
STREAMS = """window.__streams = [];
if (navigator.mediaDevices) {
  const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (c) => { const s = await open(c); window.__streams.push(s); return s; };
}"""
CAMERA_OFF = "() => window.__streams.length > 0 && window.__streams.every((s) => s.getTracks().every((t) => t.readyState === 'ended'))"


def qr_modules(text: str) -> list[str]:
    """The QR code of `text` as the invitation's page draws it (qrcode-generator, level L): rows of 0/1."""
    script = ("import qrcode from " + json.dumps(str(ROOT / "node_modules/qrcode-generator/dist/qrcode.mjs")) + ";"
              "const qr = qrcode(0, 'L'); qr.addData(process.argv[1], 'Byte'); qr.make(); const n = qr.getModuleCount();"
              "for (let r = 0; r < n; r++) { let row = ''; for (let c = 0; c < n; c++) row += qr.isDark(r, c) ? '1' : '0';"
              " console.log(row); }")
    out = subprocess.run(["node", "--input-type=module", "-e", script, text], capture_output=True, text=True,
                         check=True, timeout=60)
    return out.stdout.split()


def write_y4m(path: Path, text: str | None) -> None:
    """Two grey-scale frames of the QR code of `text` (white when None), its quiet zone included."""
    luma = bytearray(b"\xff" * (SIDE * SIDE))
    if text is not None:
        rows = qr_modules(text)
        n = len(rows)
        px = SIDE // (n + 8)
        off = (SIDE - px * n) // 2
        for r, row in enumerate(rows):
            for c, dark in enumerate(row):
                if dark == "1":
                    for y in range(off + r * px, off + (r + 1) * px):
                        luma[y * SIDE + off + c * px: y * SIDE + off + (c + 1) * px] = b"\x00" * px
    chroma = b"\x80" * (2 * (SIDE // 2) * (SIDE // 2))
    frame = b"FRAME\n" + bytes(luma) + chroma
    path.write_bytes(f"YUV4MPEG2 W{SIDE} H{SIDE} F10:1 Ip A1:1 C420jpeg\n".encode() + frame * 2)


@pytest.fixture()
def camera(playwright: Any, base_url: str, tmp_path: Path) -> Iterator[tuple[Any, Path]]:
    """A browser whose camera plays `video` (written by the test before it taps Scan): a host's page in it."""
    from browser import launch
    video = tmp_path / "camera.y4m"
    write_y4m(video, None)
    b = launch(playwright, args=["--no-sandbox", "--disable-gpu", "--use-fake-device-for-media-stream",
                                 "--use-fake-ui-for-media-stream", f"--use-file-for-fake-video-capture={video}"])
    ctx = b.new_context(viewport=PHONE, service_workers="block", permissions=["camera"])
    ctx.add_init_script(STREAMS)
    errors: list[str] = []
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(60_000)
    page.base_url = base_url
    try:
        yield page, video
        assert errors == []
    finally:
        b.close()


def hosting(camera: tuple[Any, Path]) -> Any:
    page, _ = camera
    host = open_host(lambda viewport: page)
    host.click("#host-button")
    return host


def test_online_the_host_scans_the_friends_answer_and_the_friend_sits(camera: tuple[Any, Path],
                                                                       make_page: Any) -> None:
    t0 = time.perf_counter()
    host = hosting(camera)
    link = invite_link(host, 1)
    friend = make_page(PHONE)
    answer = answer_of(friend, link)
    write_y4m(camera[1], answer)   # the friend's screen, held up to the host's camera
    scan = host.locator(".invite-card[data-seat='1'] .answer-scan")
    assert scan.is_visible()
    # the decoder is fetched on the tap, not before
    assert host.evaluate("() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/jsqr.mjs'))") is False
    t_scan = time.perf_counter()
    scan.click()
    friend.wait_for_function(DRAWN, timeout=120_000)
    t1 = time.perf_counter()   # docs/online.md's taps and seconds (-s prints them)
    print(f"\n'Host this table' to the friend seated: {t1 - t0:.1f} s; the scan's tap to seated: {t1 - t_scan:.1f} s")
    host.wait_for_selector("#presence [data-seat='1'][data-state='here'], #presence [data-seat='1'][data-state='thinking']")
    host.locator("dialog.scan-dialog").wait_for(state="detached")
    host.wait_for_function(CAMERA_OFF)
    assert "host:1:scanned:text" in host.evaluate("() => window.chkobbaOnline.events")
    if not host.evaluate("() => 'BarcodeDetector' in window"):   # read by the self-hosted decoder
        assert host.evaluate("() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/jsqr.mjs'))")


def test_online_a_qr_code_that_is_no_answer_gives_one_clear_error_and_changes_nothing(
        camera: tuple[Any, Path], make_page: Any) -> None:
    host = hosting(camera)
    card = host.locator(".invite-card[data-seat='1']")
    link = invite_link(host, 1)
    # the dialog with its camera fits a small phone either way up
    write_y4m(camera[1], None)
    card.locator(".answer-scan").click()
    dialog = host.locator("dialog.scan-dialog")
    host.wait_for_function("() => document.querySelector('.scan-video') && document.querySelector('.scan-video').videoWidth > 0")
    for size in ({"width": 360, "height": 640}, {"width": 320, "height": 568}, {"width": 640, "height": 360}):
        host.set_viewport_size(size)
        box = host.evaluate("""() => { const r = document.querySelector('dialog.scan-dialog').getBoundingClientRect();
            const b = document.querySelector('.scan-close').getBoundingClientRect();
            return [r.left, r.top, r.right, r.bottom, b.bottom, innerWidth, innerHeight]; }""")
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= box[5] and box[3] <= box[6] and box[4] <= box[3], (size, box)
    host.set_viewport_size(PHONE)
    host.click("dialog.scan-dialog .scan-close")
    dialog.wait_for(state="detached")   # removed by the dialog's close event, a task later
    host.wait_for_function(CAMERA_OFF)
    # a hostile code: a link of this site that is no answer, with markup in it
    write_y4m(camera[1], "https://example.invalid/online.html#answer=<img src=x onerror=alert(1)>")
    card.locator(".answer-scan").click()
    host.wait_for_function("() => window.chkobbaOnline.events.includes('host:1:scanned:text')", timeout=60_000)
    host.wait_for_function("""() => document.querySelector(".invite-card[data-seat='1'] .invite-state").textContent
        .startsWith('This code is not an answer')""")
    dialog.wait_for(state="detached")
    host.wait_for_function(CAMERA_OFF)
    assert card.get_attribute("data-state") == "inviting"
    assert card.get_attribute("data-link") == link
    assert card.locator(".answer-scan").is_visible() and card.locator(".answer-input").is_visible()
    assert host.locator("img[src='x']").count() == 0
    # and the real answer still seats the friend after it (pasted, this time)
    friend = make_page(PHONE)
    answer = answer_of(friend, link)
    host.fill(".invite-card[data-seat='1'] .answer-input", answer)
    host.click(".invite-card[data-seat='1'] .answer-use")
    friend.wait_for_function(DRAWN, timeout=120_000)


def test_online_an_answer_link_in_a_browser_that_hosts_nothing_says_where_to_go(make_page: Any) -> None:
    host = open_host(make_page)
    host.click("#host-button")
    friend = make_page(PHONE)
    answer = answer_of(friend, invite_link(host, 1))
    other = make_page(PHONE)   # another browser app on the host's phone: no table kept there
    other.goto(answer)
    other.wait_for_selector("#relay:not([hidden])")
    text = other.locator("#relay .relay-text")
    assert text.inner_text().startswith("This is your friend's answer, but this browser is not hosting the table.")
    other.wait_for_timeout(3500)   # after the hand-over's wait, it still says so
    assert text.inner_text().startswith("This is your friend's answer")
    assert "Host this table" in text.inner_text()
