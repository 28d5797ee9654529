#!/usr/bin/env python3
"""The editor sample in a real window under Xvfb, driven by xdotool.

Run by `samples/tests/windows.rs` (part of `cargo test`, with the
binary cargo built for it), or by hand:

    cargo build -p taos_samples --bin editor
    xvfb-run -a -s "-screen 0 1280x800x24" python3 samples/tests/editor_window.py

What it does, as a user would, checking the saved file after each step:
1. clicks a crate (it is selected);
2. drags its red X arrow to the right and saves (Ctrl+S): the crate moved
   along X only;
3. undoes (Ctrl+Z) and saves: the file is the level as shipped;
4. deletes the crate (Backspace) and saves: it is gone; undoes and saves:
   the shipped level's objects again (the crate comes back as its
   parent's last child, so only the entries' order differs).
Screenshots (with Pillow) go to $TAOS_EDITOR_SHOTS (default: a temporary
folder); the book's docs/src/images/editor_window_*.png come from this
script.
"""

import json
import math
import os
import subprocess
import sys
import tempfile
import time

try:
    from PIL import ImageGrab
except ImportError:  # screenshots are optional; the checks are not
    ImageGrab = None

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LEVEL = os.path.join(ROOT, "samples", "assets", "editor", "level.json")
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(os.path.expanduser("~"), ".cache", "taos-target"))
BINARY = os.environ.get("TAOS_EDITOR_BINARY") or os.path.join(TARGET, "debug", "editor")
# The sample's window and the level's camera (samples/assets/editor/level.json).
WIDTH, HEIGHT = 1024, 640
CAMERA = (0.0, 3.0, 9.0)
PITCH = 2.0 * math.asin(-0.15643448)  # about X
FOV_Y = 1.0471976


class Failure(Exception):
    pass


def pixel_of(point):
    """Where a world point is drawn in the window (x right, y down)."""
    x, y, z = (point[i] - CAMERA[i] for i in range(3))
    # Into the camera's frame: turn by -PITCH about X.
    c, s = math.cos(-PITCH), math.sin(-PITCH)
    y, z = c * y - s * z, s * y + c * z
    f = 1.0 / math.tan(FOV_Y / 2.0)
    ndc_x = f / (WIDTH / HEIGHT) * x / -z
    ndc_y = f * y / -z
    return round((ndc_x + 1.0) * 0.5 * WIDTH), round((1.0 - ndc_y) * 0.5 * HEIGHT)


def xdotool(*args):
    subprocess.run(["xdotool", *map(str, args)], check=True)
    time.sleep(0.4)


def shot(folder, name):
    if ImageGrab is None:
        return None
    path = os.path.join(folder, f"editor_window_{name}.png")
    ImageGrab.grab(xdisplay=os.environ["DISPLAY"]).crop((0, 0, WIDTH, HEIGHT)).save(path)
    return path


def saved(workdir, what):
    """Ctrl+S, then the saved scene's objects by id."""
    path = os.path.join(workdir, "level.json")
    if os.path.exists(path):
        os.remove(path)
    xdotool("key", "ctrl+s")
    deadline = time.monotonic() + 10
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise Failure(f"{what}: Ctrl+S wrote no level.json")
        time.sleep(0.2)
    text = open(path).read()
    return text, {o["id"]: o for o in json.loads(text)["objects"]}


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"no {BINARY}: run cargo build -p taos_samples --bin editor first")
    shots = os.environ.get("TAOS_EDITOR_SHOTS") or tempfile.mkdtemp(prefix="taos-editor-shots-")
    os.makedirs(shots, exist_ok=True)
    shipped = open(LEVEL).read()
    workdir = tempfile.mkdtemp(prefix="taos-editor-")
    log = open(os.path.join(workdir, "editor.log"), "w")
    editor = subprocess.Popen([BINARY], cwd=workdir, stdout=log, stderr=subprocess.STDOUT)
    try:
        found = subprocess.run(["xdotool", "search", "--sync", "--name", "^editor$"], check=True,
                               timeout=90, capture_output=True, text=True)
        window = found.stdout.split()[0]
        # No window manager under Xvfb: give the window the keyboard.
        xdotool("windowfocus", "--sync", window)
        time.sleep(3)  # pipelines compile on the first frames
        crate = (-1.5, 0.5, 0.0)
        xdotool("mousemove", *pixel_of((-1.5, 0.5, 0.5)), "click", "1")
        centre = pixel_of(crate)
        # The X arrow ends 60 px from the centre, along X as drawn.
        ahead = pixel_of((crate[0] + 0.01, crate[1], crate[2]))
        dx, dy = ahead[0] - centre[0], ahead[1] - centre[1]
        length = math.hypot(dx, dy)
        tip = (round(centre[0] + 60 * dx / length), round(centre[1] + 60 * dy / length))
        shot(shots, "selected")
        xdotool("mousemove", *tip, "mousedown", "1")
        for step in range(1, 7):
            xdotool("mousemove", tip[0] + 12 * step, tip[1] + 2 * step)
        xdotool("mouseup", "1")
        shot(shots, "moved")
        _, objects = saved(workdir, "after the drag")
        moved = objects[5].get("position")
        if not (moved and moved[0] > -1.3 and moved[1:] == [0.5, 0.0]):
            raise Failure(f"the drag moved the crate to {moved}, not along +X only")
        xdotool("key", "ctrl+z")
        text, _ = saved(workdir, "after undo")
        if text != shipped:
            raise Failure("after undoing the drag the saved level differs from the shipped one")
        xdotool("mousemove", *pixel_of((-1.5, 0.5, 0.5)), "click", "1")
        xdotool("key", "BackSpace")
        shot(shots, "deleted")
        _, objects = saved(workdir, "after delete")
        if 5 in objects:
            raise Failure("Backspace did not delete the selected crate")
        xdotool("key", "ctrl+z")
        _, objects = saved(workdir, "after undoing the delete")
        # The same objects; the crate comes back as its parent's last child.
        if objects != {o["id"]: o for o in json.loads(shipped)["objects"]}:
            raise Failure("after undoing the delete the saved objects differ from the shipped ones")
        if editor.poll() is not None:
            raise Failure(f"the editor exited with {editor.returncode}")
    except (Failure, subprocess.SubprocessError) as error:
        print(f"editor window: FAILED: {error} (log: {log.name}, shots: {shots})", file=sys.stderr)
        return 1
    finally:
        editor.kill()
        editor.wait()
    print(f"editor window: ok: select, drag along X, undo, delete, undo, saved after each "
          f"(shots: {shots})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
