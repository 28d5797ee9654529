//! Running the built `taos-db` binary, shared by the tool's tests.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `taos-db --dir DIR ARGS...` and returns what it did.
pub(crate) fn taos_db(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taos-db"))
        .arg("--dir")
        .arg(dir)
        .args(args)
        .output()
        .unwrap()
}

/// The run's standard output, after asserting it succeeded.
pub(crate) fn ok(output: Output) -> String {
    assert!(
        output.status.success(),
        "taos-db failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}
