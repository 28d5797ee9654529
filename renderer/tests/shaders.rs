//! Every WGSL module the renderer builds, parsed and validated by naga
//! without a device: each composed variant from
//! [`taos_renderer::features::shader_sources`], and every `.wgsl` file under
//! `src/` must appear in one of them.

use std::path::{Path, PathBuf};

use naga::valid::{Capabilities, ValidationFlags, Validator};

fn wgsl_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            wgsl_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "wgsl") {
            found.push(path);
        }
    }
}

#[test]
fn every_shader_parses_and_validates() {
    let sources = taos_renderer::features::shader_sources();
    let mut failures = Vec::new();
    for (name, source) in &sources {
        let module = match naga::front::wgsl::parse_str(source) {
            Ok(module) => module,
            Err(error) => {
                failures.push(format!("{name}: {}", error.emit_to_string(source)));
                continue;
            }
        };
        // The default capabilities, what every backend has, plus the
        // G-buffer's `pack2x16float` (wgpu grants it with the downlevel flag
        // `SHADER_F16_IN_F32`: everywhere but Vulkan on Mesa without `f16`).
        let capabilities = Capabilities::default() | Capabilities::SHADER_FLOAT16_IN_FLOAT32;
        if let Err(error) = Validator::new(ValidationFlags::all(), capabilities).validate(&module) {
            failures.push(format!("{name}: {}", error.emit_to_string(source)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} shaders fail:\n{}",
        failures.len(),
        sources.len(),
        failures.join("\n")
    );

    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    wgsl_files(&src, &mut files);
    files.sort();
    assert!(
        files.len() >= 30,
        "only {} .wgsl files under src/",
        files.len()
    );
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read a .wgsl file");
        assert!(
            sources.iter().any(|(_, source)| source.contains(&text)),
            "{} is in no shader of shader_sources(): add its variants there",
            file.display()
        );
    }
    println!(
        "{} shaders from {} .wgsl files validated",
        sources.len(),
        files.len()
    );
}
