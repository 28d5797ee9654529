//! The game's side of the pipeline: a cloneable handle to state the feature
//! drains every frame.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use glam::{IVec2, IVec3, Vec2, Vec3};

use taos_engine::renderer::resources::TextureId;

use crate::lod::LodTile;
use crate::mesh::ChunkMesh;
use crate::time_of_day::{SkyLighting, sky_lighting};
use crate::weather::{PrecipitationMap, WeatherView};
use crate::world::ChunkPos;

/// Distance fog: surfaces fade into the sky colour between `start` and `end`
/// blocks from the camera.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fog {
    /// Distance where fog begins.
    pub start: f32,
    /// Distance where only sky is left.
    pub end: f32,
}

impl Default for Fog {
    /// The fog of the default view radius (4 chunks): 48 to 96 blocks.
    fn default() -> Self {
        Self::for_view_radius(crate::game::DEFAULT_VIEW_RADIUS)
    }
}

impl Fog {
    /// Fog that hides the edge of `radius` chunks of loaded world: it ends
    /// at three quarters of the radius (24 blocks a chunk) and starts half
    /// way there.
    #[must_use]
    pub fn for_view_radius(radius: i32) -> Self {
        let end = radius.max(1) as f32 * 24.0;
        Self {
            start: end * 0.5,
            end,
        }
    }
}

/// The cloud layer (150 to 172 blocks up): how much of the sky it covers
/// in fair weather (rain, snow and storms thicken it), and the wind that
/// carries it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clouds {
    /// Fair-weather cover, 0 (no clouds) to 1 (overcast).
    pub cover: f32,
    /// Wind along x and z, blocks per second.
    pub wind: Vec2,
}

impl Clouds {
    /// No clouds at all.
    pub const NONE: Self = Self {
        cover: 0.0,
        wind: Vec2::ZERO,
    };
}

impl Default for Clouds {
    /// Scattered fair-weather clouds drifting east-north-east at about two
    /// blocks a second.
    fn default() -> Self {
        Self {
            cover: 0.5,
            wind: Vec2::new(2.0, -0.7),
        }
    }
}

/// The sun's and moon's shadows on the terrain: cascaded shadow maps, the
/// nearest cascade the sharpest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shadows {
    /// Cascades, 1 to 4; 0 turns shadows off.
    pub cascades: usize,
    /// How far from the camera shadows reach, in blocks (they fade out over
    /// the last fifth; beyond, only the sky map's cover darkens).
    pub distance: f32,
    /// Texels along each cascade's edge (128 to 4096).
    pub resolution: u32,
}

impl Shadows {
    /// No shadow maps: direct light is dimmed only under cover.
    pub const OFF: Self = Self {
        cascades: 0,
        distance: 0.0,
        resolution: 1024,
    };

    /// These settings within their ranges (a non-finite distance becomes
    /// the default's).
    #[must_use]
    pub fn sanitized(self) -> Self {
        let distance = if self.distance.is_finite() {
            self.distance.clamp(8.0, 512.0)
        } else {
            Self::default().distance
        };
        Self {
            cascades: self
                .cascades
                .min(taos_engine::renderer::features::MAX_CASCADES),
            distance,
            resolution: self.resolution.clamp(128, 4096),
        }
    }
}

impl Default for Shadows {
    /// Three cascades of 1024 texels reaching 96 blocks.
    fn default() -> Self {
        Self {
            cascades: 3,
            distance: 96.0,
            resolution: 1024,
        }
    }
}

/// Light shafts from the sun or moon while it is on or near the screen,
/// blocked by terrain and leaves, dimmed by clouds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Godrays {
    /// How bright the shafts are, 0 (none) to 4; they also weaken as the
    /// light leaves the screen and under an overcast sky, and vanish under
    /// water.
    pub strength: f32,
}

impl Godrays {
    /// No light shafts (and no passes for them).
    pub const OFF: Self = Self { strength: 0.0 };
}

impl Default for Godrays {
    fn default() -> Self {
        Self { strength: 0.6 }
    }
}

/// What the pipeline drew in its last frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CraftyRenderStats {
    /// Chunks resident on the GPU.
    pub chunks: usize,
    /// Opaque quads resident on the GPU.
    pub opaque_quads: u64,
    /// Transparent quads resident on the GPU.
    pub transparent_quads: u64,
    /// Instanced draws in the last opaque pass (one per visible chunk).
    pub opaque_draws: usize,
    /// Chunks with transparent quads drawn in the last frame (each is drawn
    /// twice: its opaque texels with the opaque pass, then the rest blended).
    pub transparent_draws: usize,
    /// Chunks skipped by frustum culling in the last frame.
    pub culled_chunks: usize,
    /// Rain drops or snow flakes drawn in the last frame.
    pub weather_particles: u32,
    /// Chunk draws into the shadow cascades in the last frame (a chunk in
    /// two cascades counts twice).
    pub shadow_draws: usize,
    /// Whether light shafts were drawn in the last frame.
    pub godrays: bool,
    /// Living particles (debris, splashes) after the last frame (on the
    /// GPU path, as read back a frame or two earlier).
    pub particles: u32,
    /// Particle emitters the renderer kept in the last frame.
    pub particle_emitters: usize,
    /// Far terrain sections resident on the GPU (counted in `chunks` too).
    pub far_sections: usize,
    /// Bytes of chunk quad buffers on the GPU: resident, and pooled for
    /// reuse.
    pub buffer_bytes: (u64, u64),
}

