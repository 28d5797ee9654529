#!/usr/bin/env python3
"""crafty in headless Chromium: the end-to-end test, storage failures, touch,
the WebGPU attempt, the samples, and the tab-kill test. Run after `crafty/web/build.sh` (it serves the built folder).

    python3 crafty/web/tests/browser.py                 # everything, 10 tab kills
    python3 crafty/web/tests/browser.py e2e             # one part: e2e, storage, touch, full_quality,
                                                 # webgpu, samples, kills
    python3 crafty/web/tests/browser.py kills --kills 50   # the full kill run

Needs Chromium and chromedriver (Debian: chromium chromium-driver), Python's
selenium and Pillow. Writes a JSON report (sizes, first-frame times,
outcomes) to crafty/web/dist/browser-report.json. Exits non-zero when any part
fails but the WebGPU one, which only reports.
"""

import argparse
import base64
import functools
import http.server
import json
import os
import queue
import shutil
import signal
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from PIL import Image, ImageStat
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.mouse_button import MouseButton
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import WebDriverException

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
REFERENCE = os.path.join(HERE, "reference", "crafty_webgl2.png")
# Software rendering (SwiftShader) draws crafty at about a frame a second
# at the default settings' cost: the tests turn off shadows and light
# shafts and keep the view short, through the page address's overrides.
LIGHT = "shadows=off&shafts=off&view=3"
WINDOW = (int(os.environ.get("TAOS_WEB_W", 800)), int(os.environ.get("TAOS_WEB_H", 600)))


class Failure(Exception):
    """A check failed; the message says which and what was seen."""


def serve(directory):
    """Serves `directory` on a free local port in a thread; returns the base URL."""
    handler = functools.partial(QuietHandler, directory=directory)
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


class Browser:
    """One headless Chromium on a user-data dir (which keeps IndexedDB)."""

    def __init__(self, profile, webgpu=False, block_storage=False):
        self.profile = profile
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", f"--user-data-dir={profile}",
                     "--enable-unsafe-swiftshader", "--use-angle=swiftshader",
                     f"--window-size={WINDOW[0]},{WINDOW[1]}"):
            options.add_argument(flag)
        if webgpu:
            options.add_argument("--enable-unsafe-webgpu")
            options.add_argument("--enable-features=Vulkan")
        if block_storage:
            # Site data refused, as with cookies blocked: IndexedDB will not open.
            options.add_experimental_option("prefs", {"profile.default_content_setting_values.cookies": 2})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        self.driver = webdriver.Chrome(options=options, service=Service(driver_path))
        self.driver.set_script_timeout(30)

    def open(self, url):
        self.driver.get(url)

    def status(self):
        return self.driver.execute_script(
            "const e = document.getElementById('crafty-status');"
            "return e ? JSON.parse(e.textContent) : null;")

    def page_error(self):
        return self.driver.execute_script(
            "const e = document.getElementById('taos-error');"
            "return e && e.dataset.shown ? e.textContent : null;")

    def wait_for(self, what, check, timeout, read=None, every=0.1):
        """Polls `read()` (the page status unless given) until `check` holds
        for what it returned; fails on a page error, or with what was seen."""
        read = read or self.status
        deadline = time.monotonic() + timeout
        seen = None
        while time.monotonic() < deadline:
            error = self.page_error()
            if error:
                raise Failure(f"{what}: the page shows an error: {error}")
            seen = read()
            if seen is not None and check(seen):
                return seen
            time.sleep(every)
        raise Failure(f"{what}: not within {timeout} s; last seen {seen}; status {self.status()}; "
                      f"console: {self.console()[-5:]}")

    def console(self):
        try:
            return [entry["message"] for entry in self.driver.get_log("browser")]
        except Exception:  # noqa: BLE001 - the log is a diagnosis aid only
            return []

    def canvas(self):
        return self.driver.find_element(By.TAG_NAME, "canvas")

    def click(self, hold=0.0):
        """A click on the canvas; `hold` seconds between press and release, so
        that a game ticking about once a second sees the button down."""
        actions = ActionChains(self.driver).move_to_element(self.canvas()).click_and_hold()
        actions.pause(hold).release().perform()

    def right_click(self, hold=0.0):
        """A right click on the canvas (place a block), held `hold` seconds."""
        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to(self.canvas())
        actions.pointer_action.pointer_down(button=MouseButton.RIGHT)
        actions.pointer_action.pause(hold)
        actions.pointer_action.pointer_up(button=MouseButton.RIGHT)
        actions.perform()

    def hold(self, key, seconds):
        actions = ActionChains(self.driver)
        actions.key_down(key).perform()
        time.sleep(seconds)
        ActionChains(self.driver).key_up(key).perform()

    def canvas_rect(self):
        """The canvas's [x, y, width, height] in CSS pixels of the viewport."""
        return self.driver.execute_script(
            "const r = document.querySelector('canvas').getBoundingClientRect();"
            "return [r.x, r.y, r.width, r.height];")

    def cdp(self, command, params=None):
        """A DevTools protocol command (touch input, storage quota)."""
        return self.driver.execute_cdp_cmd(command, params or {})

    def touch(self, kind, points=()):
        """One touch event: `kind` is touchStart, touchMove or touchEnd;
        `points` are (x, y) fractions of the canvas, one per finger."""
        rect = self.canvas_rect()
        self.cdp("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": rect[0] + fx * rect[2], "y": rect[1] + fy * rect[3], "id": finger}
            for finger, (fx, fy) in enumerate(points)]})

    def screenshot(self, path, attempts=4):
        """The canvas as an image, saved at `path`. A page drawing a frame a
        second on a loaded machine can make ChromeDriver's element capture
        time out waiting for the renderer: it tries again, and the last
        tries capture the canvas's rectangle through the DevTools protocol."""
        problem = None
        for attempt in range(attempts):
            try:
                if attempt < attempts // 2:
                    self.canvas().screenshot(path)
                else:
                    self.capture_rect(path)
                return Image.open(path).convert("RGB")
            except WebDriverException as error:
                problem = error
                time.sleep(2)
        raise Failure(f"no screenshot after {attempts} tries: {first_line(problem)}")

    def capture_rect(self, path):
        rect = self.canvas_rect()
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png",
            "clip": {"x": rect[0], "y": rect[1], "width": rect[2], "height": rect[3], "scale": 1},
        })
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))

    def kill(self):
        """Kills Chromium outright (SIGKILL to the browser and every process
        under it): a crashed or force-closed tab, with no unload handlers."""
        driver_pid = self.driver.service.process.pid
        doomed, frontier = [], [driver_pid]
        while frontier:
            children = subprocess.run(["pgrep", "-P", str(frontier.pop())],
                                      capture_output=True, text=True).stdout.split()
            doomed += [int(c) for c in children]
            frontier += [int(c) for c in children]
        for pid in doomed:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            self.driver.service.stop()
        except Exception:  # noqa: BLE001 - the browser is gone already
            pass

    def quit(self):
        try:
            self.driver.quit()
        except Exception:  # noqa: BLE001
            pass


