//! Background re-meshing: dirty chunks are snapshotted on the main thread,
//! meshed on worker threads, and handed back a few per frame. A job that
//! panics is caught on its worker and reported back (see
//! [`JOB_ATTEMPTS`](crate::world::JOB_ATTEMPTS)).

use std::collections::{HashMap, HashSet};

use glam::Vec3;

use crate::world::{AfterPanic, CHUNK_SIZE, ChunkPos, JobFailures, Retries, World, catch};

use super::input::PendingBorder;
use super::{ChunkMesh, Mesher, PaddedChunk};

/// One chunk snapshot on its way to a worker.
#[derive(Debug)]
struct Job {
    pos: ChunkPos,
    generation: u64,
    input: PaddedChunk,
    /// The border of neighbours that were not loaded, for the worker to
    /// fill before meshing.
    border: Option<PendingBorder>,
    /// Test seam: the job panics (see [`MeshScheduler::inject_panic`]).
    panic: bool,
}

impl Job {
    /// Runs the job, catching a panic: then `mesher`, perhaps left half-way,
    /// is replaced, and the result carries the panic's message.
    fn run_caught(self, mesher: &mut Mesher) -> Done {
        let (pos, generation) = (self.pos, self.generation);
        catch(|| self.run(mesher)).unwrap_or_else(|message| {
            *mesher = Mesher::new();
            Done {
                pos,
                generation,
                outcome: Err(message),
            }
        })
    }

    /// Finishes the snapshot and meshes it.
    fn run(self, mesher: &mut Mesher) -> Done {
        let Self {
            pos,
            generation,
            mut input,
            border,
            panic,
        } = self;
        if panic {
            panic!("a panic injected into the mesh job of chunk {}", pos.0);
        }
        input.finish_gather(border);
        let mesh = mesher.mesh_new(&input);
        Done {
            pos,
            generation,
            outcome: Ok(Meshed { input, mesh }),
        }
    }
}

/// A job's result on its way back.
#[derive(Debug)]
struct Done {
    pos: ChunkPos,
    generation: u64,
    /// The mesh, or the message of the panic that stopped the job.
    outcome: Result<Meshed, String>,
}

/// A finished mesh, with its input for reuse.
#[derive(Debug)]
struct Meshed {
    input: PaddedChunk,
    mesh: ChunkMesh,
}

/// Re-meshes chunks off the main thread, a bounded amount per frame.
///
/// The frame loop:
/// 1. [`request`](Self::request) every chunk whose mesh is out of date: the
///    list [`World::set_block`] returns, and newly loaded chunks;
/// 2. [`gather_jobs`](Self::gather_jobs): snapshot up to a budget of dirty
///    chunks, nearest to the player first, and send them to the workers;
/// 3. [`poll_finished`](Self::poll_finished): take up to a budget of finished
///    meshes, nearest first.
///
/// Every request bumps the chunk's generation; a result whose generation is
/// older than the chunk's latest is stale (the chunk changed after it was
/// snapshotted) and is dropped, and the newer request meshes it again.
///
/// A job that panics (a mesher bug) is caught on its worker, logged and
/// counted in [`failures`](Self::failures); its chunk is queued again, up to
/// [`JOB_ATTEMPTS`](crate::world::JOB_ATTEMPTS) times in a row, then given
/// up on (no mesh) until it is requested again. Waiting for every job
/// ([`wait_finished`](Self::wait_finished) until [`is_idle`](Self::is_idle))
/// therefore always ends.
///
/// Workers are `std::thread`s; on `wasm32`, where there are none, meshing
/// happens inline in [`gather_jobs`](Self::gather_jobs).
#[derive(Debug)]
pub struct MeshScheduler {
    /// Latest generation of every chunk with a request not yet delivered.
    generation: HashMap<ChunkPos, u64>,
    /// Requested, not yet snapshotted.
    dirty: Vec<ChunkPos>,
    next_generation: u64,
    /// Finished (or panicked), not yet handed out.
    finished: Vec<Done>,
    /// Inputs back from workers, for the next snapshots.
    spare_inputs: Vec<PaddedChunk>,
    /// Where the player was at the last [`gather_jobs`](Self::gather_jobs).
    player: Vec3,
    in_flight: usize,
    /// Jobs that panicked, and chunks given up on.
    retries: Retries,
    /// Test seam: chunks whose jobs panic.
    panic_on: HashSet<ChunkPos>,
    backend: Backend,
}

