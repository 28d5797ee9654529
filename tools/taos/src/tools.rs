//! The external tools of a web build: rustup's wasm32 target, the
//! `wasm-bindgen` CLI (at the game's exact version) and `wasm-opt`; found,
//! or installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::bail;

use crate::process::{self, probe, say, warn};

/// The target every web build compiles for.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The binaryen release npm installs when no usable `wasm-opt` is on `PATH`.
pub const BINARYEN_NPM_VERSION: &str = "132.0.0";

/// The oldest binaryen whose `wasm-opt` keeps wasm-bindgen's reference-type
/// tables intact (Debian 12's 108 breaks them: the page fails with
/// `WebAssembly.Table.set(): Argument 1 is invalid`).
pub const MIN_BINARYEN: u32 = 116;

/// The post-MVP features Rust's wasm32 target emits; `wasm-opt` must
/// accept them.
pub const WASM_OPT_FEATURES: [&str; 6] = [
    "--enable-bulk-memory",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-nontrapping-float-to-int",
    "--enable-reference-types",
    "--enable-multivalue",
];

/// The user's home folder (`$HOME`, or `%USERPROFILE%` on Windows).
pub fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(PathBuf::from)
}

/// Where `cargo install` puts binaries: `$CARGO_HOME/bin`, else `~/.cargo/bin`.
pub fn cargo_bin_dir() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join(".cargo")))
        .map(|d| d.join("bin"))
}

/// Adds rustup's `wasm32-unknown-unknown` target if rustup exists and it
/// is missing. Without rustup, nothing (the build then says what is missing).
pub fn ensure_wasm_target() -> anyhow::Result<()> {
    let Some(listed) = probe(Command::new("rustup").args(["target", "list", "--installed"])) else {
        return Ok(());
    };
    let installed = String::from_utf8_lossy(&listed.stdout);
    if installed.lines().any(|line| line.trim() == WASM_TARGET) {
        return Ok(());
    }
    say(&format!("rustup target add {WASM_TARGET}"));
    process::run(
        Command::new("rustup").args(["target", "add", WASM_TARGET]),
        "adding the wasm32 target",
        "run `rustup target add wasm32-unknown-unknown` by hand (it needs the network once)",
    )
}

/// The version `wasm-bindgen --version` prints (`wasm-bindgen 0.2.130`).
pub fn parse_wasm_bindgen_version(output: &str) -> Option<String> {
    let mut words = output.split_whitespace();
    (words.next()? == "wasm-bindgen").then_some(())?;
    words.next().map(String::from)
}

/// The version of the `wasm-bindgen` at `program`, if it runs.
fn wasm_bindgen_version(program: &Path) -> Option<String> {
    let output = probe(Command::new(program).arg("--version"))?;
    parse_wasm_bindgen_version(&String::from_utf8_lossy(&output.stdout))
}

/// A `wasm-bindgen` CLI of exactly version `want` (the JS glue must match
/// the `wasm-bindgen` crate the game was built with): the one on `PATH`,
/// else cargo's bin folder, else one installed now with
/// `cargo install wasm-bindgen-cli --version WANT` (a few minutes, once).
pub fn ensure_wasm_bindgen(want: &str) -> anyhow::Result<PathBuf> {
    let exe = format!("wasm-bindgen{}", std::env::consts::EXE_SUFFIX);
    let installed = cargo_bin_dir().map(|d| d.join(&exe));
    let mut candidates = vec![PathBuf::from(&exe)];
    candidates.extend(installed.clone());
    let mut found = Vec::new();
    for candidate in &candidates {
        match wasm_bindgen_version(candidate) {
            Some(version) if version == want => return Ok(candidate.clone()),
            Some(version) => found.push(version),
            None => {}
        }
    }
    let found = if found.is_empty() {
        "none".to_string()
    } else {
        found.join(", ")
    };
    say(&format!(
        "installing wasm-bindgen-cli {want} (found: {found}; one-off, a few minutes)"
    ));
    let mut install = process::cargo();
    // Not --locked: the CLI's own lock file pins crates that no longer build.
    install
        .args(["install", "wasm-bindgen-cli", "--version", want, "--quiet"])
        .env("CARGO_TARGET_DIR", cli_target_dir());
    process::run(
        &mut install,
        "wasm-bindgen-cli install",
        &format!(
            "the web build needs wasm-bindgen-cli {want} (the version of the wasm-bindgen crate \
             in Cargo.lock); check the network, or install it by hand with \
             `cargo install wasm-bindgen-cli --version {want}`"
        ),
    )?;
    match installed {
        Some(path) if wasm_bindgen_version(&path).as_deref() == Some(want) => Ok(path),
        _ => bail!(
            "wasm-bindgen-cli {want} was installed, but no `wasm-bindgen` of that version \
             is in cargo's bin folder ({}): is CARGO_HOME or `install.root` set elsewhere?",
            cargo_bin_dir().map_or("unknown".into(), |d| d.display().to_string())
        ),
    }
}

