//! [`LodBuilder`]: level-of-detail tiles built on worker threads.

use std::collections::{HashMap, HashSet};

use super::{LodMesh, LodTile, build_tile};
use crate::mesh::Mesher;
use crate::worker_pool::{Finished, WorkerPool};
use crate::world::{BlockEdit, ColumnSampler, JOB_ATTEMPTS, Terrain};

/// A worker's state: the terrain's noise (made on its first job) and a
/// mesher's scratch space.
struct LodWorker {
    terrain: Terrain,
    sampler: Option<ColumnSampler>,
    mesher: Mesher,
}

impl Clone for LodWorker {
    fn clone(&self) -> Self {
        Self {
            terrain: self.terrain,
            sampler: None,
            mesher: Mesher::new(),
        }
    }
}

impl std::fmt::Debug for LodWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LodWorker")
            .field("terrain", &self.terrain)
            .finish_non_exhaustive()
    }
}

/// One job: the tile's edits, and the version of the world they were read at.
type Job = (Vec<BlockEdit>, u64);

fn run(worker: &mut LodWorker, &tile: &LodTile, (edits, version): Job) -> (u64, LodMesh) {
    let LodWorker {
        terrain,
        sampler,
        mesher,
    } = worker;
    let sampler = sampler.get_or_insert_with(|| ColumnSampler::new(*terrain));
    (version, build_tile(sampler, tile, &edits, mesher))
}

/// Builds the tiles of one [`Terrain`] in the background, each with the
/// edits it is handed.
///
/// Workers are `std::thread`s; on `wasm32`, where there are none,
/// [`request`](Self::request) builds inline (keep its budget small there).
/// A job that panics is logged and retried when asked for again, up to
/// [`JOB_ATTEMPTS`](crate::world::JOB_ATTEMPTS) times in a row.
#[derive(Debug)]
pub struct LodBuilder {
    terrain: Terrain,
    /// Tiles on their way, with the version they were asked at.
    in_flight: HashMap<LodTile, u64>,
    /// Panics in a row per tile, and tiles given up on.
    attempts: HashMap<LodTile, u32>,
    given_up: HashSet<LodTile>,
    panics: u64,
    workers: WorkerPool<LodWorker, LodTile, Job, (u64, LodMesh)>,
}

impl LodBuilder {
    /// A builder for `terrain` with `threads` workers (ignored on wasm32).
    #[must_use]
    pub fn new(terrain: Terrain, threads: usize) -> Self {
        let fresh = LodWorker {
            terrain,
            sampler: None,
            mesher: Mesher::new(),
        };
        Self {
            terrain,
            in_flight: HashMap::new(),
            attempts: HashMap::new(),
            given_up: HashSet::new(),
            panics: 0,
            workers: WorkerPool::new("lod", threads, fresh, run),
        }
    }

    /// The terrain it builds.
    #[must_use]
    pub const fn terrain(&self) -> Terrain {
        self.terrain
    }

    /// Queues `tile` with `edits` (the world's edited blocks in its
    /// columns, from [`World::edited_in_columns`](crate::world::World::edited_in_columns))
    /// read at `version`, unless it is on its way or was given up on.
    /// Returns whether it was queued.
    pub fn request(&mut self, tile: LodTile, edits: Vec<BlockEdit>, version: u64) -> bool {
        if self.given_up.contains(&tile) || self.in_flight.contains_key(&tile) {
            return false;
        }
        self.in_flight.insert(tile, version);
        self.workers.submit(tile, (edits, version));
        true
    }

    /// Whether `tile` is on its way.
    #[must_use]
    pub fn is_building(&self, tile: LodTile) -> bool {
        self.in_flight.contains_key(&tile)
    }

    /// Tiles built since the last call, with the versions they were asked at.
    pub fn poll(&mut self) -> Vec<(u64, LodMesh)> {
        let finished = self.workers.finished();
        self.take(finished)
    }

    /// Every tile still on its way, waiting for them (headless runs).
    pub fn wait_all(&mut self) -> Vec<(u64, LodMesh)> {
        let finished = self.workers.wait_all();
        self.take(finished)
    }

    fn take(&mut self, finished: Vec<Finished<LodTile, (u64, LodMesh)>>) -> Vec<(u64, LodMesh)> {
        let mut out = Vec::with_capacity(finished.len());
        for Finished { tag, outcome } in finished {
            self.in_flight.remove(&tag);
            match outcome {
                Ok(done) => {
                    self.attempts.remove(&tag);
                    out.push(done);
                }
                Err(message) => self.panicked(tag, &message),
            }
        }
        out
    }

    /// Tiles queued and not handed back yet.
    #[must_use]
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    fn panicked(&mut self, tile: LodTile, message: &str) {
        self.panics += 1;
        let tries = self.attempts.entry(tile).or_insert(0);
        *tries += 1;
        if *tries < JOB_ATTEMPTS {
            log::error!("the far terrain job for {tile:?} panicked ({message}); trying again");
        } else {
            log::error!("the far terrain job for {tile:?} panicked ({message}); giving up on it");
            self.attempts.remove(&tile);
            self.given_up.insert(tile);
        }
    }

    /// Jobs that panicked (each logged), and tiles given up on after
    /// [`JOB_ATTEMPTS`] panics in a row (the far view has a hole there).
    #[must_use]
    pub fn failures(&self) -> (u64, usize) {
        (self.panics, self.given_up.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::TerrainGenerator;

    #[test]
    fn background_tiles_equal_tiles_built_in_place() {
        let terrain = Terrain::with_generator(42, TerrainGenerator::Biomes);
        let mut builder = LodBuilder::new(terrain, 2);
        let tiles: Vec<LodTile> = (0..3)
            .map(|i| LodTile {
                level: i as u8,
                x: i,
                z: -i,
            })
            .collect();
        for &tile in &tiles {
            assert!(builder.request(tile, Vec::new(), 7));
        }
        assert!(!builder.request(tiles[0], Vec::new(), 8), "on its way");
        let done = builder.wait_all();
        assert_eq!(done.len(), 3);
        assert_eq!(builder.in_flight(), 0);
        let sampler = ColumnSampler::new(terrain);
        for (version, mesh) in done {
            assert_eq!(version, 7);
            let here = build_tile(&sampler, mesh.tile, &[], &mut Mesher::new());
            assert_eq!(mesh, here);
        }
    }
}
