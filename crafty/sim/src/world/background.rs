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

use super::{Chunk, ChunkPos, JobFailures, Retries, Terrain, catch};

/// A job's result: the chunk, or the message of the panic that stopped it.
type Generated = (ChunkPos, Result<Chunk, String>);

/// Generates chunks of one [`Terrain`] in the background.
///
/// Workers are `std::thread`s; on `wasm32`, where there are none,
/// [`request`](Self::request) generates inline (keep its budget small there).
#[derive(Debug)]
pub struct ChunkGenerator {
    terrain: Terrain,
    in_flight: HashSet<ChunkPos>,
    finished: Vec<Generated>,
    /// Jobs that panicked, and chunks given up on.
    retries: Retries,
    /// Test seam: chunks whose jobs panic.
    panic_on: HashSet<ChunkPos>,
    backend: Backend,
}

#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
struct Backend {
    jobs: Option<std::sync::mpsc::Sender<(ChunkPos, bool)>>,
    results: std::sync::mpsc::Receiver<Generated>,
    workers: Vec<std::thread::JoinHandle<()>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Backend {
    fn new(terrain: Terrain, threads: usize) -> Self {
        use std::sync::{Arc, Mutex, mpsc};
        let (job_tx, job_rx) = mpsc::channel::<(ChunkPos, bool)>();
        let (done_tx, done_rx) = mpsc::channel();
        let job_rx = Arc::new(Mutex::new(job_rx));
        let workers = (0..threads.max(1))
            .filter_map(|k| {
                let job_rx = Arc::clone(&job_rx);
                let done_tx = done_tx.clone();
                std::thread::Builder::new()
                    .name(format!("crafty-terrain-{k}"))
                    .spawn(move || {
                        loop {
                            let job = match job_rx.lock() {
                                Ok(jobs) => jobs.recv(),
                                Err(_) => return,
                            };
                            let Ok((pos, panic)) = job else { return };
                            if done_tx.send((pos, generate(&terrain, pos, panic))).is_err() {
                                return;
                            }
                        }
                    })
                    .inspect_err(|error| log::error!("no terrain thread: {error}"))
                    .ok()
            })
            .collect::<Vec<_>>();
        Self {
            // With no worker at all, jobs are made inline.
            jobs: (!workers.is_empty()).then_some(job_tx),
            results: done_rx,
            workers,
        }
    }

    fn submit(
        &mut self,
        terrain: &Terrain,
        (pos, panic): (ChunkPos, bool),
        finished: &mut Vec<Generated>,
    ) {
        match &self.jobs {
            Some(jobs) if jobs.send((pos, panic)).is_ok() => {}
            _ => finished.push((pos, generate(terrain, pos, panic))),
        }
    }

    fn collect(&mut self, finished: &mut Vec<Generated>, wait_for: usize) {
        for _ in 0..wait_for {
            match self.results.recv() {
                Ok(done) => finished.push(done),
                Err(_) => break,
            }
        }
        finished.extend(self.results.try_iter());
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for Backend {
    fn drop(&mut self) {
        self.jobs = None;
        for worker in self.workers.drain(..) {
            if worker.join().is_err() {
                log::error!("a terrain thread panicked");
            }
        }
    }
}

#[cfg(target_arch = "wasm32")]
#[derive(Debug)]
struct Backend;

#[cfg(target_arch = "wasm32")]
impl Backend {
    fn new(_terrain: Terrain, _threads: usize) -> Self {
        Self
    }

    fn submit(
        &mut self,
        terrain: &Terrain,
        (pos, panic): (ChunkPos, bool),
        finished: &mut Vec<Generated>,
    ) {
        finished.push((pos, generate(terrain, pos, panic)));
    }

    fn collect(&mut self, _finished: &mut Vec<Generated>, _wait_for: usize) {}
}

/// One job: `terrain`'s chunk at `pos`, or the message of its panic (the
/// injected one of the test seam, or a generator bug).
fn generate(terrain: &Terrain, pos: ChunkPos, panic: bool) -> Result<Chunk, String> {
    catch(|| {
        if panic {
            panic!("a panic injected into the terrain job of chunk {}", pos.0);
        }
        terrain.generate(pos)
    })
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
            finished: Vec::new(),
            retries: Retries::new("terrain"),
            panic_on: HashSet::new(),
            backend: Backend::new(terrain, threads),
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
                let job = (pos, self.panic_on.contains(&pos));
                self.backend.submit(&self.terrain, job, &mut self.finished);
                queued += 1;
            }
        }
        queued
    }

    /// Chunks generated since the last call.
    pub fn poll(&mut self) -> Vec<(ChunkPos, Chunk)> {
        self.take(0)
    }

    /// Every chunk still on its way, waiting for them (headless tools).
    pub fn wait_all(&mut self) -> Vec<(ChunkPos, Chunk)> {
        let waiting = self.in_flight.len().saturating_sub(self.finished.len());
        self.take(waiting)
    }

    /// The results in, after waiting for `wait_for` more: chunks made are
    /// handed back; a job that panicked hands back nothing (its chunk is
    /// queued by the next [`request`](Self::request) that wants it, or given
    /// up on).
    fn take(&mut self, wait_for: usize) -> Vec<(ChunkPos, Chunk)> {
        self.backend.collect(&mut self.finished, wait_for);
        let mut out = Vec::new();
        for (pos, outcome) in std::mem::take(&mut self.finished) {
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