def first_line(error):
    """The first line of a WebDriver error (the rest is a stack trace)."""
    return (getattr(error, "msg", None) or str(error)).strip().splitlines()[0] if error else "?"


def playing(status):
    return status.get("screen") == "playing" and status.get("frames", 0) >= 3


def looks_rendered(image):
    """A rendered frame: not one flat colour, and not mostly black."""
    stat = ImageStat.Stat(image)
    spread = sum(stat.stddev) / 3
    brightness = sum(stat.mean) / 3
    return spread > 8 and brightness > 20, f"mean {brightness:.0f}, spread {spread:.0f}"


def loosely_like(image, reference_path):
    """Mean absolute difference of 40x30 thumbnails, 0..255."""
    if not os.path.exists(reference_path):
        return None
    a = image.resize((40, 30))
    b = Image.open(reference_path).convert("RGB").resize((40, 30))
    diff = sum(abs(x - y) for pa, pb in zip(a.getdata(), b.getdata()) for x, y in zip(pa, pb))
    return diff / (40 * 30 * 3)


def break_blocks(browser, clicks, look=True, attempts=8, place_back=False):
    """Grabs the pointer, looks down at the ground (unless the saved view
    already does), and breaks blocks until `clicks` more edits show, or
    `attempts` tries. Software rendering runs a frame or two a second and
    the loop caps its catch-up ticks, so a key held for a second of wall
    time turns the view by less than a second of game time: it keeps
    looking down and clicking until the game reports the edits. Returns
    the edits made."""
    start = (browser.status() or {}).get("edits", 0)
    browser.click()  # grabs the pointer; breaks nothing
    made = 0
    for attempt in range(attempts):
        if look or attempt > 0:
            browser.hold(Keys.ARROW_DOWN, 2.0)
        browser.click(hold=1.5)
        if place_back:
            # Put a block back where one was broken, so that the next round
            # still finds ground within reach (creative players hover).
            browser.right_click(hold=1.5)
        time.sleep(1.0)
        made = (browser.status() or {}).get("edits", start) - start
        if made >= clicks:
            break
    return made


