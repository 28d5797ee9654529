//! The `crafty-server` binary's command line: `--help` is an answer (exit
//! 0), a bad option an error (exit 2), as clap makes them.

use std::process::Command;

fn crafty_server(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_crafty-server"))
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn help_exits_zero_and_names_every_option() {
    let out = crafty_server(&["--help"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let help = String::from_utf8_lossy(&out.stdout);
    for option in [
        "--port",
        "--bind",
        "--data",
        "--seed",
        "--max-players",
        "--tick-hz",
    ] {
        assert!(help.contains(option), "{option} missing from:\n{help}");
    }
}

#[test]
fn a_bad_option_exits_two() {
    let out = crafty_server(&["--no-such-option"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = crafty_server(&["--tick-hz", "0"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
