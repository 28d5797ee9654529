//! What reaches the terminal: a child process (this test binary again)
//! writes noise and a real line to file descriptor 2 inside `filtered`;
//! the parent reads the child's stderr as a terminal would.

use std::io::Write;
use std::process::Command;

use taos_stderr::{Noise, filtered};

/// Set in the child's environment: the child test writes, the parent reads.
const CHILD: &str = "TAOS_STDERR_TEST_CHILD";

#[test]
fn child_writes_noise_and_a_real_line() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let written = filtered(&[Noise::AlsaProbe, Noise::WaylandRuntimeDir], || {
        // Straight to fd 2, as a C library writes (not through the test
        // harness's capture of `eprintln!`).
        let mut stderr = std::io::stderr();
        stderr.write_all(
            b"ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n\
              error: XDG_RUNTIME_DIR is invalid or not set in the environment.\n\
              a real problem, kept\n",
        )?;
        stderr.flush()?;
        Ok::<_, std::io::Error>(42)
    });
    assert_eq!(written.unwrap(), 42, "the closure's value comes back");
    std::io::stderr()
        .write_all(b"after the capture, stderr is the terminal again\n")
        .unwrap();
}

#[test]
fn known_noise_never_reaches_the_terminal_and_the_rest_does() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_writes_noise_and_a_real_line",
            "--exact",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "child failed: {stderr}");
    assert!(stderr.contains("a real problem, kept"), "{stderr}");
    assert!(stderr.contains("after the capture"), "{stderr}");
    if cfg!(target_os = "linux") {
        assert!(!stderr.contains("ALSA lib"), "{stderr}");
        assert!(!stderr.contains("XDG_RUNTIME_DIR"), "{stderr}");
    }
}