#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
struct Backend {
    jobs: Option<std::sync::mpsc::Sender<Job>>,
    results: std::sync::mpsc::Receiver<Done>,
    workers: Vec<std::thread::JoinHandle<()>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Backend {
    fn new(threads: usize) -> Self {
        use std::sync::{Arc, Mutex, mpsc};
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let (done_tx, done_rx) = mpsc::channel::<Done>();
        let job_rx = Arc::new(Mutex::new(job_rx));
        let workers = (0..threads.max(1))
            .map(|k| {
                let job_rx = Arc::clone(&job_rx);
                let done_tx = done_tx.clone();
                std::thread::Builder::new()
                    .name(format!("crafty-mesher-{k}"))
                    .spawn(move || worker(&job_rx, &done_tx))
                    .unwrap_or_else(|error| panic!("cannot start a mesher thread: {error}"))
            })
            .collect();
        Self {
            jobs: Some(job_tx),
            results: done_rx,
            workers,
        }
    }

    fn submit(&mut self, job: Job, finished: &mut Vec<Done>) {
        let unsent = match &self.jobs {
            Some(jobs) => jobs.send(job).err().map(|error| error.0),
            None => Some(job),
        };
        if let Some(job) = unsent {
            // No worker to take it (none could start, or all are gone):
            // mesh it here rather than wait for it forever.
            log::error!(
                "no mesher thread; meshing chunk {} on this thread",
                job.pos.0
            );
            finished.push(job.run_caught(&mut Mesher::new()));
        }
    }

    fn collect(&mut self, finished: &mut Vec<Done>, wait_for: usize) {
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
                log::error!("a mesher thread panicked");
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn worker(
    jobs: &std::sync::Mutex<std::sync::mpsc::Receiver<Job>>,
    done: &std::sync::mpsc::Sender<Done>,
) {
    let mut mesher = Mesher::new();
    loop {
        let job = {
            let Ok(jobs) = jobs.lock() else { return };
            jobs.recv()
        };
        let Ok(job) = job else {
            return;
        };
        if done.send(job.run_caught(&mut mesher)).is_err() {
            return;
        }
    }
}

#[cfg(target_arch = "wasm32")]
#[derive(Debug)]
struct Backend {
    mesher: Mesher,
}

#[cfg(target_arch = "wasm32")]
impl Backend {
    fn new(_threads: usize) -> Self {
        Self {
            mesher: Mesher::new(),
        }
    }

    fn submit(&mut self, job: Job, finished: &mut Vec<Done>) {
        finished.push(job.run_caught(&mut self.mesher));
    }

    fn collect(&mut self, _finished: &mut Vec<Done>, _wait_for: usize) {}
}

impl Default for MeshScheduler {
    fn default() -> Self {
        Self::new()
    }
}

impl MeshScheduler {
    /// A scheduler with one worker per spare core (at least one).
    #[must_use]
    pub fn new() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Self::with_threads(cores.saturating_sub(1).max(1))
    }

    /// A scheduler with `threads` workers (at least one; ignored on wasm32).
    #[must_use]
    pub fn with_threads(threads: usize) -> Self {
        Self {
            generation: HashMap::new(),
            dirty: Vec::new(),
            next_generation: 0,
            finished: Vec::new(),
            spare_inputs: Vec::new(),
            player: Vec3::ZERO,
            in_flight: 0,
            retries: Retries::new("mesh"),
            panic_on: HashSet::new(),
            backend: Backend::new(threads),
        }
    }

    /// Marks `pos` as needing a new mesh. Any result for it already queued
    /// or being meshed becomes stale and is dropped.
    /// A chunk given up on after panics gets fresh attempts.
    pub fn request(&mut self, pos: ChunkPos) {
        self.retries.forget(pos);
        self.next_generation += 1;
        self.generation.insert(pos, self.next_generation);
        if !self.dirty.contains(&pos) {
            self.dirty.push(pos);
        }
    }

    /// [`request`](Self::request) for each of `positions` (e.g. what
    /// [`World::set_block`] returned).
    pub fn request_all(&mut self, positions: impl IntoIterator<Item = ChunkPos>) {
        for pos in positions {
            self.request(pos);
        }
    }

    /// Forgets `pos` (it was unloaded): pending work for it is dropped.
    pub fn forget(&mut self, pos: ChunkPos) {
        self.retries.forget(pos);
        self.generation.remove(&pos);
        self.dirty.retain(|&p| p != pos);
    }

    /// Chunks requested but not yet snapshotted.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.dirty.len()
    }

    /// Snapshots sent to workers whose results have not been collected.
    #[must_use]
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Mesh jobs that panicked (each logged) and the chunks given up on.
    #[must_use]
    pub fn failures(&self) -> JobFailures {
        self.retries.failures()
    }

    /// Test seam: from now on every mesh job for `pos` panics on its
    /// worker, as a bug in the mesher would.
    #[doc(hidden)]
    pub fn inject_panic(&mut self, pos: ChunkPos) {
        self.panic_on.insert(pos);
    }

    /// True when nothing is requested, in flight or waiting to be polled.
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.dirty.is_empty() && self.in_flight == 0 && self.finished.is_empty()
    }

