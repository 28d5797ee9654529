//! The world around the player, outside the simulation: chunks generated
//! in the background, meshed by the background mesher and handed to the
//! renderer, the precipitation map the weather draws with, and the job
//! failures the HUD reports.

use taos_engine::game_loop::GameLoop;

use crate::game::{Game, state, state_mut};
use crate::weather::{PrecipitationMap, weather_sky};
use crate::world::{ChunkPos, JobFailures};

use super::{FarStats, GENERATION_IN_FLIGHT, MAX_VIEW_DISTANCE, NEAR_CHUNKS, Session};

/// Moves the camera's far plane to `far` blocks (never nearer than
/// [`FAR`](crate::view::FAR)).
fn set_far_plane(game: &mut GameLoop, far: f32) {
    let scene = game.scene_mut();
    let Some(view) = scene
        .world()
        .get_resource::<crate::view::ViewObjects>()
        .copied()
    else {
        return;
    };
    if let Some(mut camera) = scene.get_component_mut::<taos_engine::Camera>(view.player)
        && let taos_engine::Projection::Perspective { far: plane, .. } = &mut camera.projection
    {
        *plane = far.max(crate::view::FAR);
    }
}

impl Session {
    /// Hands dirty chunks to the mesher (at most `jobs` new jobs, nearest
    /// first), uploads at most `uploads` finished meshes, drops meshes of
    /// unloaded chunks, and passes the sky and weather of this moment of game
    /// time and the highlight to the renderer.
    pub fn sync_render(&mut self, game: &mut GameLoop, jobs: usize, uploads: usize) {
        self.generate(game, GENERATION_IN_FLIGHT, false);
        let (dirty, unloaded) = {
            let mut game = state_mut(game);
            (game.take_dirty(), game.take_unloaded())
        };
        for pos in unloaded {
            self.meshes.forget(pos);
            self.render.remove_chunk(pos);
            self.far.note_unloaded(pos);
        }
        // Only chunks under the precipitation map (two chunks around the
        // player) change where rain stops.
        let (near, _) = ChunkPos::of_block(state(game).player.body.position.floor().as_ivec3());
        let world_changed = dirty.iter().any(|pos| {
            let d = pos.0 - near.0;
            d.x.abs() <= 2 && d.z.abs() <= 2
        });
        self.meshes.request_all(dirty);
        self.sync_view(state(game), jobs, uploads, world_changed);
        self.particles.update(game, self.render.particle_atlas());
    }

    /// The part of [`sync_render`](Self::sync_render) that reads the game:
    /// precipitation, mesh jobs and uploads, sky, weather, highlight.
    fn sync_view(&mut self, game: &Game, jobs: usize, uploads: usize, world_changed: bool) {
        self.refresh_precipitation(game, world_changed);
        self.meshes
            .gather_jobs(&game.world, game.player.body.position, jobs);
        for (pos, mesh) in self.meshes.poll_finished(uploads) {
            self.render.set_chunk(pos, &mesh);
            self.far.note_meshed(pos);
        }
        self.far.update(game, &self.render, uploads == usize::MAX);
        let weather = game.weather.view();
        self.render.set_sky(weather_sky(game.time.sky(), &weather));
        self.render.set_weather(weather);
        self.render.set_highlight(game.target.map(|hit| hit.block));
        self.render.set_underwater(game.eye_under_water());
    }

    /// Rebuilds the map of where rain stops when the player has walked away
    /// from its centre, blocks changed, or chunks loaded.
    pub(super) fn refresh_precipitation(&mut self, game: &Game, world_changed: bool) {
        let center = game.player.body.position.floor().as_ivec3();
        let edits = game.world.edits().len();
        let stale = self.precipitation.as_ref().is_none_or(|map| {
            world_changed || edits != self.precipitation_edits || map.is_stale_for(center)
        });
        if stale {
            let map = PrecipitationMap::around(&game.world, center);
            self.render.set_precipitation(&map);
            self.precipitation = Some(map);
            self.precipitation_edits = edits;
        }
    }

