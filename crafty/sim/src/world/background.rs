//! [`ChunkGenerator`]: terrain generated on worker threads, so walking into
//! new land never stalls a frame.
//!
//! Generation is pure (seed and position in, chunk out), so a chunk made on
//! a worker is the same chunk [`World::ensure_chunk`](super::World::ensure_chunk)
//! would make; the game inserts it when it arrives with
//! [`World::insert_generated`](super::World::insert_generated), which lays
//! the player's edits over it.
//!
//! A job that panics (a generator bug) is caught on its worker, logged and
//! counted in [`ChunkGenerator::failures`]; the chunk is queued again when it
//! is next asked for, up to [`JOB_ATTEMPTS`](super::JOB_ATTEMPTS) times, then
//! given up on: it stays unloaded, and nothing waits for it.

use std::collections::HashSet;

use super::{Chunk, ChunkPos, JobFailures, Retries, Terrain};
use crate::worker_pool::{Finished, WorkerPool};

/// Generates chunks of one [`Terrain`] in the background.
///
/// Workers are `std::thread`s; on `wasm32`, where there are none,
/// [`request`](Self::request) generates inline (keep its budget small there).
#[derive(Debug)]
pub struct ChunkGenerator {
    terrain: Terrain,
    in_flight: HashSet<ChunkPos>,
    /// Jobs that panicked, and chunks given up on.
    retries: Retries,
    /// Test seam: chunks whose jobs panic.
    panic_on: HashSet<ChunkPos>,
    /// Jobs tagged with their chunk; a job's input says whether to panic.
    workers: WorkerPool<Terrain, ChunkPos, bool, Chunk>,
}

/// One job: `terrain`'s chunk at `pos`, or a panic (the injected one of the
/// test seam, or a generator bug).
fn generate(terrain: &mut Terrain, &pos: &ChunkPos, panic: bool) -> Chunk {
    if panic {
        panic!("a panic injected into the terrain job of chunk {}", pos.0);
    }
    terrain.generate(pos)
}

impl ChunkGenerator {
    /// A generator for `terrain` with one worker per spare core (at least
    /// one, at most four).
    #[must_use]
    pub fn new(terrain: Terrain) -> Self {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Self::with_threads(terrain, cores.saturating_sub(1).clamp(1, 4))
    }

    /// A generator for `terrain` with `threads` workers (ignored on wasm32).
    #[must_use]
    pub fn with_threads(terrain: Terrain, threads: usize) -> Self {
        Self {
            terrain,
            in_flight: HashSet::new(),
            retries: Retries::new("terrain"),
            panic_on: HashSet::new(),
            workers: WorkerPool::new("terrain", threads, terrain, generate),
        }
    }

    /// The terrain it generates.
    #[must_use]
    pub const fn terrain(&self) -> Terrain {
        self.terrain
    }

    /// Queues up to `budget` of `wanted` (nearest first, as the caller
    /// sorted them) that are not already on their way or given up on.
    /// Returns how many were queued.
    pub fn request(&mut self, wanted: &[ChunkPos], budget: usize) -> usize {
        let mut queued = 0;
        for &pos in wanted {
            if queued >= budget {
                break;
            }
            if !self.retries.gave_up(pos) && self.in_flight.insert(pos) {
                self.workers.submit(pos, self.panic_on.contains(&pos));
                queued += 1;
            }
        }
        queued
    }

    /// Chunks generated since the last call.
    pub fn poll(&mut self) -> Vec<(ChunkPos, Chunk)> {
        let finished = self.workers.finished();
        self.take(finished)
    }

    /// Every chunk still on its way, waiting for them (headless tools).
    pub fn wait_all(&mut self) -> Vec<(ChunkPos, Chunk)> {
        let finished = self.workers.wait_all();
        self.take(finished)
    }

    /// The `finished` jobs' chunks: chunks made are handed back; a job that
    /// panicked hands back nothing (its chunk is queued by the next
    /// [`request`](Self::request) that wants it, or given up on).
    fn take(&mut self, finished: Vec<Finished<ChunkPos, Chunk>>) -> Vec<(ChunkPos, Chunk)> {
        let mut out = Vec::new();
        for Finished { tag: pos, outcome } in finished {
            self.in_flight.remove(&pos);
            match outcome {
                Ok(chunk) => {
                    self.retries.succeeded(pos);
                    out.push((pos, chunk));
                }
                Err(message) => {
                    // Retried by a later request, or skipped once given up.
                    self.retries.panicked(pos, &message);
                }
            }
        }
        out
    }

    /// Terrain jobs that panicked (each logged) and the chunks given up on.
    #[must_use]
    pub fn failures(&self) -> JobFailures {
        self.retries.failures()
    }

    /// Whether `pos` was given up on (its job panicked
    /// [`JOB_ATTEMPTS`](super::JOB_ATTEMPTS) times): it is not queued again.
    #[must_use]
    pub fn gave_up(&self, pos: ChunkPos) -> bool {
        self.retries.gave_up(pos)
    }

    /// Test seam: from now on every terrain job for `pos` panics on its
    /// worker, as a bug in generation would.
    #[doc(hidden)]
    pub fn inject_panic(&mut self, pos: ChunkPos) {
        self.panic_on.insert(pos);
    }

    /// Chunks queued and not yet handed back.
    #[must_use]
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::TerrainGenerator;

    #[test]
    fn background_chunks_equal_chunks_made_in_place() {
        let terrain = Terrain::with_generator(8, TerrainGenerator::Biomes);
        let mut generator = ChunkGenerator::with_threads(terrain, 2);
        let wanted: Vec<ChunkPos> = (0..6).map(|i| ChunkPos::new(i, 1 + i % 2, -i)).collect();
        assert_eq!(generator.request(&wanted, 4), 4);
        assert_eq!(
            generator.request(&wanted, 10),
            2,
            "the first four are on their way"
        );
        let mut done = generator.wait_all();
        assert_eq!(generator.in_flight(), 0);
        done.sort_by_key(|(pos, _)| pos.0.to_array());
        assert_eq!(done.len(), 6);
        for (pos, chunk) in done {
            assert_eq!(chunk, terrain.generate(pos), "{pos:?}");
        }
    }
}
