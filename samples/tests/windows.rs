//! Samples in a real window under Xvfb, driven by xdotool, one Python
//! script each:
//! - `editor_window.py`: the `editor` binary; clicks, drags, undoes and
//!   deletes, and checks the file Ctrl+S saves after each step;
//! - `character_window.py`: the `character` binary played as a small
//!   third-person game; holds A up the ramp until the game logs the coin,
//!   drags to orbit, jumps, each checked on the window's pixels.
//!
//! Needs `xvfb-run`, `xdotool`, `python3` and Pillow (`.ci/run` installs
//! them); without them a test says so and passes, so a machine without a
//! display server can still run the rest.
//!
//! And the sample binaries' command lines, with no display at all: each
//! answers `--help` and exits 0 without opening a window, and the
//! `editor` binary renders `--headless` to a `--screenshot`.

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

/// One window at a time: two software-rendered windows on a small machine
/// would slow each other past the scripts' waits.
static ONE_WINDOW: Mutex<()> = Mutex::new(());

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Runs `script` under a fresh Xvfb display with `binary` in `binary_env`;
/// asserts it succeeded and printed `ok_line`. Skips (passes, saying so)
/// when a tool is missing.
fn run_under_xvfb(script: &str, binary_env: &str, binary: &str, ok_line: &str) {
    let _window = ONE_WINDOW
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut missing: Vec<&str> = ["xvfb-run", "xdotool", "python3"]
        .into_iter()
        .filter(|tool| !have(tool))
        .collect();
    let pillow = Command::new("python3")
        .args(["-c", "import PIL.ImageGrab"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !pillow {
        missing.push("Pillow");
    }
    if !missing.is_empty() {
        eprintln!(
            "skipped: {} not installed (bash .ci/run installs them)",
            missing.join(", ")
        );
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(script);
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", "python3"])
        .arg(&script)
        .env(binary_env, binary)
        .output()
        .expect("xvfb-run runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the windowed run failed:\n{text}");
    assert!(text.contains(ok_line), "{text}");
}

#[test]
fn the_editor_works_in_a_window_under_xvfb() {
    run_under_xvfb(
        "editor_window.py",
        "TAOS_EDITOR_BINARY",
        env!("CARGO_BIN_EXE_editor"),
        "editor window: ok",
    );
}

#[test]
fn the_character_game_plays_in_a_window_under_xvfb() {
    run_under_xvfb(
        "character_window.py",
        "TAOS_CHARACTER_BINARY",
        env!("CARGO_BIN_EXE_character"),
        "character window: ok",
    );
}

/// Every sample binary, by name.
const BINARIES: [(&str, &str); 13] = [
    ("audio", env!("CARGO_BIN_EXE_audio")),
    ("character", env!("CARGO_BIN_EXE_character")),
    ("controllers", env!("CARGO_BIN_EXE_controllers")),
    ("deferred_showcase", env!("CARGO_BIN_EXE_deferred_showcase")),
    ("editor", env!("CARGO_BIN_EXE_editor")),
    ("forward_simple", env!("CARGO_BIN_EXE_forward_simple")),
    ("gltf_viewer", env!("CARGO_BIN_EXE_gltf_viewer")),
    ("many_lights", env!("CARGO_BIN_EXE_many_lights")),
    ("particles", env!("CARGO_BIN_EXE_particles")),
    ("physics", env!("CARGO_BIN_EXE_physics")),
    ("presets_compare", env!("CARGO_BIN_EXE_presets_compare")),
    ("samples_web", env!("CARGO_BIN_EXE_samples_web")),
    ("shooter", env!("CARGO_BIN_EXE_shooter")),
];

/// `binary` with no display server to open a window on.
fn without_display(binary: &str) -> Command {
    let mut command = Command::new(binary);
    command.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    command
}

#[test]
fn every_sample_binary_answers_help_without_a_window() {
    for (name, binary) in BINARIES {
        let output = without_display(binary)
            .arg("--help")
            .output()
            .unwrap_or_else(|e| panic!("{name} runs: {e}"));
        let text = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{name} --help failed:\n{text}");
        assert!(text.contains("Usage:"), "{name} --help printed:\n{text}");
    }
}

#[test]
fn the_editor_renders_headless_to_a_screenshot() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("editor.png");
    let output = without_display(env!("CARGO_BIN_EXE_editor"))
        .args([
            "--headless",
            "--frames",
            "2",
            "--size",
            "320x200",
            "--screenshot",
        ])
        .arg(&png)
        .current_dir(dir.path())
        .output()
        .expect("the editor runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the headless editor failed:\n{text}"
    );
    let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("no screenshot ({e}):\n{text}"));
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    // The IHDR chunk: width and height, big-endian, after the signature and chunk header.
    let size = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!((size(16), size(20)), (320, 200));
}

#[test]
fn the_particles_sample_counts_its_particles_headless() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("particles.png");
    let output = without_display(env!("CARGO_BIN_EXE_particles"))
        .args([
            "--headless",
            "--frames",
            "30",
            "--size",
            "160x100",
            "--path",
            "cpu",
        ])
        .arg("--screenshot")
        .arg(&png)
        .output()
        .expect("the particles sample runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the headless sample failed:\n{text}"
    );
    // "particles: N particles in 6 emitters (CPU path): ..."
    let alive: u32 = text
        .split("particles: ")
        .nth(1)
        .and_then(|line| line.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no particle count in:\n{text}"));
    assert!(alive > 500, "{alive} particles:\n{text}");
    assert!(text.contains("in 6 emitters (CPU path)"), "{text}");
    assert!(std::fs::read(&png).is_ok_and(|bytes| bytes.starts_with(b"\x89PNG")));
}
