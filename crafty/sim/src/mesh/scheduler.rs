//! Background re-meshing: dirty chunks are snapshotted on the main thread,
//! meshed on worker threads, and handed back a few per frame. A job that
//! panics is caught on its worker and reported back (see
//! [`JOB_ATTEMPTS`](crate::world::JOB_ATTEMPTS)).

use std::collections::{HashMap, HashSet};

use glam::Vec3;

use crate::worker_pool::{Finished, WorkerPool};
use crate::world::{AfterPanic, CHUNK_SIZE, ChunkPos, JobFailures, Retries, World};

use super::input::PendingBorder;
use super::{ChunkMesh, Mesher, PaddedChunk};

/// Which request of which chunk a job meshes.
#[derive(Debug, Clone, Copy)]
struct Ticket {
    pos: ChunkPos,
    generation: u64,
}

/// One chunk snapshot on its way to a worker.
#[derive(Debug)]
struct Job {
    input: PaddedChunk,
    /// The border of neighbours that were not loaded, for the worker to
    /// fill before meshing.
    border: Option<PendingBorder>,
    /// Test seam: the job panics (see [`MeshScheduler::inject_panic`]).
    panic: bool,
}

/// A finished mesh, with its input for reuse.
#[derive(Debug)]
struct Meshed {
    input: PaddedChunk,
    mesh: ChunkMesh,
}

/// A job's result: the mesh, or the message of the panic that stopped it.
type Done = Finished<Ticket, Meshed>;

/// One job on a worker's `mesher`: finishes the snapshot and meshes it.
fn mesh(mesher: &mut Mesher, ticket: &Ticket, job: Job) -> Meshed {
    let Job {
        mut input,
        border,
        panic,
    } = job;
    if panic {
        panic!(
            "a panic injected into the mesh job of chunk {}",
            ticket.pos.0
        );
    }
    input.finish_gather(border);
    let mesh = mesher.mesh_new(&input);
    Meshed { input, mesh }
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
    workers: WorkerPool<Mesher, Ticket, Job, Meshed>,
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
            workers: WorkerPool::new("mesher", threads, Mesher::new(), mesh),
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
            self.workers.submit(
                Ticket { pos, generation },
                Job {
                    input,
                    border,
                    panic: self.panic_on.contains(&pos),
                },
            );
        }
        ready.len()
    }

    /// Hands back up to `budget` finished meshes, nearest to the player
    /// first; stale results are dropped along the way. Does not wait.
    pub fn poll_finished(&mut self, budget: usize) -> Vec<(ChunkPos, ChunkMesh)> {
        let finished = self.workers.finished();
        self.take_finished(budget, finished)
    }

    /// Like [`poll_finished`](Self::poll_finished), but first waits for
    /// every snapshot in flight (tests and headless tools).
    pub fn wait_finished(&mut self, budget: usize) -> Vec<(ChunkPos, ChunkMesh)> {
        let finished = self.workers.wait_all();
        self.take_finished(budget, finished)
    }

    /// Adds `new` results to those not handed out yet, then hands out up to
    /// `budget`, nearest first.
    fn take_finished(&mut self, budget: usize, new: Vec<Done>) -> Vec<(ChunkPos, ChunkMesh)> {
        self.finished.extend(new);
        for done in std::mem::take(&mut self.finished) {
            let Ticket { pos, generation } = done.tag;
            let current = self.generation.get(&pos) == Some(&generation);
            match done.outcome {
                Ok(_) if current => self.finished.push(done),
                Ok(meshed) => {
                    // Re-dirtied (or forgotten) after its snapshot: stale.
                    self.in_flight -= 1;
                    self.spare_inputs.push(meshed.input);
                }
                Err(message) => {
                    self.in_flight -= 1;
                    self.panicked(pos, current, &message);
                }
            }
        }
        let player = self.player;
        // Nearest last, so that popping hands out the nearest first.
        self.finished
            .sort_by(|a, b| distance2(b.tag.pos, player).total_cmp(&distance2(a.tag.pos, player)));
        let mut out = Vec::new();
        while out.len() < budget {
            let Some(done) = self.finished.pop() else {
                break;
            };
            self.in_flight -= 1;
            let pos = done.tag.pos;
            self.generation.remove(&pos);
            self.retries.succeeded(pos);
            if let Ok(meshed) = done.outcome {
                self.spare_inputs.push(meshed.input);
                out.push((pos, meshed.mesh));
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
