//! The `editor` binary in a real window under Xvfb, driven by xdotool:
//! `editor_window.py` clicks, drags, undoes and deletes, and checks the
//! file Ctrl+S saves after each step. Needs `xvfb-run`, `xdotool` and
//! `python3` (`.ci/run` installs them); without them it says so and
//! passes, so a machine without a display server can still run the rest.

use std::path::Path;
use std::process::Command;

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
fn the_editor_works_in_a_window_under_xvfb() {
    let missing: Vec<&str> = ["xvfb-run", "xdotool", "python3"]
        .into_iter()
        .filter(|tool| !have(tool))
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "skipped: {} not installed (bash .ci/run installs them)",
            missing.join(", ")
        );
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/editor_window.py");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", "python3"])
        .arg(&script)
        .env("TAOS_EDITOR_BINARY", env!("CARGO_BIN_EXE_editor"))
        .output()
        .expect("xvfb-run runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the windowed editor run failed:\n{text}"
    );
    assert!(text.contains("editor window: ok"), "{text}");
}
