//! Drawing crafty: [`CraftyPipelineFeature`], one render feature for the
//! whole frame, fed through a [`CraftyRenderHandle`].
//!
//! The frame, in order (each pass chains the frame's HDR target):
//! 0. **shadows**: the sun's (or, at night, the moon's) cascades
//!    ([`Shadows`]: 3 of 1024 texels out to 96 blocks by default), fitted
//!    by the renderer's `fit_cascades`, each drawing the chunks whose box
//!    overlaps it into one tile of a persistent depth atlas: solid quads
//!    from their far side (so lit faces never shadow themselves), leaves
//!    and glass frames alpha tested; redrawn only when the cascades or the
//!    chunks change;
//! 1. **sky**: a gradient whose colours follow the sun angle (blue day,
//!    orange sunset, dark night with stars), the sun disc, and the moon
//!    opposite it, lit by its phase;
//! 2. **opaque chunks**: one instanced draw per visible chunk, one instance
//!    per [`PackedQuad`](crate::mesh::PackedQuad), six vertices made in the
//!    vertex shader; the chunk origin comes from a dynamic uniform offset;
//!    textured from the procedural [`block_atlas`] (nearest texels, repeating
//!    per block across merged quads), lit by the game's [`SkyLighting`](crate::time_of_day::SkyLighting) with per-corner
//!    ambient occlusion and the shadow atlas (3 x 3 filtered comparisons,
//!    direct light fading with depth under water), fogged into the sky
//!    colour; the fully opaque texels
//!    of transparent quads (leaves, glass frames) are drawn here too, alpha
//!    tested with depth written, so they hide each other in any order;
//! 3. **transparent chunks**: the translucent texels of water, glass and
//!    leaves, blended, depth-tested but not written, chunks back to front;
//! 4. **weather**: rain streaks or snow flakes, one instanced draw placed
//!    entirely in the vertex shader, each stopping at the top of its
//!    column (a precipitation map the game hands over), so none falls
//!    through a roof; the chunks above also darken wet blocks the sky
//!    reaches and fog closes in under cloud;
//!    then the scene's **particle emitters** (block debris, rain splashes,
//!    snow puffs: the engine's `ParticleFeature`, fed from the
//!    `ParticleEmitter` components the game's [`particles`](crate::particles)
//!    keeps), tested against the opaque depth;
//! 5. **highlight**: the targeted block's edges as dark lines;
//! 6. **godrays** ([`Godrays`]): while the sun or moon is on or near the
//!    screen, the sky around it where no block covers it goes into a
//!    half-size mask, and every pixel adds what it gathers marching 32
//!    steps towards the light through that mask;
//! 7. **tonemap**: the renderer's [`TonemapFeature`](taos_engine::renderer::features::TonemapFeature)
//!    into the output.
//!
//! Extra stages (auroras, bloom, a game's own effects) slot in between these
//! at a [`StagePoint`] through [`CraftyPipelineFeature::with_stage`].
//!
//! In the code, each pass is one type in `passes/` with its own pipelines,
//! bind groups and per-frame update; `shared/` holds what they share (the
//! frame uniform and its bind group, the pipeline builder, the shader
//! programs), and `feature.rs` composes them: feature, then passes, then
//! shared, never back.
//!
//! ```no_run
//! use crafty::render::CraftyPipelineFeature;
//! use crafty::world::ChunkPos;
//! # fn demo(renderer: &mut taos_engine::renderer::Renderer, mesh: &crafty::mesh::ChunkMesh) {
//! let (feature, handle) = CraftyPipelineFeature::new();
//! renderer.add_feature(feature);
//! handle.set_chunk(ChunkPos::new(0, 0, 0), mesh);
//! handle.set_sky(crafty::time_of_day::sky_lighting(std::f32::consts::FRAC_PI_2, 0.5)); // noon
//! handle.set_highlight(Some(glam::IVec3::new(3, 10, 4)));
//! # }
//! ```

mod atlas;
mod atlas_texture;
mod chunks;
mod feature;
mod handle;
mod icons;
mod passes;
mod shared;
mod weather;

pub use atlas::{
    ATLAS_COLUMNS, ATLAS_MIP_LEVELS, ATLAS_ROWS, ATLAS_TILE_SIZE, atlas_tile, block_atlas,
    is_cutout_tile, tile_mips, tile_origin,
};
pub(crate) use chunks::FADE_FRAMES as FAR_FADE_FRAMES;
pub use feature::{CraftyPipelineFeature, StagePoint};
pub use handle::{
    Clouds, CraftyRenderHandle, CraftyRenderStats, Fog, Godrays, MAX_AVATARS, Shadows, Upload,
};
pub use icons::{ICON_SIZE, block_icon};
pub use weather::{MAX_WEATHER_PARTICLES, SNOW_ALTITUDE, particle_count};

/// Every shader module crafty builds, `(label, WGSL)`: each
/// [`CraftyShader`](shared::CraftyShader) program joined as the passes join
/// it (the atlas constants included), for the device-free validation test
/// (`tests/shaders.rs`).
#[doc(hidden)]
#[must_use]
pub fn shader_sources() -> Vec<(String, String)> {
    let constants = atlas_texture::shader_constants(atlas_texture::cutout_tiles());
    shared::CraftyShader::ALL
        .iter()
        .map(|shader| (shader.label().to_owned(), shader.source(&constants)))
        .collect()
}

/// The engine preset crafty runs on: its pipeline feature alone (sky,
/// chunks, water, highlight, particles, tonemap), for
/// [`Engine::headless`](taos_engine::Engine::headless) and
/// [`Engine::run_app`](taos_engine::Engine::run_app). It also registers the
/// block atlas with the renderer's assets as the particles' texture
/// ([`CraftyRenderHandle::particle_atlas`]); where that fails (a device
/// without room for it) debris falls back to plain dots, logged.
pub fn crafty_preset(
    feature: CraftyPipelineFeature,
) -> impl FnOnce(&mut taos_engine::renderer::Renderer) {
    move |renderer| {
        let handle = feature.handle();
        renderer.add_feature(feature);
        let (assets, gpu) = renderer.assets_mut();
        let atlas = taos_engine::renderer::resources::Texture::from_rgba8(
            gpu,
            "crafty particle atlas",
            &block_atlas(),
            taos_engine::renderer::resources::ColorSpace::Srgb,
        );
        match atlas {
            Ok(texture) => handle.set_particle_atlas(Some(assets.add_texture(texture))),
            Err(e) => {
                log::warn!("crafty: block debris drawn as plain dots ({e})");
                handle.set_particle_atlas(None);
            }
        }
    }
}
