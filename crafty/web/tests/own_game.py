#!/usr/bin/env python3
"""A game of one's own in headless Chromium, built and served by the `taos`
tool as a user would: the template (`samples/template`) and a game crate
written outside the repository (in a temporary folder).

    python3 crafty/web/tests/own_game.py              # both parts
    python3 crafty/web/tests/own_game.py template     # one part: template, outside

The template part builds the template natively and renders it headless (the
reference picture), builds it for the web with `taos web build`, serves it
with `taos web serve`, and checks in Chromium (WebGL2): it draws, within
tolerance of the native picture; its high score survives a reload; with
storage blocked it says so in the page and goes on; with the site's storage
full a failed save says so and loses nothing saved before.

The outside part writes a new game crate under a temporary folder (its own
Cargo.toml, main.rs, assets/ and a lockfile copied from the template's, as
docs/src/first-game.md says), builds and serves it with the tool from that
folder, and checks in Chromium that it draws, reads its asset, and names a
missing asset in the page.

Needs what browser.py needs (Chromium, chromedriver, selenium, Pillow), and
cargo. Writes its figures (wasm size, first frame, image difference) to
`$TAOS_WEB_OUT/own-game-report.json` (default crafty/web/dist/).
"""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from PIL import Image, ImageStat

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser as browser_module  # noqa: E402
from browser import ROOT, Browser, Failure, looks_rendered  # noqa: E402

TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
OUT = os.environ.get("TAOS_WEB_OUT", os.path.join(ROOT, "crafty", "web", "dist"))
TEMPLATE = os.path.join(ROOT, "samples", "template")
# The template's window; the browser's is set to match for the image test.
SIZE = (960, 540)
# Mean absolute difference of 96x54 thumbnails, 0..255: WebGL2 on
# SwiftShader against Vulkan on lavapipe (shadow filtering and rounding
# differ a little; a missing cube or a black frame is far above this).
IMAGE_TOLERANCE = 10.0


def run(command, cwd=ROOT, env=None, what=None):
    """Runs `command`, failing with its output's tail when it fails."""
    started = time.monotonic()
    result = subprocess.run(command, cwd=cwd, env={**os.environ, **(env or {})},
                            capture_output=True, text=True)
    took = time.monotonic() - started
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-25:])
        raise Failure(f"{what or command[0]} failed ({result.returncode}):\n{tail}")
    print(f"  {what or ' '.join(command)}: {took:.0f} s", flush=True)
    return result


def taos_tool():
    """The `taos` binary, built from the workspace (as `cargo install --path tools/taos` would)."""
    run(["cargo", "build", "-q", "-p", "taos_cli", "--bin", "taos"], what="building the taos tool")
    return os.path.join(TARGET, "debug", "taos")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """`taos web serve DIR` on a free port, stopped on exit."""

    def __init__(self, tool, directory, watch=None):
        self.port = free_port()
        extra = ["--watch", watch] if watch else []
        self.process = subprocess.Popen([tool, "web", "serve", directory, "--port", str(self.port)] + extra,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise Failure(f"taos web serve stopped: {self.process.stdout.read()}")
                time.sleep(0.1)
        raise Failure("taos web serve did not listen within 10 s")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=10)


def title(browser):
    return browser.driver.title


def notice(browser):
    return browser.driver.execute_script(
        "const e = document.getElementById('taos-notice');"
        "return e && e.dataset.shown ? e.textContent : null;")


def score(browser):
    """(turns, best) from the template's title, best None without saves."""
    match = re.match(r"my game: (\d+) turns(?:, best (\d+))?", title(browser))
    if not match:
        return None
    return int(match.group(1)), (int(match.group(2)) if match.group(2) else None)


def difference(a, b):
    """Mean absolute difference of 96x54 thumbnails, 0..255."""
    a = a.convert("RGB").resize((96, 54))
    b = b.convert("RGB").resize((96, 54))
    diff = sum(abs(x - y) for x, y in zip(a.tobytes(), b.tobytes()))
    return diff / (96 * 54 * 3)