def test_e2e(base, report, profile):
    """Create a world on WebGL2, break a block, wait for the autosave, reload,
    and find the edit again; the canvas shows a rendered frame."""
    browser = Browser(profile)
    try:
        started = time.monotonic()
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world=new:42")
        first = browser.wait_for("the first frame", lambda s: s.get("frames", 0) >= 1, 180)
        report["first_frame_s"] = round(time.monotonic() - started, 2)
        status = browser.wait_for("the new world playing", playing, 180)
        report["backend_webgl2"] = status["backend"]
        if status["backend"] != "Gl":
            raise Failure(f"?backend=webgl2 gave {status['backend']}")
        time.sleep(2)
        shot = browser.screenshot(os.path.join(report["out"], "crafty_webgl2.png"))
        ok, seen = looks_rendered(shot)
        report["screenshot"] = seen
        if not ok:
            raise Failure(f"the canvas does not show a rendered frame ({seen})")
        distance = loosely_like(shot, REFERENCE)
        report["screenshot_difference"] = distance
        if distance is not None and distance > 60:
            raise Failure(f"the frame is far from the reference (mean difference {distance:.0f}/255)")
        break_blocks(browser, 1)
        status = browser.wait_for("a broken block", lambda s: s["edits"] >= 1, 30)
        edit = status["last_edit"]
        if edit[1] != "Air":
            raise Failure(f"the edit is not a broken block: {edit}")
        world = status["world"]
        status = browser.wait_for("the autosave", lambda s: s["saved_edits"] == s["edits"] and s["saves"] >= 1, 60)
        edits = status["edits"]
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world={urllib.parse.quote(world)}")
        status = browser.wait_for("the world reopened", playing, 180)
        if status["world"] != world or status["edits"] != edits or status["last_edit"] != edit:
            raise Failure(f"after reload: {status}, expected world {world} with {edits} edits ending in {edit}")
        # F10 saves and returns to the launcher, which lists the world with
        # the thumbnail taken on leaving (read back without blocking).
        ActionChains(browser.driver).send_keys(Keys.F10).perform()
        status = browser.wait_for("the launcher after F10", lambda s: s["screen"] == "launcher" and not s["busy"], 120)
        if "Seed 42" not in status["worlds"]:
            raise Failure(f"the launcher lists {status['worlds']}, not 'Seed 42'")
        if status["thumbnails"] < 1:
            raise Failure(f"no thumbnail in the launcher after F10: {status}; console: {browser.console()[-5:]}")
        report["e2e"] = (f"ok: world {world}, {edits} edit(s), {edit} found again after reload; "
                         f"listed in the launcher after F10 ({status['thumbnails']} thumbnails)")
    finally:
        browser.quit()


# estimate() reporting `window.__taosQuota` as the quota while it is set.
FULL_QUOTA_ESTIMATE = """
window.__taosQuota = 1;
const realEstimate = StorageManager.prototype.estimate;
StorageManager.prototype.estimate = async function () {
  const estimate = await realEstimate.call(this);
  return window.__taosQuota === null ? estimate : { ...estimate, quota: window.__taosQuota };
};
"""


def native_binary(name):
    """A native binary of the workspace (the tests built it; built here if not)."""
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    path = os.path.join(target, "debug", name)
    if not os.path.exists(path):
        subprocess.run(["cargo", "build", "-q", "-p", "crafty_server", "-p", "crafty_client", "--bins"], cwd=ROOT, check=True)
    return path


def line_reader(process):
    """A queue filled with `process`'s stdout lines by a thread."""
    lines = queue.Queue()

    def pump():
        for line in process.stdout:
            lines.put(line.strip())
    threading.Thread(target=pump, daemon=True).start()
    return lines


def next_line(lines, what, timeout, match=lambda line: True):
    """The next line of `lines` that `match`es, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        if match(line):
            return line
    raise Failure(f"no {what} within {timeout} s; saw {seen[-5:]}")


def test_multiplayer(base, report, profile):
    """The page joins a native crafty-server (?world=join:Web@ADDRESS) over
    its WebSocket, breaks a block by clicking, and a native bot on the same
    server sees that block turn to air; joining again twice, the second
    join takes the changed chunk from the page's chunk cache."""
    data = tempfile.mkdtemp(prefix="taos-server-")
    server = subprocess.Popen([native_binary("crafty-server"), "--port", "0", "--seed", "5", "--data", data],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, "RUST_LOG": "warn"})
    bot = None
    browser = None
    try:
        listening = next_line(line_reader(server), "listening line from the server", 60,
                              lambda line: "listening on " in line)
        address = listening.split("listening on ")[1].split(" ")[0]
        bot = subprocess.Popen([native_binary("crafty-bot"), address, "--name", "Watcher", "--seconds", "300"],
                               stdout=subprocess.PIPE, text=True)
        seen = line_reader(bot)
        next_line(seen, "welcome for the bot", 30, lambda line: line.startswith("joined"))
        browser = Browser(profile)
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world=join:Web@{address}")
        status = browser.wait_for("the page playing on the server",
                                  lambda s: playing(s) and s.get("online") is not None, 180)
        players = status["online"]["players"]
        if sorted(players) != ["Watcher", "Web"]:
            raise Failure(f"the page sees players {players}, not Watcher and Web")
        break_blocks(browser, 1)
        status = browser.wait_for("the server's answer to the page's break",
                                  lambda s: s["edits"] >= 1 and s["online"]["accepted"] >= 1
                                  and s["online"]["pending"] == 0, 60)
        at, block = status["last_edit"]
        if block != "Air":
            raise Failure(f"the page's edit is not a broken block: {status['last_edit']}")
        wanted = f"edit {at[0]} {at[1]} {at[2]} 0"
        next_line(seen, f"the bot seeing {wanted!r}", 30, lambda line: line == wanted)
        # The page joins again, twice, with the token its settings kept. The
        # chunk it broke in came through the edit log, so the first rejoin
        # downloads it (and caches it in IndexedDB); the second shows it
        # from the cache and downloads nothing.
        rejoins = []
        for attempt in ("first", "second"):
            browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world=join:Web@{address}")
            status = browser.wait_for(f"the page's {attempt} rejoin and what it cost",
                                      lambda s: playing(s) and s.get("online") is not None
                                      and s["online"].get("joined") is not None, 180)
            rejoins.append(status["online"])
        first, second = rejoins
        if first["chunks_fetched"] < 1:
            raise Failure(f"the first rejoin downloaded no chunk: {first}")
        if second["chunks_fetched"] != 0 or second["chunks_cached"] < first["chunks_fetched"]:
            raise Failure(f"the second rejoin did not take its chunks from the cache: {second}")
        report["multiplayer"] = (f"ok: the page joined {address} with {players}, broke {at}, "
                                 f"and the native bot saw it; rejoining: {first['joined']}, "
                                 f"then {second['joined']}")
    finally:
        if browser is not None:
            browser.quit()
        for process in (bot, server):
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(data, ignore_errors=True)


