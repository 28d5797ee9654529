//! The wasm's size report: raw, `gzip -9` and `brotli -q 11` bytes.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

/// The report's line for the wasm at `wasm`, named `name` (e.g.
/// `my_game.wasm: 7670000 bytes raw, 3020000 gzip, 2200000 brotli`).
/// A compressor that is not installed gives `?`.
pub fn report(name: &str, wasm: &Path) -> std::io::Result<String> {
    let raw = std::fs::metadata(wasm)?.len();
    let size = |size: Option<u64>| size.map_or("?".to_string(), |s| s.to_string());
    let gzip = size(compressed_size(
        Command::new("gzip").args(["-9", "-c"]).arg(wasm),
    ));
    let brotli = size(compressed_size(
        Command::new("brotli").args(["-q", "11", "-c"]).arg(wasm),
    ));
    Ok(format_line(name, raw, &gzip, &brotli))
}

/// One report line.
pub fn format_line(name: &str, raw: u64, gzip: &str, brotli: &str) -> String {
    format!("{name}: {raw} bytes raw, {gzip} gzip, {brotli} brotli")
}

/// The bytes `command` writes to stdout, counted as they stream; `None`
/// if it cannot run or fails.
fn compressed_size(command: &mut Command) -> Option<u64> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    let mut counted = 0;
    let mut buffer = vec![0; 64 * 1024];
    loop {
        match stdout.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => counted += n as u64,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    child.wait().ok()?.success().then_some(counted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_reads_like_build_sh_wrote_it() {
        assert_eq!(
            format_line("crafty.wasm", 7_670_000, "3020000", "?"),
            "crafty.wasm: 7670000 bytes raw, 3020000 gzip, ? brotli"
        );
    }

    #[test]
    fn a_missing_compressor_counts_nothing() {
        assert_eq!(compressed_size(&mut Command::new("taos-no-such-zip")), None);
    }
}
