#!/usr/bin/env python3
"""The character sample in a real window under Xvfb, driven by xdotool.

Run by `samples/tests/windows.rs` (part of `cargo test`, with the binary
cargo built for it), or by hand:

    cargo build -p taos_samples --bin character
    xvfb-run -a -s "-screen 0 1280x800x24" python3 samples/tests/character_window.py

What it does, as a player would:
1. holds A: the character turns left and walks (the camera stays behind
   the view) up the ramp onto the platform, until the game logs that it
   collected the platform's coin (a sensor the player's capsule entered);
2. drags with the left button: the follow camera orbits (the picture
   changes while the character stands still);
3. presses Space: the character jumps (the picture changes again).
Each step is checked on the window's pixels (Pillow's screen grab) and the
game's log; screenshots go to $TAOS_CHARACTER_SHOTS (default: a temporary
folder).
"""

import os
import subprocess
import sys
import tempfile
import time

from PIL import ImageChops, ImageGrab

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(os.path.expanduser("~"), ".cache", "taos-target"))
BINARY = os.environ.get("TAOS_CHARACTER_BINARY") or os.path.join(TARGET, "debug", "character")
# The sample's default window size (samples/src/args.rs).
WIDTH, HEIGHT = 800, 600


class Failure(Exception):
    pass


def xdotool(*args):
    subprocess.run(["xdotool", *map(str, args)], check=True)


def grab(folder, name):
    image = ImageGrab.grab(xdisplay=os.environ["DISPLAY"]).crop((0, 0, WIDTH, HEIGHT)).convert("RGB")
    image.save(os.path.join(folder, f"character_window_{name}.png"))
    return image


def changed(a, b):
    """How many pixels differ by more than 24 in some channel."""
    difference = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return difference.histogram()[255]


def wait_for(log_path, text, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with open(log_path) as log:
            if text in log.read():
                return True
        time.sleep(0.1)
    return False


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"no {BINARY}: run cargo build -p taos_samples --bin character first")
    shots = os.environ.get("TAOS_CHARACTER_SHOTS") or tempfile.mkdtemp(prefix="taos-character-shots-")
    os.makedirs(shots, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="taos-character-")
    log_path = os.path.join(workdir, "character.log")
    log = open(log_path, "w")
    env = dict(os.environ, RUST_LOG="warn,taos_samples=info")
    game = subprocess.Popen([BINARY], cwd=workdir, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        found = subprocess.run(["xdotool", "search", "--sync", "--name", "^character$"], check=True,
                               timeout=90, capture_output=True, text=True)
        window = found.stdout.split()[0]
        # No window manager under Xvfb: give the window the keyboard.
        xdotool("windowfocus", "--sync", window)
        time.sleep(3)  # pipelines compile on the first frames
        start = grab(shots, "start")

        # 1. Up the ramp to the coin.
        xdotool("keydown", "a")
        collected = wait_for(log_path, "coin collected (1 of 2)", 30)
        xdotool("keyup", "a")
        if not collected:
            raise Failure("holding A for 30 s did not collect the platform's coin")
        time.sleep(1)
        platform = grab(shots, "platform")
        if changed(start, platform) < WIDTH * HEIGHT // 20:
            raise Failure("the view hardly changed after walking to the platform")

        # 2. Drag to orbit.
        xdotool("mousemove", WIDTH // 2, HEIGHT // 2, "mousedown", "1")
        for _ in range(10):
            # Relative motion: the controllers read the mouse's own motion
            # (as under pointer lock), not the cursor's position.
            xdotool("mousemove_relative", "--", 25, 0)
            time.sleep(0.05)
        xdotool("mouseup", "1")
        time.sleep(1)
        orbited = grab(shots, "orbited")
        if changed(platform, orbited) < WIDTH * HEIGHT // 20:
            raise Failure("dragging did not orbit the camera")

        # 3. Jump: the character leaves the ground for a moment.
        before = grab(shots, "before_jump")
        xdotool("keydown", "space")
        time.sleep(0.15)
        xdotool("keyup", "space")
        time.sleep(0.1)
        jumping = grab(shots, "jumping")
        if changed(before, jumping) < 200:
            raise Failure("Space did not make the character jump")
        if game.poll() is not None:
            raise Failure(f"the game exited with {game.returncode}")
    except (Failure, subprocess.SubprocessError) as error:
        print(f"character window: FAILED: {error} (log: {log_path}, shots: {shots})", file=sys.stderr)
        return 1
    finally:
        game.kill()
        game.wait()
    print(f"character window: ok: walked up the ramp and collected the coin, orbited, jumped "
          f"(shots: {shots})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