    /// Snapshots up to `budget` dirty chunks, nearest to `player` (a world
    /// position) first, and queues them for meshing. Chunks that are not
    /// loaded wait. Returns how many were queued.
    pub fn gather_jobs(&mut self, world: &World, player: Vec3, budget: usize) -> usize {
        self.player = player;
        let mut ready: Vec<ChunkPos> = Vec::new();
        self.dirty.retain(|&pos| {
            if world.chunk(pos).is_some() {
                ready.push(pos);
                false
            } else {
                true
            }
        });
        if ready.len() > budget {
            ready.sort_by(|a, b| distance2(*a, player).total_cmp(&distance2(*b, player)));
            // Put back what this frame does not take.
            self.dirty.extend(ready.drain(budget..));
        }
        for &pos in &ready {
            let Some(&generation) = self.generation.get(&pos) else {
                continue;
            };
            let mut input = match self.spare_inputs.pop() {
                Some(input) => input,
                None => {
                    PaddedChunk::new(CHUNK_SIZE).unwrap_or_else(|_| unreachable!("32 is in range"))
                }
            };
            // The border of unloaded neighbours is bare terrain, worked out
            // by the worker: noise for every block stalled frames here.
            let border = input.gather_loaded(world, pos);
            self.in_flight += 1;
            self.backend.submit(
                Job {
                    pos,
                    generation,
                    input,
                    border,
                    panic: self.panic_on.contains(&pos),
                },
                &mut self.finished,
            );
        }
        ready.len()
    }

    /// Hands back up to `budget` finished meshes, nearest to the player
    /// first; stale results are dropped along the way. Does not wait.
    pub fn poll_finished(&mut self, budget: usize) -> Vec<(ChunkPos, ChunkMesh)> {
        self.take_finished(budget, 0)
    }

    /// Like [`poll_finished`](Self::poll_finished), but first waits for
    /// every snapshot in flight (tests and headless tools).
    pub fn wait_finished(&mut self, budget: usize) -> Vec<(ChunkPos, ChunkMesh)> {
        let waiting = self.in_flight.saturating_sub(self.finished.len());
        self.take_finished(budget, waiting)
    }

    fn take_finished(&mut self, budget: usize, wait_for: usize) -> Vec<(ChunkPos, ChunkMesh)> {
        self.backend.collect(&mut self.finished, wait_for);
        for done in std::mem::take(&mut self.finished) {
            let current = self.generation.get(&done.pos) == Some(&done.generation);
            match done.outcome {
                Ok(_) if current => self.finished.push(done),
                Ok(meshed) => {
                    // Re-dirtied (or forgotten) after its snapshot: stale.
                    self.in_flight -= 1;
                    self.spare_inputs.push(meshed.input);
                }
                Err(message) => {
                    self.in_flight -= 1;
                    self.panicked(done.pos, current, &message);
                }
            }
        }
        let player = self.player;
        // Nearest last, so that popping hands out the nearest first.
        self.finished
            .sort_by(|a, b| distance2(b.pos, player).total_cmp(&distance2(a.pos, player)));
        let mut out = Vec::new();
        while out.len() < budget {
            let Some(done) = self.finished.pop() else {
                break;
            };
            self.in_flight -= 1;
            self.generation.remove(&done.pos);
            self.retries.succeeded(done.pos);
            if let Ok(meshed) = done.outcome {
                self.spare_inputs.push(meshed.input);
                out.push((done.pos, meshed.mesh));
            }
        }
        out
    }

    /// `pos`'s job panicked: queue it again, or give up on it. A stale job
    /// (the chunk was requested again since) only counts: the newer request
    /// meshes it.
    fn panicked(&mut self, pos: ChunkPos, current: bool, message: &str) {
        if !current {
            self.retries.panicked_stale(pos, message);
            return;
        }
        match self.retries.panicked(pos, message) {
            AfterPanic::Retry => {
                if !self.dirty.contains(&pos) {
                    self.dirty.push(pos);
                }
            }
            AfterPanic::GiveUp => {
                self.generation.remove(&pos);
            }
        }
    }
}

/// Squared distance from `player` to the centre of chunk `pos`.
fn distance2(pos: ChunkPos, player: Vec3) -> f32 {
    let half = CHUNK_SIZE as f32 / 2.0;
    let centre = pos.origin().as_vec3() + Vec3::splat(half);
    centre.distance_squared(player)
}
