//! Headless play: `crafty --headless --world <NAME|new:SEED> [--replay FILE]
//! --ticks N [--screenshot out.png]` simulates deterministically on the
//! manual clock, renders the last frame offscreen, saves, and exits.

use std::path::PathBuf;

use taos_engine::game_loop::{GameLoop, LoopConfig, ManualClock, Recording, RecordingError};
use taos_engine::storage::{RedbBackend, StorageBackend, StorageError, block_on};
use taos_engine::{Engine, EngineConfig, EngineError, Scene};

use crate::cli::{HeadlessArgs, WorldChoice};
use crate::game::{state, state_mut};
use crate::render::{CraftyPipelineFeature, crafty_preset};
use crate::save::{AppendReport, LoadWarning, SaveError, SavedWorld, WorldStore, encode_thumbnail};
use crate::session::Session;
use crate::world::TerrainGenerator;

/// A headless run that could not finish.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HeadlessError {
    /// Headless play is single player.
    #[error("headless play cannot join a server ({address}); join it in the window")]
    Online {
        /// The server asked for.
        address: String,
    },
    /// No saved world has this name or id.
    #[error("no saved world is called {name:?}; saved worlds: {known}")]
    UnknownWorld {
        /// What was asked for.
        name: String,
        /// The names that exist, comma-separated.
        known: String,
    },
    /// The replay file is unreadable or made for another tick rate.
    #[error("replay {path}: {source}")]
    Replay {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        source: RecordingError,
    },
    /// Loading or saving the world failed.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// The storage directory could not be found.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// The engine could not draw the screenshot (no GPU, a failed frame or
    /// read-back).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The screenshot could not be written.
    #[error("cannot write screenshot {path}: {source}")]
    Screenshot {
        /// The file.
        path: PathBuf,
        /// The encoder's error.
        source: image::ImageError,
    },
}

/// What a headless run did.
#[derive(Debug)]
pub struct HeadlessReport {
    /// The world's id.
    pub world_id: String,
    /// The world's name.
    pub world_name: String,
    /// Ticks simulated.
    pub ticks: u64,
    /// Edits in the world's history after the run.
    pub edits: usize,
    /// The game state checksum after the last tick (equal runs, equal sums).
    pub checksum: u64,
    /// What the final save wrote.
    pub saved: AppendReport,
    /// Damage found while loading.
    pub warnings: Vec<LoadWarning>,
}

