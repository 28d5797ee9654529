//! Running external commands, with errors that say which one failed and
//! how to fix it.

use std::ffi::OsStr;
use std::io::ErrorKind;
use std::process::{Command, Output, Stdio};

use anyhow::{Context, bail};

/// Prints a step, `== message`, on stderr.
pub fn say(message: &str) {
    eprintln!("== {message}");
}

/// Prints a warning, `taos: warning: message`, on stderr.
pub fn warn(message: &str) {
    eprintln!("taos: warning: {message}");
}

/// `command` as a shell would show it (arguments with spaces quoted).
pub fn display(command: &Command) -> String {
    let quote = |part: &OsStr| {
        let text = part.to_string_lossy();
        if text.is_empty() || text.contains([' ', '"', '\'']) {
            format!("'{text}'")
        } else {
            text.into_owned()
        }
    };
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(quote)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `command` with the terminal's stdout and stderr; an error names
/// `what` failed, the command line, and `fix`.
pub fn run(command: &mut Command, what: &str, fix: &str) -> anyhow::Result<()> {
    let status = command
        .status()
        .map_err(|error| spawn_error(command, what, fix, error))?;
    if !status.success() {
        bail!("{what} failed ({status}): `{}`\n{fix}", display(command));
    }
    Ok(())
}

/// Runs `command` and captures its stdout (stderr still goes to the
/// terminal); errors as [`run`]'s.
pub fn capture(command: &mut Command, what: &str, fix: &str) -> anyhow::Result<String> {
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| spawn_error(command, what, fix, error))?;
    if !output.status.success() {
        bail!(
            "{what} failed ({}): `{}`\n{fix}",
            output.status,
            display(command)
        );
    }
    String::from_utf8(output.stdout).with_context(|| format!("{what}: its output is not UTF-8"))
}

/// The output of `command` if it could be started at all (for probing
/// tools that may be missing: no error, just `None`).
pub fn probe(command: &mut Command) -> Option<Output> {
    command
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
}

/// The error for a command that could not even start.
fn spawn_error(command: &Command, what: &str, fix: &str, error: std::io::Error) -> anyhow::Error {
    let program = command.get_program().to_string_lossy();
    if error.kind() == ErrorKind::NotFound {
        anyhow::anyhow!("{what}: `{program}` was not found\n{fix}")
    } else {
        anyhow::anyhow!("{what}: could not start `{program}`: {error}\n{fix}")
    }
}

/// The cargo to run: `$CARGO` (set when running under cargo), else `cargo`.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_are_shown_quoted() {
        let mut command = Command::new("cargo");
        command.args(["build", "--config", "profile.web.opt-level=\"s\"", "my dir"]);
        assert_eq!(
            display(&command),
            r#"cargo build --config 'profile.web.opt-level="s"' 'my dir'"#
        );
    }

    #[test]
    fn a_missing_program_says_what_and_how_to_fix() {
        let error = run(
            &mut Command::new("taos-no-such-program"),
            "the frobnicator",
            "install it with `apt install frob`",
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("the frobnicator"), "{error}");
        assert!(
            error.contains("taos-no-such-program` was not found"),
            "{error}"
        );
        assert!(error.contains("apt install frob"), "{error}");
    }
}