def test_storage(base, report, profile):
    """Storage that fails. Blocked for the site: the page says so and starts
    nothing. Full mid-play (the site's quota shrunk through DevTools): the
    HUD says so, the edits stay in the game, and once there is room again
    the retried autosave stores them; a reload finds them."""
    blocked = Browser(tempfile.mkdtemp(dir=profile), block_storage=True)
    try:
        blocked.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world=new:3")
        deadline = time.monotonic() + 60
        error = None
        while error is None and time.monotonic() < deadline:
            error = blocked.page_error()
            status = blocked.status() or {}
            if status.get("screen") == "playing":
                raise Failure("storage blocked for the site, yet the page plays (where would it save?)")
            time.sleep(0.2)
        if not error or "cannot open its saved worlds" not in error:
            raise Failure(f"storage blocked: the page shows {error!r}, not that it cannot open its saves")
    finally:
        blocked.quit()
    full_profile = tempfile.mkdtemp(dir=profile)
    browser = Browser(full_profile)
    try:
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world=new:5")
        world = browser.wait_for("the new world playing", playing, 180)["world"]
    finally:
        browser.quit()
    # Chromium checks a write against the room it saw when the database
    # opened: shrink the quota before the page opens it. DevTools' quota
    # override does not reach navigator.storage.estimate() (still 10 GB),
    # which the page reads to tell why a commit was refused: the page's
    # estimate() is made to report the same one-byte quota, as a really
    # full site's would.
    browser = Browser(full_profile)
    try:
        browser.cdp("Storage.overrideQuotaForOrigin", {"origin": base, "quotaSize": 1})
        browser.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": FULL_QUOTA_ESTIMATE})
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world={urllib.parse.quote(world)}")
        browser.wait_for("the world opened with the quota full", playing, 180)
        if break_blocks(browser, 1) < 1:
            raise Failure("no block broken to save")
        full = browser.wait_for("the storage-full notice", lambda s: "storage is full" in (s.get("message") or ""), 60)
        if full["saved_edits"] >= full["edits"]:
            raise Failure(f"the quota is exceeded, yet every edit counts as saved: {full}")
        browser.cdp("Storage.overrideQuotaForOrigin", {"origin": base})
        browser.driver.execute_script("window.__taosQuota = null;")
        saved = browser.wait_for("the retried autosave", lambda s: s["saved_edits"] == s["edits"] and not s.get("message"), 60)
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world={urllib.parse.quote(world)}")
        again = browser.wait_for("the world reopened", playing, 180)
        if again["edits"] != saved["edits"] or again["last_edit"] != saved["last_edit"]:
            raise Failure(f"after the quota came back and a reload: {again}, expected {saved}")
    finally:
        browser.quit()
    report["storage"] = (f"ok: blocked storage shown in the page; with the quota full the HUD said "
                         f"{full['message'][:40]!r}... ({full['saved_edits']} of {full['edits']} edits saved), "
                         f"the retry saved all {saved['edits']} once there was room, and a reload had them")


# Edits the stored record of world KEY lists (what a fresh load would
# find), read from IndexedDB in the page: records are JSON envelopes as bytes.
STORED_EDITS = """
const [key, done] = arguments;
const open = indexedDB.open('crafty');
open.onerror = () => done(null);
open.onsuccess = () => {
  const get = open.result.transaction('worlds').objectStore('worlds').get(key);
  get.onerror = () => done(null);
  get.onsuccess = () => {
    if (!get.result) { done(null); return; }
    const record = JSON.parse(new TextDecoder().decode(get.result));
    const log = (record.data || record).editLog || { segments: [] };
    done(log.segments.reduce((n, s) => n + s.edits, 0));
    open.result.close();
  };
};
"""


