//! The `crafty-bot` binary's command line: `--help` is an answer (exit 0),
//! a missing server address an error (exit 2).

use std::process::Command;

#[test]
fn help_exits_zero_and_a_missing_address_two() {
    let bot = env!("CARGO_BIN_EXE_crafty-bot");
    let out = Command::new(bot).arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("--name") && help.contains("--seconds"),
        "{help}"
    );
    let out = Command::new(bot).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
