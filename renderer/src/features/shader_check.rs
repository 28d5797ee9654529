//! Device-free shader validation for tests: every composed module parsed
//! and validated by naga (the compiler wgpu uses), and every `.wgsl` file of
//! a crate found in one of them. The renderer's and crafty's
//! `tests/shaders.rs` call it with their own [`shader_sources`](super::shader_sources).

use std::path::{Path, PathBuf};

use naga::valid::{Capabilities, ValidationFlags, Validator};

/// Why the shaders did not pass.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShaderCheckError {
    /// naga refused modules: each one's name and message.
    #[error("{} of {total} shaders fail:\n{}", .failures.len(), .failures.join("\n"))]
    Invalid {
        /// `name: naga's message`, per failing module.
        failures: Vec<String>,
        /// How many modules were checked.
        total: usize,
    },
    /// A `.wgsl` file is part of no checked module.
    #[error("{} is in no shader of shader_sources(): add its variants there", .0.display())]
    Unused(PathBuf),
    /// The source folder could not be read.
    #[error("{}: {source}", .path.display())]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// The file system's error.
        source: std::io::Error,
    },
}

fn wgsl_files(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), ShaderCheckError> {
    let read = |source| ShaderCheckError::Read {
        path: dir.to_owned(),
        source,
    };
    let entries = std::fs::read_dir(dir).map_err(read)?;
    for entry in entries {
        let path = entry.map_err(read)?.path();
        if path.is_dir() {
            wgsl_files(&path, found)?;
        } else if path.extension().is_some_and(|ext| ext == "wgsl") {
            found.push(path);
        }
    }
    Ok(())
}

/// Parses and validates each of `sources` (name, WGSL) with naga, and checks
/// that every `.wgsl` file under `src_dir` is part of one of them. With
/// `half_float_packing`, `pack2x16float` and its kin are allowed (wgpu's
/// `SHADER_F16_IN_F32` downlevel flag, which the deferred path requires).
/// Returns how many files were found.
///
/// # Errors
/// Every failing module with naga's message, or the first file in no module.
#[doc(hidden)]
pub fn validate_shaders(
    sources: &[(String, String)],
    src_dir: &Path,
    half_float_packing: bool,
) -> Result<usize, ShaderCheckError> {
    let mut capabilities = Capabilities::default();
    if half_float_packing {
        capabilities |= Capabilities::SHADER_FLOAT16_IN_FLOAT32;
    }
    let mut failures = Vec::new();
    for (name, source) in sources {
        let checked = naga::front::wgsl::parse_str(source)
            .map_err(|error| error.emit_to_string(source))
            .and_then(|module| {
                Validator::new(ValidationFlags::all(), capabilities)
                    .validate(&module)
                    .map(drop)
                    .map_err(|error| error.emit_to_string(source))
            });
        if let Err(error) = checked {
            failures.push(format!("{name}: {error}"));
        }
    }
    if !failures.is_empty() {
        return Err(ShaderCheckError::Invalid {
            failures,
            total: sources.len(),
        });
    }
    let mut files = Vec::new();
    wgsl_files(src_dir, &mut files)?;
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|source| ShaderCheckError::Read {
            path: file.clone(),
            source,
        })?;
        if !sources.iter().any(|(_, source)| source.contains(&text)) {
            return Err(ShaderCheckError::Unused(file.clone()));
        }
    }
    Ok(files.len())
}
