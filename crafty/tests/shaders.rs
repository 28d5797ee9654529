//! Every WGSL module crafty builds, parsed and validated by naga without a
//! device: each composed variant from [`crafty::render::shader_sources`], and
//! every `.wgsl` file under `src/` must appear in one of them.

#[test]
fn every_shader_parses_and_validates() {
    let sources = crafty::render::shader_sources();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = taos_renderer::features::validate_shaders(&sources, &src, false)
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(files >= 10, "only {files} .wgsl files under src/");
    println!(
        "{} shaders from {files} .wgsl files validated",
        sources.len()
    );
}
