//! [`run_main`]: a game's `main`, with its errors said where the player
//! sees them on every platform.

use std::process::ExitCode;

/// Runs a game's `main` body: installs the logger ([`init_logging`](crate::init_logging),
/// which in the browser also shows panics in the page), runs `body`, and
/// says its error where the player looks: on standard error natively (with
/// its causes, exit code 1), in the page's error box in the browser, where
/// nothing reads what `main` returns.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     taos_engine::run_main(|| {
///         let options: Vec<String> = taos_engine::args();
///         // ... Engine::run_app(...)?;
///         Ok(())
///     })
/// }
/// ```
pub fn run_main(body: impl FnOnce() -> Result<(), Box<dyn std::error::Error>>) -> ExitCode {
    crate::init_logging();
    match body() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let text = describe(error.as_ref());
            #[cfg(target_arch = "wasm32")]
            crate::window::show_page_error(&text);
            #[cfg(not(target_arch = "wasm32"))]
            eprintln!("error: {text}");
            ExitCode::FAILURE
        }
    }
}

/// `error` with its causes, one per line.
pub(crate) fn describe(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        text.push_str("\n  caused by: ");
        text.push_str(&inner.to_string());
        cause = inner.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("outer")]
    struct Outer(#[source] std::io::Error);

    #[test]
    fn errors_are_described_with_their_causes_and_fail_the_exit_code() {
        let error = Outer(std::io::Error::other("inner"));
        assert_eq!(describe(&error), "outer\n  caused by: inner");
        assert_eq!(run_main(|| Ok(())), ExitCode::SUCCESS);
        assert_eq!(run_main(|| Err("bad".into())), ExitCode::FAILURE);
    }
}