    /// Queues the chunks the view still lacks on the background generator
    /// (keeping at most `in_flight` there) and loads those it finished;
    /// with `wait`, until none is missing.
    pub(super) fn generate(&mut self, game: &mut GameLoop, in_flight: usize, wait: bool) {
        loop {
            let wanted = state(game).chunks_wanted();
            let room = in_flight.saturating_sub(self.terrain.in_flight());
            self.terrain.request(&wanted, room);
            let done = if wait {
                self.terrain.wait_all()
            } else {
                self.terrain.poll()
            };
            if !done.is_empty() {
                let mut game = state_mut(game);
                for (pos, chunk) in done {
                    game.accept_generated(pos, chunk);
                }
            }
            // Chunks given up on (their job kept panicking) are not waited for.
            let waiting = self.terrain.in_flight() > 0
                || state(game)
                    .chunks_wanted()
                    .iter()
                    .any(|&pos| !self.terrain.gave_up(pos));
            if !wait || !waiting {
                break;
            }
        }
    }

    /// Chunks of the view loaded, and all the view holds (what a loading
    /// screen shows).
    #[must_use]
    pub fn generation_progress(&self, game: &GameLoop) -> (usize, usize) {
        let game = state(game);
        let side = (2 * game.view_radius + 1) as usize;
        let total = side * side * crate::world::WORLD_CHUNKS_Y as usize;
        (total.saturating_sub(game.chunks_wanted().len()), total)
    }

    /// Meshes waiting or being made.
    #[must_use]
    pub fn meshes_pending(&self) -> usize {
        self.meshes.pending()
    }

    /// Mesh jobs that panicked (each logged) and the chunks left without a
    /// mesh, for the HUD.
    #[must_use]
    pub fn mesh_failures(&self) -> JobFailures {
        self.meshes.failures()
    }

    /// Terrain jobs that panicked (each logged) and the chunks left
    /// unloaded, for the HUD.
    #[must_use]
    pub fn terrain_failures(&self) -> JobFailures {
        self.terrain.failures()
    }

    /// Test seam: every mesh job for `pos` panics from now on.
    #[doc(hidden)]
    pub fn inject_mesh_panic(&mut self, pos: ChunkPos) {
        self.meshes.inject_panic(pos);
    }

    /// Test seam: every background terrain job for `pos` panics from now on.
    #[doc(hidden)]
    pub fn inject_terrain_panic(&mut self, pos: ChunkPos) {
        self.terrain.inject_panic(pos);
    }

    /// Generates and meshes every chunk still waiting, blocking until all
    /// are uploaded (headless runs and screenshots).
    pub fn finish_meshing(&mut self, game: &mut GameLoop) {
        self.generate(game, usize::MAX, true);
        loop {
            self.sync_render(game, usize::MAX, usize::MAX);
            if self.meshes.is_idle() {
                break;
            }
            let game = state(game);
            self.meshes
                .gather_jobs(&game.world, game.player.body.position, usize::MAX);
            for (pos, mesh) in self.meshes.wait_finished(usize::MAX) {
                self.render.set_chunk(pos, &mesh);
                self.far.note_meshed(pos);
            }
        }
        // The far view around the meshed near chunks, all of it.
        self.far.update(state(game), &self.render, true);
    }

    /// Sets how far the view reaches, in chunks (2 to [`MAX_VIEW_DISTANCE`]):
    /// the near chunks are loaded out to [`NEAR_CHUNKS`] (or the distance,
    /// if shorter), level-of-detail terrain is drawn beyond, and the fog
    /// and the camera's far plane follow.
    pub fn set_view_distance(&mut self, game: &mut GameLoop, distance: i32) {
        let distance = distance.clamp(*crate::game::VIEW_RADII.start(), MAX_VIEW_DISTANCE);
        let near = distance.min(NEAR_CHUNKS);
        state_mut(game).set_view_radius(near);
        self.far.set_distances(distance, near);
        self.render
            .set_fog(crate::render::Fog::for_view_radius(distance));
        set_far_plane(game, crate::lod::view_blocks(distance) * 1.5);
    }

    /// What the far view holds now.
    #[must_use]
    pub fn far_stats(&self) -> FarStats {
        self.far.stats()
    }

    /// Whether the whole view is drawn: every near chunk generated and
    /// meshed, and every far tile the view wants resident.
    #[must_use]
    pub fn horizon_complete(&self, game: &GameLoop) -> bool {
        let far = self.far.stats();
        state(game).chunks_wanted().is_empty()
            && self.terrain.in_flight() == 0
            && self.meshes.is_idle()
            && far.ready == far.planned
    }

    /// Drops this world's chunks from the renderer (leaving the world).
    pub fn clear_render(&mut self, game: &GameLoop) {
        for pos in state(game).world.loaded_chunks() {
            self.meshes.forget(pos);
            self.render.remove_chunk(pos);
            self.far.note_unloaded(pos);
        }
        self.far.clear(&self.render);
    }
}