/// The target folder of the wasm-bindgen-cli install, kept apart from the
/// game's: `~/.cache/wasm-bindgen-cli-target`.
fn cli_target_dir() -> PathBuf {
    home()
        .map(|h| h.join(".cache"))
        .unwrap_or_else(std::env::temp_dir)
        .join("wasm-bindgen-cli-target")
}

/// binaryen's release number from `wasm-opt --version`
/// (`wasm-opt version 116 (version_116)`).
pub fn parse_wasm_opt_version(output: &str) -> Option<u32> {
    output.split_whitespace().nth(2)?.parse().ok()
}

/// A usable `wasm-opt`: binaryen [`MIN_BINARYEN`] or newer on `PATH`, else
/// npm's `binaryen` package in `~/.cache/taos-binaryen` (installed now if
/// npm exists), else `None` after saying why.
pub fn find_wasm_opt() -> Option<PathBuf> {
    let on_path = probe(Command::new("wasm-opt").arg("--version"))
        .and_then(|o| parse_wasm_opt_version(&String::from_utf8_lossy(&o.stdout)));
    if on_path.is_some_and(|v| v >= MIN_BINARYEN) {
        return Some(PathBuf::from("wasm-opt"));
    }
    let prefix = home()?.join(".cache").join("taos-binaryen");
    let npm_opt = prefix.join("node_modules").join(".bin").join("wasm-opt");
    if !npm_opt.exists() && probe(Command::new("npm").arg("--version")).is_some() {
        say(&format!(
            "installing binaryen {BINARYEN_NPM_VERSION} from npm for wasm-opt"
        ));
        let mut install = Command::new("npm");
        install
            .args(["install", "--silent", "--prefix"])
            .arg(&prefix)
            .arg(format!("binaryen@{BINARYEN_NPM_VERSION}"));
        if let Err(error) = process::run(
            &mut install,
            "npm install binaryen",
            "wasm-opt is optional: the build goes on without it",
        ) {
            warn(&format!("{error:#}"));
        }
    }
    if npm_opt.exists() {
        return Some(npm_opt);
    }
    let found = on_path.map_or("none".into(), |v| format!("binaryen {v}"));
    say(&format!(
        "no usable wasm-opt (needs binaryen {MIN_BINARYEN}+ on PATH, or npm; found: {found}): \
         the wasm is left as rustc made it"
    ));
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_versions_are_read() {
        assert_eq!(
            parse_wasm_bindgen_version("wasm-bindgen 0.2.130\n").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(parse_wasm_bindgen_version("something 1.0"), None);
        assert_eq!(parse_wasm_bindgen_version(""), None);
        assert_eq!(
            parse_wasm_opt_version("wasm-opt version 116 (version_116)"),
            Some(116)
        );
        assert_eq!(parse_wasm_opt_version("wasm-opt version 108"), Some(108));
        assert_eq!(parse_wasm_opt_version("wasm-opt"), None);
    }
}
