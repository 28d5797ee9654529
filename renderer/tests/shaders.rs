//! Every WGSL module the renderer builds, parsed and validated by naga without a
//! device: each composed variant from [`taos_renderer::features::shader_sources`], and
//! every `.wgsl` file under `src/` must appear in one of them.

#[test]
fn every_shader_parses_and_validates() {
    let sources = taos_renderer::features::shader_sources();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = taos_renderer::features::validate_shaders(&sources, &src, true)
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(files >= 30, "only {files} .wgsl files under src/");
    println!(
        "{} shaders from {files} .wgsl files validated",
        sources.len()
    );
}
