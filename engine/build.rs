//! Before anything links: the system libraries the default features load
//! on Linux must be installed, or the build stops with one line naming the
//! package, instead of a linker error pages long.
//!
//! Sound (`audio-device`: ALSA's `libasound.so.2`) and gamepads (`gamepad`:
//! `libudev.so.1`) link against the runtime libraries directly (see
//! `.cargo/config.toml`), so no `-dev` package is needed, only these, which
//! every desktop Linux has. Set `TAOS_SKIP_LIBRARY_CHECK=1` where libraries
//! live somewhere this check does not look (Nix, custom sysroots).

use std::path::{Path, PathBuf};

/// A runtime library a feature needs, and the packages that provide it.
struct Needed {
    feature: &'static str,
    file: &'static str,
    what: &'static str,
    debian: &'static str,
    fedora: &'static str,
    arch: &'static str,
}

const NEEDED: [Needed; 2] = [
    Needed {
        feature: "CARGO_FEATURE_AUDIO_DEVICE",
        file: "libasound.so.2",
        what: "ALSA, for sound",
        debian: "libasound2",
        fedora: "alsa-lib",
        arch: "alsa-lib",
    },
    Needed {
        feature: "CARGO_FEATURE_GAMEPAD",
        file: "libudev.so.1",
        what: "libudev, for gamepads",
        debian: "libudev1",
        fedora: "systemd-libs",
        arch: "systemd-libs",
    },
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=TAOS_SKIP_LIBRARY_CHECK");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let native = var("HOST") == var("TARGET");
    if var("CARGO_CFG_TARGET_OS") != "linux"
        || !native
        || !var("TAOS_SKIP_LIBRARY_CHECK").is_empty()
    {
        return;
    }
    let dirs = library_dirs(&var("CARGO_CFG_TARGET_ARCH"), &var("LIBRARY_PATH"));
    let cache = ldconfig_cache();
    for needed in NEEDED
        .iter()
        .filter(|n| std::env::var_os(n.feature).is_some())
    {
        let found = dirs
            .iter()
            .map(|dir| Path::new(dir).join(needed.file))
            .find(|path| path.exists())
            .or_else(|| cached(&cache, needed.file));
        if let Some(path) = found {
            // Checked again if the library is removed or replaced.
            println!("cargo::rerun-if-changed={}", path.display());
        } else {
            println!(
                "cargo::error={} ({}) is not installed: `sudo apt-get install {}` (Debian, Ubuntu), \
                 `sudo dnf install {}` (Fedora), `sudo pacman -S {}` (Arch); \
                 or build without it: `--no-default-features` on taos_engine",
                needed.file, needed.what, needed.debian, needed.fedora, needed.arch
            );
        }
    }
}

/// Where the linker and the loader look by default, plus `LIBRARY_PATH`.
fn library_dirs(arch: &str, library_path: &str) -> Vec<String> {
    let mut dirs: Vec<String> = ["/lib", "/usr/lib", "/lib64", "/usr/lib64", "/usr/local/lib"]
        .iter()
        .map(|d| (*d).to_owned())
        .collect();
    dirs.push(format!("/lib/{arch}-linux-gnu"));
    dirs.push(format!("/usr/lib/{arch}-linux-gnu"));
    dirs.extend(
        library_path
            .split(':')
            .filter(|d| !d.is_empty())
            .map(str::to_owned),
    );
    dirs
}

/// `ldconfig -p`'s listing (empty if there is no ldconfig).
fn ldconfig_cache() -> String {
    ["ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig"]
        .iter()
        .find_map(|cmd| std::process::Command::new(cmd).arg("-p").output().ok())
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_default()
}

/// Where the cache lists `file`, if that path exists.
fn cached(cache: &str, file: &str) -> Option<PathBuf> {
    cache
        .lines()
        .filter(|line| line.trim_start().starts_with(file))
        .filter_map(|line| line.split("=>").nth(1))
        .map(|path| PathBuf::from(path.trim()))
        .find(|path| path.exists())
}