def browser_at(profile, fresh=True, **flags):
    """Chromium with the template's window size, on a new profile under
    `profile` (or on `profile` itself with `fresh=False`)."""
    browser_module.WINDOW = SIZE
    browser = Browser(tempfile.mkdtemp(dir=profile) if fresh else profile, **flags)
    # The page's viewport, not the window with its frame, is the game's size.
    browser.cdp("Emulation.setDeviceMetricsOverride",
                {"width": SIZE[0], "height": SIZE[1], "deviceScaleFactor": 1, "mobile": False})
    return browser


def wait_title(browser, what, check, timeout, every=0.1):
    return browser.wait_for(what, check, timeout, read=lambda: score(browser), every=every)


def test_template(tool, report, profile):
    out = os.path.join(OUT, "template")
    data = tempfile.mkdtemp(dir=profile)
    native = os.path.join(OUT, "template_native.png")
    os.makedirs(OUT, exist_ok=True)
    run(["cargo", "run", "-q", "--locked", "--manifest-path", os.path.join(TEMPLATE, "Cargo.toml"), "--",
         "--speed", "0", "--screenshot", native],
        env={"TAOS_DATA_DIR": data}, what="the template, native and headless")
    run([tool, "web", "build", "--manifest-path", os.path.join(TEMPLATE, "Cargo.toml"), "--out", out],
        what="taos web build (the template)")
    report["template_size"] = open(os.path.join(out, "size.txt")).read().strip()
    with Served(tool, out) as served:
        browser = browser_at(profile)
        try:
            started = time.monotonic()
            browser.open(f"{served.base}/?speed=0&backend=webgl2")
            wait_title(browser, "the first frame", lambda s: True, 120, every=0.02)
            # The title is set by the first frame's update: navigation to it.
            report["template_first_frame_ms"] = round(browser.driver.execute_script(
                "return performance.now();"))
            report["template_wasm_loaded_ms"] = browser.driver.execute_script(
                "return window.taosLoadedMs || null;")
            wait_title(browser, "the high score read", lambda s: s[1] is not None, 120)
            report["template_ready_s"] = round(time.monotonic() - started, 2)
            time.sleep(2)
            shot = browser.screenshot(os.path.join(OUT, "template_webgl2.png"))
            ok, seen = looks_rendered(shot)
            if not ok:
                raise Failure(f"the template's canvas shows no rendered frame ({seen})")
            distance = difference(shot, Image.open(native))
            report["template_image_difference"] = round(distance, 2)
            if distance > IMAGE_TOLERANCE:
                raise Failure(f"the browser's frame differs from the native one by {distance:.1f}/255 "
                              f"(tolerance {IMAGE_TOLERANCE}): see {OUT}/template_webgl2.png and {native}")
            # Sound starts with the first gesture (the browser keeps it suspended before).
            states = lambda: browser.driver.execute_script(
                "return (window.__taosAudioContexts || []).map(c => c.state);")
            before = states()
            browser.click()
            after = browser.wait_for("sound after a click", lambda s: s and all(x == "running" for x in s),
                                     10, read=states)
            report["template_audio"] = f"ok: {before} before the first click, {after} after"
            # A fast spin sets a high score; a reload must find it.
            browser.open(f"{served.base}/?speed=40&backend=webgl2")
            seen = wait_title(browser, "a high score of 2 turns", lambda s: (s[1] or 0) >= 2, 120)
            best = seen[1]
            time.sleep(3)  # its save has committed by now
            browser.open(f"{served.base}/?speed=0&backend=webgl2")
            seen = wait_title(browser, "the high score after a reload", lambda s: s[1] is not None, 120)
            if seen[1] < best:
                raise Failure(f"the high score was {best} before the reload and {seen[1]} after")
            report["template_high_score"] = f"ok: best {best} before the reload, {seen[1]} after"
        finally:
            browser.quit()
        test_template_storage(served, report, profile)


FULL_QUOTA_ESTIMATE = """
const realEstimate = StorageManager.prototype.estimate;
StorageManager.prototype.estimate = async function () {
  const estimate = await realEstimate.call(this);
  return { ...estimate, quota: 1 };
};
"""