/// What a queued upload is for (see [`CraftyRenderHandle::take_uploads`]).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Upload {
    /// A world chunk.
    Chunk(ChunkPos),
    /// A section of a far tile.
    Far(LodTile, i32),
}

/// Far terrain changes not yet uploaded.
#[derive(Debug, Default)]
pub(crate) struct FarChanges {
    /// Sections to set (`Some`, with whether to fade in) or remove.
    pub(crate) sections: HashMap<(LodTile, i32), Option<(ChunkMesh, bool)>>,
    /// World chunk columns not to draw (far terrain covers them), when changed.
    pub(crate) hidden: Option<HashSet<IVec2>>,
}

#[derive(Debug)]
pub(crate) struct Shared {
    /// Chunk changes not yet uploaded: `None` removes.
    pub(crate) pending: HashMap<ChunkPos, Option<ChunkMesh>>,
    pub(crate) far: FarChanges,
    pub(crate) sky: SkyLighting,
    pub(crate) highlight: Option<IVec3>,
    pub(crate) fog: Fog,
    pub(crate) weather: WeatherView,
    /// A precipitation map not yet uploaded: origin and texels.
    pub(crate) precipitation: Option<(IVec2, Vec<u8>)>,
    pub(crate) underwater: bool,
    pub(crate) clouds: Clouds,
    pub(crate) shadows: Shadows,
    pub(crate) godrays: Godrays,
    pub(crate) avatars: Avatars,
    pub(crate) stats: CraftyRenderStats,
    /// The block atlas as a particle texture, once a renderer registered it.
    pub(crate) particle_atlas: Option<TextureId>,
}

/// Other players drawn as blocky figures (at most [`MAX_AVATARS`]): each
/// one's feet and heading.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Avatars {
    /// xyz: the feet; w: the heading, radians.
    pub(crate) figures: [[f32; 4]; MAX_AVATARS],
    /// How many of `figures` are drawn.
    pub(crate) count: usize,
}

/// Figures drawn at most (the nearest are given first).
pub const MAX_AVATARS: usize = 16;

/// A cloneable handle through which the game feeds a
/// [`CraftyPipelineFeature`](super::CraftyPipelineFeature) after the feature
/// has moved into the renderer. Every setter is cheap: chunk meshes are
/// queued and uploaded in the feature's next `update`.
#[derive(Debug, Clone)]
pub struct CraftyRenderHandle {
    shared: Arc<Mutex<Shared>>,
}