def test_tabs(base, report, profile):
    """One world, two tabs. Hiding the playing tab saves its edits at once
    (a hidden page gets no frames for the 5 s autosave); a second tab asked
    to open the same world is told it is open elsewhere and does not play
    it; once the first tab leaves the world, the second can have it."""
    browser = Browser(profile)
    try:
        script = urllib.parse.quote(KILL_SCRIPT)
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world=new:42&script={script}")
        world = browser.wait_for("the world playing", playing, 180)["world"]
        # Hidden as soon as the edit is made, seconds before its autosave.
        status = browser.wait_for("the scripted edit", lambda s: s["edits"] >= 1, 120)
        edits = status["edits"]
        if status["saved_edits"] >= edits:
            raise Failure(f"the autosave ran before the tab could be hidden: {status}")
        first = browser.driver.current_window_handle
        # A second tab hides the first: its status stops there, so the
        # stored record (read from the second tab) tells what was saved.
        browser.driver.switch_to.new_window("tab")
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world={urllib.parse.quote(world)}")
        # (The script may have made one more edit before the tab hid.)
        stored = browser.wait_for("the hidden tab's save", lambda n: n is not None and n >= edits, 30,
                                  read=lambda: browser.driver.execute_async_script(STORED_EDITS, world))
        refused = browser.wait_for("the second tab refused", lambda s: s["screen"] == "launcher" and not s["busy"], 180)
        message = refused.get("message") or ""
        if "open in another tab" not in message:
            raise Failure(f"the second tab was not told the world is open elsewhere: {refused}")
        # The first tab leaves the world (F10): the second may open it now.
        browser.driver.switch_to.window(first)
        ActionChains(browser.driver).send_keys(Keys.F10).perform()
        browser.wait_for("the first tab's launcher", lambda s: s["screen"] == "launcher" and not s["busy"], 120)
        second = [h for h in browser.driver.window_handles if h != first][0]
        browser.driver.switch_to.window(second)
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world={urllib.parse.quote(world)}")
        again = browser.wait_for("the world in the second tab", playing, 180)
        if again["loaded_edits"] < stored:
            raise Failure(f"the second tab loaded {again['loaded_edits']} edits, the first saved {stored}")
    finally:
        browser.quit()
    report["tabs"] = (f"ok: hiding the playing tab saved its {stored} edits at once; a second tab was told "
                      f"{message[:48]!r}...; after the first left, the second loaded all {again['loaded_edits']} edits")


BREAK_BUTTON = (0.93, 0.55)  # crafty's touch layout: the Break button's centre


