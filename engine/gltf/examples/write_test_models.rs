//! Writes every test model into a directory, to open them in a viewer:
//!
//! ```sh
//! cargo run -p taos_gltf --example write_test_models -- models/
//! cargo run -p taos_samples --bin gltf_viewer -- models/textured_box.gltf
//! ```

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("test_models"), PathBuf::from);
    std::fs::create_dir_all(&dir)?;
    for path in taos_gltf::test_models::write_all(&dir)? {
        println!("{}", path.display());
    }
    Ok(())
}