def test_template_storage(served, report, profile):
    """Storage blocked: a notice in the page, the game plays on. Storage
    full: a notice, and the high score saved before is still there after."""
    blocked = browser_at(profile, block_storage=True)
    try:
        blocked.open(f"{served.base}/?speed=0&backend=webgl2")
        wait_title(blocked, "the game without saves", lambda s: "no saves" in title(blocked), 120)
        text = blocked.wait_for("the notice", lambda n: "could not be opened" in n, 30,
                                read=lambda: notice(blocked))
        ok, seen = looks_rendered(blocked.screenshot(os.path.join(OUT, "template_blocked.png")))
        if not ok:
            raise Failure(f"storage blocked: the game stopped drawing ({seen})")
        report["template_storage_blocked"] = f"ok: {text.strip()}"
    finally:
        blocked.quit()
    full_profile = tempfile.mkdtemp(dir=profile)
    browser = browser_at(full_profile, fresh=False)
    try:
        browser.open(f"{served.base}/?speed=20&backend=webgl2")
        best = wait_title(browser, "a first high score", lambda s: (s[1] or 0) >= 1, 120)[1]
        time.sleep(3)
    finally:
        browser.quit()
    browser = browser_at(full_profile, fresh=False)
    try:
        browser.cdp("Storage.overrideQuotaForOrigin", {"origin": served.base, "quotaSize": 1})
        browser.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": FULL_QUOTA_ESTIMATE})
        browser.open(f"{served.base}/?speed=40&backend=webgl2")
        text = browser.wait_for("the storage-full notice", lambda n: "not saved" in n, 120,
                                read=lambda: notice(browser))
        browser.cdp("Storage.overrideQuotaForOrigin", {"origin": served.base})
    finally:
        browser.quit()
    browser = browser_at(full_profile, fresh=False)
    try:
        browser.open(f"{served.base}/?speed=0&backend=webgl2")
        after = wait_title(browser, "the high score after storage was full", lambda s: s[1] is not None, 120)[1]
        if after < best:
            raise Failure(f"storage full lost the high score: {best} before, {after} after")
        report["template_storage_full"] = f"ok: {text.strip().splitlines()[-1]}; best {best} kept ({after})"
    finally:
        browser.quit()


OUTSIDE_MAIN = r'''
//! A game written outside the Taos repository: a scene, an asset read by
//! relative path, a missing one, and its own high score.
use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::{App, AppError, Engine, EngineConfig, Task};
use taos_engine::assets::{AssetError, AssetPath, Assets};

struct Outside {
    greeting: Task<Result<String, AssetError>>,
    missing: Task<Result<Vec<u8>, AssetError>>,
    said: String,
}

impl App for Outside {
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let (assets, gpu) = engine.renderer().assets_mut();
        let ball = assets.add_mesh(gpu, "ball", &MeshData::sphere(1.0, 32, 16));
        let blue = assets.add_material(PbrMaterial::color(Vec3::new(0.2, 0.4, 0.9)));
        let scene = engine.scene_mut();
        let object = scene.spawn("Ball");
        scene.add_component(object, MeshRenderer::new(ball.handle(), blue.handle()))?;
        let sun = scene.spawn("Sun");
        scene.add_component(sun, DirectionalLight::new(Vec3::new(-0.3, -1.0, -0.5), Vec3::ONE, 3.0))?;
        let camera = scene.spawn_with("Camera", Transform::from_position(Vec3::new(0.0, 0.0, 4.0)));
        scene.add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 16.0 / 9.0)?)?;
        Ok(())
    }

    fn update(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        if let Some(text) = engine.poll(&mut self.greeting) {
            self.said = match text {
                Ok(text) => text.trim().to_owned(),
                Err(error) => format!("greeting failed: {error}"),
            };
            engine.set_title(&format!("outside: {}", self.said));
        }
        // Hot reload: `taos web serve --watch assets` pushes a changed
        // file's path to the page; read the greeting again.
        if engine.hot_reload().changed_last_frame().iter().any(|p| p.ends_with("hello.txt")) {
            self.greeting = Assets::new().read_text(&AssetPath::new("hello.txt")?);
        }
        if let Some(Err(error)) = engine.poll(&mut self.missing) {
            taos_engine::show_notice(&format!("as expected: {error}"));
        }
        engine.request_redraw();
        Ok(())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let assets = Assets::new();
    let game = Outside {
        greeting: assets.read_text(&AssetPath::new("hello.txt")?),
        missing: assets.read_bytes(&AssetPath::new("no/such/file.bin")?),
        said: String::new(),
    };
    Engine::run_app("outside", EngineConfig::new(960, 540), forward_preset(PresetOptions::default()), game)?;
    Ok(())
}
'''