impl CraftyRenderHandle {
    pub(crate) fn new() -> Self {
        Self {
            shared: Arc::new(Mutex::new(Shared {
                pending: HashMap::new(),
                far: FarChanges::default(),
                sky: sky_lighting(std::f32::consts::FRAC_PI_3, 0.5),
                highlight: None,
                fog: Fog::default(),
                weather: WeatherView::default(),
                precipitation: None,
                underwater: false,
                clouds: Clouds::default(),
                shadows: Shadows::default(),
                godrays: Godrays::default(),
                avatars: Avatars::default(),
                stats: CraftyRenderStats::default(),
                particle_atlas: None,
            })),
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Shared> {
        // A panic elsewhere while holding the lock leaves plain data behind:
        // keep going with it.
        self.shared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Uploads (or replaces) the geometry of chunk `pos`. An empty mesh
    /// removes the chunk.
    pub fn set_chunk(&self, pos: ChunkPos, mesh: &ChunkMesh) {
        let change = (!mesh.is_empty()).then(|| mesh.clone());
        self.lock().pending.insert(pos, change);
    }

    /// Uploads (or replaces) section `section` of far tile `tile`; an
    /// empty mesh removes it. With `fade`, a section new to the GPU fades
    /// in (dithered) over a third of a second.
    pub fn set_far_section(&self, tile: LodTile, section: i32, mesh: &ChunkMesh, fade: bool) {
        let change = (!mesh.is_empty()).then(|| (mesh.clone(), fade));
        self.lock().far.sections.insert((tile, section), change);
    }

    /// Removes section `section` of far tile `tile`.
    pub fn remove_far_section(&self, tile: LodTile, section: i32) {
        self.lock().far.sections.insert((tile, section), None);
    }

    /// The world chunk columns not to draw: far terrain covers them (the
    /// ring the world keeps loaded beyond the near chunks).
    pub fn set_hidden_columns(&self, columns: HashSet<IVec2>) {
        self.lock().far.hidden = Some(columns);
    }

    /// Takes every queued chunk and far section change as a GPU would, and
    /// says what each one holds: its key and the bytes of its quads (`None`:
    /// removed). For benches and tools that run without a GPU (nothing
    /// else drains the queue there).
    #[doc(hidden)]
    pub fn take_uploads(&self) -> Vec<(Upload, Option<usize>)> {
        let quad = std::mem::size_of::<crate::mesh::PackedQuad>();
        let bytes = |mesh: &ChunkMesh| (mesh.opaque.len() + mesh.transparent.len()) * quad;
        let mut shared = self.lock();
        let chunks = std::mem::take(&mut shared.pending);
        let far = std::mem::take(&mut shared.far.sections);
        chunks
            .into_iter()
            .map(|(pos, mesh)| (Upload::Chunk(pos), mesh.as_ref().map(bytes)))
            .chain(far.into_iter().map(|((tile, section), change)| {
                (
                    Upload::Far(tile, section),
                    change.as_ref().map(|(mesh, _)| bytes(mesh)),
                )
            }))
            .collect()
    }

    /// The other players to draw as blocky figures: their feet and heading
    /// (radians). Beyond [`MAX_AVATARS`] the rest are left out, so give the
    /// nearest first; positions that are not finite are skipped. An empty
    /// list draws none.
    pub fn set_avatars(&self, avatars: &[(Vec3, f32)]) {
        let mut list = Avatars::default();
        for &(feet, yaw) in avatars
            .iter()
            .filter(|(feet, yaw)| feet.is_finite() && yaw.is_finite())
            .take(MAX_AVATARS)
        {
            list.figures[list.count] = feet.extend(yaw).to_array();
            list.count += 1;
        }
        self.lock().avatars = list;
    }

    /// Removes chunk `pos` (nothing happens if it is not there).
    pub fn remove_chunk(&self, pos: ChunkPos) {
        self.lock().pending.insert(pos, None);
    }

    /// Sets the sky and the light to draw with, as the game decided them
    /// from game time ([`TimeOfDay::sky`](crate::time_of_day::TimeOfDay::sky),
    /// or [`sky_lighting`] for a chosen moment). The pipeline never decides
    /// the time of day itself.
    pub fn set_sky(&self, sky: SkyLighting) {
        self.lock().sky = sky;
    }

    /// Outlines the block at world position `block`, or nothing.
    pub fn set_highlight(&self, block: Option<IVec3>) {
        self.lock().highlight = block;
    }

    /// Sets the distance fog.
    pub fn set_fog(&self, fog: Fog) {
        self.lock().fog = fog;
    }

    /// Sets what the weather shows this frame: falling rain or snow (as
    /// much as `intensity` says), thicker fog under `overcast`, darker wet
    /// blocks where the sky reaches them. The sky and light are dimmed by
    /// the game ([`weather_sky`](crate::weather::weather_sky)) before
    /// [`set_sky`](Self::set_sky), not here.
    pub fn set_weather(&self, weather: WeatherView) {
        self.lock().weather = weather;
    }

    /// Sets where rain and snow stop (the tops of the columns around the
    /// camera) and which columns are cold; uploaded in the next frame.
    /// Until a map is set, nothing falls and nothing is wet.
    pub fn set_precipitation(&self, map: &PrecipitationMap) {
        self.lock().precipitation = Some((map.origin(), map.texels().to_vec()));
    }

    /// Says whether the camera is under water: the view then fades into a
    /// blue-green murk within a few blocks, and no rain or snow falls.
    pub fn set_underwater(&self, underwater: bool) {
        self.lock().underwater = underwater;
    }

    /// Sets the cloud layer (by default [`Clouds::default`]; rain, snow
    /// and storms thicken whatever is set).
    pub fn set_clouds(&self, clouds: Clouds) {
        self.lock().clouds = clouds;
    }

    /// Sets the sun's and moon's shadows (by default
    /// [`Shadows::default`]; [`Shadows::OFF`] for none).
    pub fn set_shadows(&self, shadows: Shadows) {
        self.lock().shadows = shadows;
    }

    /// Sets the light shafts (by default [`Godrays::default`];
    /// [`Godrays::OFF`] for none).
    pub fn set_godrays(&self, godrays: Godrays) {
        self.lock().godrays = godrays;
    }

    /// The sky last set.
    #[must_use]
    pub fn sky(&self) -> SkyLighting {
        self.lock().sky
    }

    /// What the pipeline drew in the last frame it rendered.
    #[must_use]
    pub fn stats(&self) -> CraftyRenderStats {
        self.lock().stats
    }

    /// The block atlas in the renderer's assets, as a particle texture of
    /// [`ATLAS_COLUMNS`](super::ATLAS_COLUMNS) x [`ATLAS_ROWS`](super::ATLAS_ROWS)
    /// tiles (`None` until [`crafty_preset`](super::crafty_preset) registered it).
    #[must_use]
    pub fn particle_atlas(&self) -> Option<TextureId> {
        self.lock().particle_atlas
    }

    pub(crate) fn set_particle_atlas(&self, atlas: Option<TextureId>) {
        self.lock().particle_atlas = atlas;
    }
}