/// Runs headless against the worlds stored by `backend`.
///
/// # Errors
/// [`HeadlessError`] naming what failed; a world is never left half-saved.
pub fn run_headless<B: StorageBackend>(
    args: &HeadlessArgs,
    backend: &B,
    now_ms: u64,
    mut progress: impl FnMut(u64, u64),
) -> Result<HeadlessReport, HeadlessError> {
    let store = block_on(WorldStore::open(backend))?;
    let (feature, render) = CraftyPipelineFeature::new();
    let clock = ManualClock::new();
    let ((mut session, mut game), warnings) = match &args.world {
        WorldChoice::New(seed) => {
            let record = SavedWorld::create(format!("Seed {seed}"), *seed, args.mode, now_ms)
                .with_generator(TerrainGenerator::LATEST);
            block_on(store.save(&record))?;
            (Session::fresh(record, clock, render), Vec::new())
        }
        WorldChoice::Join { address, .. } => {
            return Err(HeadlessError::Online {
                address: address.clone(),
            });
        }
        WorldChoice::Named(name) => {
            let listing = block_on(store.list())?;
            let Some(found) = listing
                .worlds
                .iter()
                .find(|w| w.name == *name || w.id == *name)
            else {
                let known: Vec<&str> = listing.worlds.iter().map(|w| w.name.as_str()).collect();
                return Err(HeadlessError::UnknownWorld {
                    name: name.clone(),
                    known: if known.is_empty() {
                        "(none)".to_owned()
                    } else {
                        known.join(", ")
                    },
                });
            };
            let loaded = block_on(store.load(&found.id))?;
            let warnings = loaded.warnings.clone();
            (Session::start(loaded, clock, render), warnings)
        }
    };
    if let Some(view) = args.view {
        session.set_view_distance(&mut game, view);
    }
    if let Some(minutes) = args.time {
        let mut state = state_mut(&mut game);
        state.time = state.time.at_clock(minutes);
    }
    if let Some(kind) = args.weather {
        state_mut(&mut game).weather.force(kind);
    }
    if let Some(path) = &args.replay {
        let replay_error = |source| HeadlessError::Replay {
            path: path.clone(),
            source,
        };
        let recording = Recording::load(path).map_err(replay_error)?;
        game.replay(recording).map_err(replay_error)?;
    }
    let report_every = (args.ticks / 10).max(1);
    let start = state(&game).ticks;
    let mut done = 0;
    // A step normally runs one tick; the step that finds the replay finished
    // runs none (the loop pauses), so count ticks, not steps.
    while done < args.ticks {
        game.step();
        let now = state(&game).ticks - start;
        if now != done && (now.is_multiple_of(report_every) || now == args.ticks) {
            progress(now, args.ticks);
        }
        done = now;
    }
    // The world is saved even when the screenshot fails; then the error is reported.
    let shot = match &args.screenshot {
        Some(path) => screenshot(&mut session, &mut game, feature, args.size, path).map(Some),
        None => Ok(None),
    };
    let thumbnail = shot.as_ref().ok().and_then(Option::as_deref);
    let saved = block_on(session.save_now(&game, &store, now_ms, thumbnail))?;
    shot?;
    let checksum = game.state_checksum();
    let played = state(&game);
    Ok(HeadlessReport {
        world_id: session.record().id.clone(),
        world_name: session.record().name.clone(),
        ticks: played.ticks,
        edits: played.world.edits().len(),
        checksum,
        saved,
        warnings,
    })
}

/// Renders the session's current view offscreen, writes it as a PNG, and
/// returns its thumbnail (JPEG).
fn screenshot(
    session: &mut Session,
    game: &mut GameLoop,
    feature: CraftyPipelineFeature,
    size: (u32, u32),
    path: &std::path::Path,
) -> Result<Vec<u8>, HeadlessError> {
    let pixels = render_offscreen(session, game, feature, size)?;
    let image = image::RgbaImage::from_raw(size.0, size.1, pixels)
        .expect("read-back returns width * height RGBA pixels");
    image
        .save(path)
        .map_err(|source| HeadlessError::Screenshot {
            path: path.to_owned(),
            source,
        })?;
    Ok(encode_thumbnail(image.as_raw(), size.0, size.1)?)
}

/// Meshes everything loaded and renders the world's current view, `size`
/// pixels, with a headless [`Engine`] running crafty's pipeline: the
/// engine takes `game` for one frame (no tick) and gives it back. Returns
/// RGBA8 pixels.
///
/// # Errors
/// [`HeadlessError::Engine`]: no adapter, a render failure, or a failed
/// read-back.
pub fn render_offscreen(
    session: &mut Session,
    game: &mut GameLoop,
    feature: CraftyPipelineFeature,
    size: (u32, u32),
) -> Result<Vec<u8>, HeadlessError> {
    session.finish_meshing(game);
    let mut engine = Engine::headless(EngineConfig::new(size.0, size.1), crafty_preset(feature))?;
    let stand_in = GameLoop::new(Scene::new(), LoopConfig::default(), ManualClock::new())
        .expect("the default loop configuration is valid");
    let idle = engine.set_game_loop(std::mem::replace(game, stand_in));
    let pixels = engine.present().and_then(|_| engine.read_pixels());
    *game = engine.set_game_loop(idle);
    Ok(pixels?)
}

/// The redb backend in `dir`, or in the default data directory.
///
/// # Errors
/// [`StorageError::NoDataDirectory`] when there is no default.
pub fn backend(dir: Option<PathBuf>) -> Result<RedbBackend, StorageError> {
    match dir {
        Some(dir) => Ok(RedbBackend::new(dir)),
        None => RedbBackend::from_env(),
    }
}