def test_touch(base, report, profile):
    """Touch alone, through real touch events: a drag on the right half
    turns the view down, the on-screen Break button breaks a block."""
    browser = Browser(profile)
    try:
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world=new:21")
        browser.wait_for("the new world playing", playing, 180)
        browser.cdp("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        start = browser.status()["edits"]
        made = 0
        for attempt in range(6):
            # Drag down slowly: the game sees a frame or two a second.
            browser.touch("touchStart", [(0.6, 0.15)])
            for step in range(1, 9):
                time.sleep(0.3)
                browser.touch("touchMove", [(0.6, 0.15 + 0.08 * step)])
            browser.touch("touchEnd")
            browser.touch("touchStart", [BREAK_BUTTON])
            time.sleep(1.5)
            browser.touch("touchEnd")
            time.sleep(1.0)
            made = browser.status()["edits"] - start
            if made >= 1:
                break
        if made < 1:
            raise Failure(f"no block broken by touch after {attempt + 1} tries; status {browser.status()}; "
                          f"console: {browser.console()[-5:]}")
        edit = browser.status()["last_edit"]
        if edit[1] != "Air":
            raise Failure(f"the touch edit is not a broken block: {edit}")
    finally:
        browser.quit()
    report["touch"] = f"ok: a touch drag looked down and the Break button broke {made} block(s) (try {attempt + 1})"


def test_full_quality(base, report, profile):
    """crafty on WebGL2 with shadows and light shafts on (the other parts
    turn them off for speed): their pipelines build, frames come, no
    error, the canvas shows a rendered frame. Slow on software rendering
    (a frame every few seconds), so it asks for three frames only."""
    browser = Browser(profile)
    try:
        browser.open(f"{base}/crafty/?shadows=low&shafts=on&view=2&backend=webgl2&world=new:42")
        status = browser.wait_for("shadows and shafts on: playing", playing, 240)
        shot = browser.screenshot(os.path.join(report["out"], "crafty_webgl2_full.png"))
        ok, seen = looks_rendered(shot)
        if not ok:
            raise Failure(f"shadows and shafts on: the canvas does not show a rendered frame ({seen})")
        error = browser.page_error()
        if error:
            raise Failure(f"shadows and shafts on: the page shows an error: {error}")
    finally:
        browser.quit()
    report["full_quality"] = f"ok: shadows low, light shafts on, {status['frames']} frames, canvas {seen}"


def test_far_view(base, report, profile):
    """crafty at view distance 32 (the browser's most) on WebGL2: the far
    terrain's tiles come, frames keep coming, and the page reports the
    wasm memory, which must stay under 1 GiB."""
    browser = Browser(profile)
    try:
        browser.open(f"{base}/crafty/?shadows=off&shafts=off&view=32&backend=webgl2&world=new:42")
        status = browser.wait_for("view 32: playing", playing, 240)
        if status.get("view_distance") != 32:
            raise Failure(f"view 32 asked for, the game plays view {status.get('view_distance')}")
        start = status["frames"]
        status = browser.wait_for(
            "view 32: far terrain resident and frames coming",
            lambda s: s.get("far_sections", 0) > 0 and s.get("frames", 0) >= start + 5, 300)
        shot = browser.screenshot(os.path.join(report["out"], "crafty_far_view.png"))
        ok, seen = looks_rendered(shot)
        if not ok:
            raise Failure(f"view 32: the canvas does not show a rendered frame ({seen})")
        memory = status.get("wasm_memory_bytes", 0)
        if not 0 < memory < 1 << 30:
            raise Failure(f"view 32: the page reports {memory} bytes of wasm memory (the budget is 1 GiB)")
        heap = browser.driver.execute_script(
            "return performance.memory ? performance.memory.usedJSHeapSize : null;")
        gpu, pooled = status.get("gpu_buffer_bytes", [0, 0])
    finally:
        browser.quit()
    report["far_view"] = (f"ok: view 32, {status['frames']} frames, {status['chunks']} chunks resident "
                          f"({status['far_sections']} far sections), wasm memory {memory / 2**20:.0f} MiB, "
                          f"JS heap {heap / 2**20 if heap else 0:.0f} MiB, chunk buffers {gpu / 2**20:.1f} MiB "
                          f"(+{pooled / 2**20:.1f} MiB pooled), canvas {seen}")


def test_webgpu(base, report, profile):
    """The same page on WebGPU, where headless Chromium offers it; reported only."""
    browser = Browser(profile, webgpu=True)
    try:
        browser.open(f"{base}/crafty/?{LIGHT}&backend=webgpu&world=new:7")
        status = browser.wait_for("WebGPU playing", playing, 180)
        report["webgpu"] = f"ok: backend {status['backend']}, {status['frames']} frames"
    except Failure as failure:
        report["webgpu"] = f"not available: {failure}"
    finally:
        browser.quit()


# What every page of a kill round plays, from the page's address: look
# ahead and down at the ground, break a block and put it back (two edits).
KILL_SCRIPT = "look-down 40, look-up 16, break, wait 10, place"
EDITS_PER_SCRIPT = 2
# How long the held save's commit stays open: far longer than a status
# read and a SIGKILL take, even at a frame every few seconds.
HOLD_MS = 10_000

# Injected into every page of a kill round before its own scripts run: a
# slow disk for one save. Once armed (`window.__taosArmHold()`), the next
# IndexedDB transaction that writes an edit-log segment does not commit
# for HOLD_MS: keep-alive reads hold it open, then the real commit runs.
# `window.__taosHoldStatus()` says whether a commit is held right now and
# for how long still, in the page's own clock.
HOLD_NEXT_SEGMENT_COMMIT = """
(() => {
  const STORE = 'edit_segments';
  const state = { armed: false, held: false, released: false, until: 0 };
  window.__taosArmHold = () => { state.armed = true; };
  window.__taosHoldStatus = () => ({ ...state, left_ms: state.held ? state.until - performance.now() : 0 });
  for (const name of ['put', 'add']) {
    const real = IDBObjectStore.prototype[name];
    IDBObjectStore.prototype[name] = function (...args) {
      if (this.name === STORE) this.transaction.__taosWritesSegment = true;
      return real.apply(this, args);
    };
  }
  const realCommit = IDBTransaction.prototype.commit;
  IDBTransaction.prototype.commit = function () {
    if (!state.armed || !this.__taosWritesSegment) return realCommit.call(this);
    state.armed = false;
    const tx = this;
    const store = tx.objectStore(STORE);
    state.held = true;
    state.until = performance.now() + %d;
    const keepAlive = () => {
      if (performance.now() < state.until) {
        try { store.count().onsuccess = keepAlive; } catch (e) { state.held = false; }
      } else {
        state.held = false;
        state.released = true;
        realCommit.call(tx);
      }
    };
    keepAlive();
  };
})();
""" % HOLD_MS


def wait_for_hold(browser, what, timeout):
    """Polls the injected shim until it holds a save's commit open; returns
    its state (with `left_ms`, the hold still to run)."""
    def held(hold):
        if hold["released"]:
            raise Failure(f"{what}: the held commit was released before the kill: {hold}")
        return hold["held"]
    return browser.wait_for(what, held, timeout, every=0.05,
                            read=lambda: browser.driver.execute_script("return window.__taosHoldStatus();"))


def open_world(browser, base, world, what, confirmed, confirmed_last):
    """Opens `world` (a name, id or new:SEED) with KILL_SCRIPT in the page's
    address; once playing, the world must have exactly the confirmed
    edits, ending in the same edit. Returns the status."""
    script = urllib.parse.quote(KILL_SCRIPT)
    browser.open(f"{base}/crafty/?{LIGHT}&backend=webgl2&world={urllib.parse.quote(world)}&script={script}")
    status = browser.wait_for(f"{what}: the world loading", playing, 180)
    # What the page loaded (its script may have edited since).
    loaded, last = status["loaded_edits"], status["loaded_last_edit"]
    if loaded != confirmed or (confirmed and last != confirmed_last):
        raise Failure(f"{what}: loaded {loaded} edits ending in {last}; "
                      f"the saves had confirmed {confirmed} ending in {confirmed_last}")
    return status


def test_kills(base, report, profile, kills, seed):
    """Kills the browser `kills` times, each time while a save is provably
    in flight. A round opens the world twice in one tab, each time with
    KILL_SCRIPT in the page's address (two edits a page). The first page's
    autosaves must complete: its edits are confirmed. The second page
    arms a slow disk: its first save's IndexedDB commit is held open, and
    the whole browser is SIGKILLed during the hold. Every load (the second
    page, and the first page of the next round) must show exactly the
    confirmed edits: everything completed saves stored, nothing of the
    killed one."""
    del seed  # the script makes the rounds deterministic
    world = "new:42"
    confirmed = 0
    confirmed_last = None
    rounds = []
    for round_ in range(kills):
        started = time.monotonic()
        browser = Browser(profile)
        try:
            browser.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": HOLD_NEXT_SEGMENT_COMMIT})
            status = open_world(browser, base, world, f"round {round_}, first page", confirmed, confirmed_last)
            world = status["world"]
            loaded = status["loaded_edits"]
            want = confirmed + EDITS_PER_SCRIPT
            status = browser.wait_for(
                f"round {round_}, first page: its autosaves",
                lambda s: s["edits"] == want and s["saved_edits"] == want and not s["busy"], 90)
            confirmed, confirmed_last = want, status["last_edit"]
            status = open_world(browser, base, world, f"round {round_}, second page", confirmed, confirmed_last)
            browser.driver.execute_script("window.__taosArmHold();")
            hold = wait_for_hold(browser, f"round {round_}, second page: its autosave", 90)
            status = browser.status() or {}
            browser.kill()
            entry = {
                "round": round_,
                "loaded_edits": [loaded, confirmed],
                "edits_at_kill": status.get("edits"),
                "save_in_flight": status.get("busy"),
                "saving_edits": status.get("saving_edits"),
                "hold_left_ms": round(hold["left_ms"]),
                "seconds": round(time.monotonic() - started, 1),
            }
            saving = status.get("saving_edits") or 0
            if not status.get("busy") or saving <= confirmed:
                raise Failure(f"round {round_}: the page did not show a save of new edits in flight: {status}")
            rounds.append(entry)
            print(f"  kill {round_ + 1}/{kills}: the two pages loaded {loaded} and {confirmed} edits "
                  f"(all confirmed); killed with a save of {saving - confirmed} new edits in flight, "
                  f"its commit held {entry['hold_left_ms']} ms more; {entry['seconds']} s", flush=True)
        finally:
            browser.kill()
    browser = Browser(profile)
    try:
        status = open_world(browser, base, world, "after the last kill", confirmed, confirmed_last)
    finally:
        browser.quit()
    report["kill_rounds"] = rounds
    report["kills"] = (f"ok: {kills} kills, every one while a save of new edits was in flight (its commit "
                       f"held open, {min(r['hold_left_ms'] for r in rounds)} ms or more of the hold left); "
                       f"all {2 * kills + 1} loads had exactly the confirmed edits and none of a killed "
                       f"save's ({status['loaded_edits']} at the end)")


SAMPLES = ("forward_simple", "deferred_showcase", "many_lights", "controllers", "shooter", "character", "physics",
           "editor", "particles")


def test_samples(base, report, profile):
    """Each sample of the samples page on WebGL2: no error, a rendered frame."""
    browser = Browser(profile)
    seen = {}
    try:
        for name in SAMPLES:
            browser.open(f"{base}/samples/?sample={name}&backend=webgl2")
            deadline = time.monotonic() + 60
            verdict = "no rendered frame within 60 s"
            while time.monotonic() < deadline:
                error = browser.page_error()
                if error:
                    raise Failure(f"sample {name}: the page shows an error: {error}")
                if browser.driver.find_elements(By.TAG_NAME, "canvas"):
                    # Pipelines are built on the first frames: let them fail first.
                    time.sleep(3)
                    error = browser.page_error()
                    if error:
                        raise Failure(f"sample {name}: the page shows an error: {error}")
                    shot = browser.screenshot(os.path.join(report["out"], f"sample_{name}.png"))
                    ok, verdict = looks_rendered(shot)
                    if ok:
                        break
                time.sleep(2)
            else:
                raise Failure(f"sample {name}: {verdict}")
            seen[name] = verdict
    finally:
        browser.quit()
    report["samples"] = f"ok: {', '.join(f'{k} ({v})' for k, v in seen.items())}"
    test_physics_checksum(base, report, profile)
    test_editor_files(base, report, profile)


def test_editor_files(base, report, profile):
    """The editor sample saves its level to the page's local storage and
    loads it back from there (Ctrl+S, Ctrl+O; the page's title shows the
    editor's message): a level changed in storage comes back changed."""
    level = open(os.path.join(ROOT, "samples", "assets", "editor", "level.json")).read()
    key = "taos.scene-file:level.json"
    browser = Browser(profile)

    def title():
        return browser.driver.title

    def chord(letter):
        ActionChains(browser.driver).key_down(Keys.CONTROL).send_keys(letter).key_up(Keys.CONTROL).perform()

    def stored():
        return browser.driver.execute_script("return localStorage.getItem(arguments[0]);", key)

    try:
        browser.open(f"{base}/samples/?sample=editor&backend=webgl2")
        browser.wait_for("the editor's page", lambda t: t.startswith("editor"), 60, read=title)
        # Focus the canvas (its left part: the editor's window is on the right).
        canvas = browser.canvas()
        ActionChains(browser.driver).move_to_element_with_offset(
            canvas, -canvas.size["width"] // 3, canvas.size["height"] // 3).click().perform()
        chord("s")
        browser.wait_for("Ctrl+S", lambda t: "saved" in t, 20, read=title)
        if stored() != level:
            raise Failure(f"editor: local storage holds {str(stored())[:120]!r}, not the level's file")
        changed = level.replace('"name": "Crates"', '"name": "Boxes"')
        if changed == level:
            raise Failure("editor: the level file has no object named Crates to rename")
        browser.driver.execute_script("localStorage.setItem(arguments[0], arguments[1]);", key, changed)
        chord("o")
        browser.wait_for("Ctrl+O", lambda t: "loaded" in t, 20, read=title)
        loaded_title = title()
        chord("s")
        browser.wait_for("Ctrl+S after the load", lambda t: "saved" in t, 20, read=title)
        if stored() != changed:
            raise Failure("editor: saving the loaded level did not give the changed file back")
    finally:
        browser.quit()
    report["editor_files"] = f"ok: saved, changed in storage, {loaded_title!r}, saved back identical"


def test_physics_checksum(base, report, profile):
    """The physics determinism run in wasm gives native's checksum.

    The samples page with `?checksum=physics` runs 500 bodies for 240 ticks
    (a snapshot restored halfway) and writes the checksum into its title;
    the native tests hold the same number in the reference file.
    """
    golden = os.path.join(ROOT, "samples", "tests", "reference", "physics_checksum.txt")
    expected = open(golden).read().strip()
    browser = Browser(profile)
    try:
        browser.open(f"{base}/samples/?checksum=physics")
        deadline = time.monotonic() + 90
        title = ""
        while time.monotonic() < deadline:
            error = browser.page_error()
            if error:
                raise Failure(f"physics checksum: the page shows an error: {error}")
            title = browser.driver.title
            if title.startswith("physics checksum"):
                break
            time.sleep(1)
        else:
            raise Failure(f"physics checksum: no checksum within 90 s (title {title!r})")
    finally:
        browser.quit()
    printed = title.rsplit(" ", 1)[-1]
    if printed != expected:
        raise Failure(f"physics checksum: the browser printed {printed}, native gives {expected} "
                      f"({os.path.relpath(golden, ROOT)})")
    report["physics_checksum"] = f"ok: {title} (native: {expected})"


PARTS = ["e2e", "storage", "tabs", "touch", "full_quality", "far_view", "webgpu", "samples", "multiplayer", "kills"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("parts", nargs="*", default=PARTS)
    parser.add_argument("--dist", default=os.path.join(ROOT, "crafty", "web", "dist"))
    parser.add_argument("--kills", type=int, default=10,
                        help="tab-kill rounds (CI runs 10; TAOS_KILLS=50 bash .ci/run for the full run)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not os.path.exists(os.path.join(args.dist, "crafty", "crafty_bg.wasm")):
        sys.exit(f"no build in {args.dist}: run crafty/web/build.sh first")
    base = serve(args.dist)
    # Parts run in separate invocations (as .ci/run does) add to one report.
    report_path = os.path.join(args.dist, "browser-report.json")
    report = {}
    if os.path.exists(report_path):
        with open(report_path) as f:
            report = json.load(f)
    report["out"] = args.dist
    size = os.path.join(args.dist, "crafty", "size.txt")
    if os.path.exists(size):
        report["size"] = open(size).read().strip()
    failed = []
    for part in args.parts:
        profile = tempfile.mkdtemp(prefix=f"taos-{part}-")
        try:
            if part == "e2e":
                test_e2e(base, report, profile)
            elif part == "storage":
                test_storage(base, report, profile)
            elif part == "tabs":
                test_tabs(base, report, profile)
            elif part == "touch":
                test_touch(base, report, profile)
            elif part == "full_quality":
                test_full_quality(base, report, profile)
            elif part == "far_view":
                test_far_view(base, report, profile)
            elif part == "webgpu":
                test_webgpu(base, report, profile)
            elif part == "samples":
                test_samples(base, report, profile)
            elif part == "multiplayer":
                test_multiplayer(base, report, profile)
            elif part == "kills":
                test_kills(base, report, profile, args.kills, args.seed)
            else:
                sys.exit(f"unknown part {part}")
        except Failure as failure:
            failed.append(part)
            report[part] = f"FAILED: {failure}"
        except WebDriverException as error:
            failed.append(part)
            report[part] = f"FAILED: the browser driver: {type(error).__name__}: {first_line(error)}"
        finally:
            shutil.rmtree(profile, ignore_errors=True)
        print(f"{part}: {report.get(part)}", flush=True)
    with open(report_path, "w") as f:
        json.dump(report, f, indent=2)
    print(json.dumps(report, indent=2))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