def test_outside(tool, report, profile):
    """A new game crate in a temporary folder, made and built with only
    the documented steps (docs/src/first-game.md, docs/src/web.md)."""
    game = os.path.join(tempfile.mkdtemp(dir=profile), "outside_game")
    os.makedirs(os.path.join(game, "src"))
    os.makedirs(os.path.join(game, "assets"))
    with open(os.path.join(game, "Cargo.toml"), "w") as f:
        f.write(f"""[package]
name = "outside_game"
version = "0.1.0"
edition = "2024"

[dependencies]
taos_engine = {{ path = "{os.path.join(ROOT, 'engine')}" }}

[workspace]
""")
    with open(os.path.join(game, "src", "main.rs"), "w") as f:
        f.write(OUTSIDE_MAIN)
    with open(os.path.join(game, "assets", "hello.txt"), "w") as f:
        f.write("hello from the asset folder\n")
    shutil.copy(os.path.join(TEMPLATE, "Cargo.lock"), game)
    run(["cargo", "metadata", "--format-version", "1", "--offline"], cwd=game, what="cargo metadata (prunes the lockfile)")
    out = os.path.join(game, "web")
    run([tool, "web", "build", "--out", out], cwd=game, what="taos web build (a game outside the repository)")
    with Served(tool, out, watch=os.path.join(game, "assets")) as served:
        browser = browser_at(profile)
        try:
            browser.open(f"{served.base}/?backend=webgl2")
            browser.wait_for("the asset read", lambda t: t.startswith("outside: "), 120,
                             read=lambda: browser.driver.title)
            if browser.driver.title != "outside: hello from the asset folder":
                raise Failure(f"the asset read as {browser.driver.title!r}")
            text = browser.wait_for("the missing asset's notice", lambda n: "no/such/file.bin" in n, 60,
                                    read=lambda: notice(browser))
            time.sleep(2)
            shot = browser.screenshot(os.path.join(OUT, "outside_webgl2.png"))
            # A lit blue ball in the middle of a black sky.
            w, h = shot.size
            r, g, b = ImageStat.Stat(shot.crop((w // 2 - 40, h // 2 - 80, w // 2 + 40, h // 2))).mean
            if not (b > 120 and b > r + 40):
                raise Failure(f"the outside game's ball is not in the picture (mean rgb {r:.0f} {g:.0f} {b:.0f} "
                              f"where it should be): see {OUT}/outside_webgl2.png")
            # Hot reload in the browser: the asset changes on disk, the dev
            # server copies it and pushes its path, the game reads it again.
            started = time.monotonic()
            with open(os.path.join(game, "assets", "hello.txt"), "w") as f:
                f.write("hello again\n")
            browser.wait_for("the changed asset", lambda t: t == "outside: hello again", 30,
                             read=lambda: browser.driver.title)
            reload_ms = (time.monotonic() - started) * 1000
            report["outside"] = (f"ok: asset read, missing asset said: {text.strip()}; "
                                 f"hot reload of hello.txt in {reload_ms:.0f} ms")
        finally:
            browser.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("parts", nargs="*", default=["template", "outside"])
    args = parser.parse_args()
    tool = taos_tool()
    report_path = os.path.join(OUT, "own-game-report.json")
    report, failed = {}, []
    for part in args.parts:
        profile = tempfile.mkdtemp(prefix=f"taos-own-{part}-")
        try:
            {"template": test_template, "outside": test_outside}[part](tool, report, profile)
            report.setdefault(part, "ok")
        except Failure as failure:
            failed.append(part)
            report[part] = f"FAILED: {failure}"
        finally:
            shutil.rmtree(profile, ignore_errors=True)
        print(f"{part}: {report.get(part)}", flush=True)
    os.makedirs(OUT, exist_ok=True)
    with open(report_path, "w") as f:
        json.dump(report, f, indent=2)
    print(json.dumps(report, indent=2))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
