//! The `crafty` binary end to end: no display, scripted replays, headless
//! runs with a screenshot (GPU: lavapipe in CI), and resuming a named world.

use std::process::Command;

fn crafty() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_crafty"));
    command.env_remove("RUST_BACKTRACE");
    command
}

#[test]
fn without_a_display_it_says_how_to_run_headless() {
    let data = tempfile::tempdir().unwrap();
    let output = crafty()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .arg("--data-dir")
        .arg(data.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("crafty --headless --world new:42"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_scripted_headless_run_saves_and_screenshots_then_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("demo.replay");
    let shot = dir.path().join("shot.png");
    let status = crafty()
        .arg("--make-replay")
        .arg(&replay)
        .args(["--script", "walk 30, look-down 20, break, wait 5, place"])
        .status()
        .unwrap();
    assert!(status.success());

    let output = crafty()
        .args([
            "--headless",
            "--world",
            "new:42",
            "--ticks",
            "120",
            "--size",
            "96x54",
        ])
        .arg("--replay")
        .arg(&replay)
        .arg("--screenshot")
        .arg(&shot)
        .arg("--data-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("120 ticks"), "{stdout}");
    let image = image::open(&shot).unwrap();
    assert_eq!((image.width(), image.height()), (96, 54));

    let again = crafty()
        .args(["--headless", "--world", "Seed 42", "--ticks", "1"])
        .arg("--data-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{stdout}");
    assert!(stdout.contains("world \"Seed 42\""), "{stdout}");
}
