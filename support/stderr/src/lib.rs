//! Keeps known noise from C libraries off the terminal.
//!
//! Some system libraries the engine loads print diagnostics straight to
//! file descriptor 2, past Rust's `log`:
//!
//! - **libwayland**, called by Mesa's implicit Vulkan layer
//!   `VK_LAYER_MESA_device_select` while wgpu lists adapters, prints
//!   `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` on a
//!   machine without a desktop session (CI, SSH, containers), once per
//!   adapter listing. Nothing is wrong: headless rendering works.
//! - **ALSA** prints a dozen `ALSA lib ...` lines while the sound backend
//!   probes devices on a machine without a sound card; the engine's audio
//!   then says, in one line, that the game runs silent.
//!
//! [`filtered`] runs a closure with fd 2 pointing at an in-memory file, then
//! writes every captured line back to the real stderr except those matching
//! the given [`Noise`], which go to the log at `debug` level (so
//! `RUST_LOG=debug` still shows them). Output of other threads during the
//! closure is delayed, not lost. Captures are serialized by a process-wide
//! lock, so two threads creating GPU contexts at once cannot tangle fd 2.
//!
//! What it is not: a logger, or a way to silence arbitrary output. Only the
//! patterns in [`Noise`] are dropped; on other platforms, and wherever fd 2
//! cannot be redirected, the closure simply runs.

#[cfg(target_os = "linux")]
use std::sync::Mutex;

/// A kind of known noise and the lines it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Noise {
    /// libwayland's complaint when no desktop session set `XDG_RUNTIME_DIR`.
    WaylandRuntimeDir,
    /// ALSA's probe diagnostics (`ALSA lib ...`).
    AlsaProbe,
}

impl Noise {
    /// Whether `line` (without its newline) is this noise.
    #[must_use]
    pub fn matches(self, line: &str) -> bool {
        match self {
            Self::WaylandRuntimeDir => {
                line.contains("XDG_RUNTIME_DIR is invalid or not set in the environment")
            }
            Self::AlsaProbe => line.starts_with("ALSA lib "),
        }
    }
}

/// Whether libwayland would complain if something connected to a display
/// now: no `WAYLAND_DISPLAY` given as an absolute path, and no absolute
/// `XDG_RUNTIME_DIR`. Reads the environment only.
#[must_use]
pub fn wayland_would_complain() -> bool {
    let absolute =
        |name: &str| std::env::var_os(name).is_some_and(|v| v.to_string_lossy().starts_with('/'));
    !absolute("WAYLAND_DISPLAY") && !absolute("XDG_RUNTIME_DIR")
}

/// Serializes captures: fd 2 is one per process.
#[cfg(target_os = "linux")]
static CAPTURE: Mutex<()> = Mutex::new(());

/// Runs `f` with the process's stderr captured; afterwards writes back
/// every captured line that matches none of `noise`, and logs the others
/// at `debug` level. With an empty `noise`, or where capturing is not
/// possible, just runs `f`.
///
/// Do not call it from inside `f` (the capture lock is not reentrant).
pub fn filtered<T>(noise: &[Noise], f: impl FnOnce() -> T) -> T {
    if noise.is_empty() {
        return f();
    }
    capture::run(noise, f)
}

/// Splits captured bytes into the lines to pass on and the noise.
#[cfg(any(target_os = "linux", test))]
fn split_noise<'a>(captured: &'a str, noise: &[Noise]) -> (Vec<&'a str>, Vec<&'a str>) {
    captured
        .lines()
        .partition(|line| !noise.iter().any(|n| n.matches(line)))
}

#[cfg(target_os = "linux")]
mod capture {
    use std::fs::File;
    use std::io::{Read, Seek, SeekFrom, Write};
    use std::os::fd::{AsFd, OwnedFd};

    use rustix::fs::{MemfdFlags, memfd_create};
    use rustix::stdio::dup2_stderr;

    use super::{CAPTURE, Noise, split_noise};

    /// Puts the original stderr back when dropped, also if `f` panics.
    struct Restore {
        original: OwnedFd,
    }

    impl Drop for Restore {
        fn drop(&mut self) {
            if let Err(e) = dup2_stderr(self.original.as_fd()) {
                log::warn!("could not restore stderr after a capture: {e}");
            }
        }
    }

    pub(super) fn run<T>(noise: &[Noise], f: impl FnOnce() -> T) -> T {
        let _one_at_a_time = CAPTURE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some((restore, mut sink)) = redirect() else {
            return f();
        };
        let value = f();
        drop(restore);
        let mut captured = String::new();
        let read = sink
            .seek(SeekFrom::Start(0))
            .and_then(|_| sink.read_to_string(&mut captured));
        if let Err(e) = read {
            log::warn!("could not read back captured stderr: {e}");
            return value;
        }
        let (keep, dropped) = split_noise(&captured, noise);
        for line in dropped {
            log::debug!("(stderr, known noise) {line}");
        }
        if !keep.is_empty() {
            let mut stderr = std::io::stderr().lock();
            for line in keep {
                // Nothing better to do if stderr itself is gone.
                let _ = writeln!(stderr, "{line}");
            }
        }
        value
    }

    /// Points fd 2 at a fresh in-memory file; `None` (and fd 2 untouched)
    /// if any step fails.
    fn redirect() -> Option<(Restore, File)> {
        let original = rustix::io::dup(std::io::stderr().as_fd()).ok()?;
        let sink = memfd_create("taos-stderr", MemfdFlags::CLOEXEC).ok()?;
        std::io::stderr().flush().ok()?;
        dup2_stderr(sink.as_fd()).ok()?;
        Some((Restore { original }, File::from(sink)))
    }
}

#[cfg(not(target_os = "linux"))]
mod capture {
    use super::Noise;

    pub(super) fn run<T>(_noise: &[Noise], f: impl FnOnce() -> T) -> T {
        f()
    }
}

#[cfg(test)]
mod tests {
    use super::{Noise, split_noise};

    #[test]
    fn only_the_known_lines_are_noise() {
        let captured = "error: XDG_RUNTIME_DIR is invalid or not set in the environment.\n\
                        ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n\
                        a real problem\n";
        let (keep, dropped) = split_noise(captured, &[Noise::WaylandRuntimeDir, Noise::AlsaProbe]);
        assert_eq!(keep, ["a real problem"]);
        assert_eq!(dropped.len(), 2);
        let (keep, _) = split_noise(captured, &[Noise::WaylandRuntimeDir]);
        assert_eq!(
            keep.len(),
            2,
            "ALSA lines pass when only Wayland noise is filtered"
        );
    }
}
