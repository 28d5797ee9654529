//! [`WorkerPool`]: jobs run on background threads, each panic caught on its
//! worker and handed back as the job's outcome, so a bug in one job never
//! takes a thread (or the game) down with it.
//!
//! Terrain generation ([`ChunkGenerator`](crate::world::ChunkGenerator))
//! and meshing ([`MeshScheduler`](crate::mesh::MeshScheduler)) both run on
//! one. Workers are `std::thread`s; on `wasm32`, where there are none, and
//! natively when no worker could start (or all are gone), a job runs inline
//! in [`submit`](WorkerPool::submit).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A finished job: its tag, and what it made or the message of its panic.
#[derive(Debug)]
pub(crate) struct Finished<T, R> {
    /// What the job was submitted with, to tell the results apart.
    pub(crate) tag: T,
    /// What the job made, or the message of the panic that stopped it.
    pub(crate) outcome: Result<R, String>,
}

/// How a job runs: on a worker's state (scratch space a worker keeps from
/// job to job), with the job's tag and input.
pub(crate) type RunJob<S, T, J, R> = fn(&mut S, &T, J) -> R;

/// Runs jobs of one kind on background threads.
///
/// Each worker starts from a clone of one fresh state, and starts again
/// from one after a job panicked (the panic may have left it half-way).
#[derive(Debug)]
pub(crate) struct WorkerPool<S, T, J, R> {
    /// "terrain" or "mesher", for thread names and the log.
    name: &'static str,
    /// The state each worker starts from.
    fresh: S,
    run: RunJob<S, T, J, R>,
    /// The state of the jobs run on this thread, made on first use.
    inline: Option<S>,
    /// Jobs run inline, not yet handed back.
    ready: Vec<Finished<T, R>>,
    /// Jobs sent to the workers whose results were not received yet.
    waiting: usize,
    /// `None` once dropped, or when no worker started.
    jobs: Option<Sender<(T, J)>>,
    results: Receiver<Finished<T, R>>,
    workers: Vec<JoinHandle<()>>,
}

impl<S, T, J, R> WorkerPool<S, T, J, R>
where
    S: Clone + Send + 'static,
    T: Send + 'static,
    J: Send + 'static,
    R: Send + 'static,
{
    /// A pool of `threads` workers (at least one; none on wasm32) named
    /// `crafty-{name}-{k}`, each running jobs with `run` from a clone of
    /// `fresh`. A worker that cannot start is logged and left out.
    pub(crate) fn new(
        name: &'static str,
        threads: usize,
        fresh: S,
        run: RunJob<S, T, J, R>,
    ) -> Self {
        let threads = if cfg!(target_arch = "wasm32") {
            0
        } else {
            threads.max(1)
        };
        let (job_tx, job_rx) = channel::<(T, J)>();
        let (done_tx, done_rx) = channel();
        let job_rx = Arc::new(Mutex::new(job_rx));
        let workers: Vec<JoinHandle<()>> = (0..threads)
            .filter_map(|k| {
                let job_rx = Arc::clone(&job_rx);
                let done_tx = done_tx.clone();
                let fresh = fresh.clone();
                std::thread::Builder::new()
                    .name(format!("crafty-{name}-{k}"))
                    .spawn(move || work(&job_rx, &done_tx, &fresh, run))
                    .inspect_err(|error| log::error!("no {name} thread: {error}"))
                    .ok()
            })
            .collect();
        Self {
            name,
            fresh,
            run,
            inline: None,
            ready: Vec::new(),
            waiting: 0,
            // With no worker at all, jobs run inline.
            jobs: (!workers.is_empty()).then_some(job_tx),
            results: done_rx,
            workers,
        }
    }

    /// Runs `job` on a worker, or here when there is none.
    pub(crate) fn submit(&mut self, tag: T, job: J) {
        let unsent = match &self.jobs {
            Some(jobs) => jobs.send((tag, job)).err().map(|error| error.0),
            None => Some((tag, job)),
        };
        match unsent {
            None => self.waiting += 1,
            Some((tag, job)) => {
                if !self.workers.is_empty() {
                    // The workers are gone: run it here rather than wait forever.
                    log::error!("no {} thread left; running a job on this thread", self.name);
                }
                let state = self.inline.get_or_insert_with(|| self.fresh.clone());
                let finished = run_caught(state, &self.fresh, self.run, tag, job);
                self.ready.push(finished);
            }
        }
    }

    /// The jobs finished since the last call, without waiting.
    pub(crate) fn finished(&mut self) -> Vec<Finished<T, R>> {
        self.take(0)
    }

    /// Every job submitted and not handed back yet, waiting for those still
    /// running.
    pub(crate) fn wait_all(&mut self) -> Vec<Finished<T, R>> {
        self.take(self.waiting)
    }

    fn take(&mut self, wait_for: usize) -> Vec<Finished<T, R>> {
        let mut out = std::mem::take(&mut self.ready);
        let inline = out.len();
        for _ in 0..wait_for {
            match self.results.recv() {
                Ok(done) => out.push(done),
                Err(_) => break,
            }
        }
        out.extend(self.results.try_iter());
        self.waiting = self.waiting.saturating_sub(out.len() - inline);
        out
    }
}

impl<S, T, J, R> Drop for WorkerPool<S, T, J, R> {
    fn drop(&mut self) {
        self.jobs = None;
        for worker in self.workers.drain(..) {
            if worker.join().is_err() {
                log::error!("a {} thread panicked", self.name);
            }
        }
    }
}

/// One worker: runs jobs until the pool is dropped.
fn work<S: Clone, T, J, R>(
    jobs: &Mutex<Receiver<(T, J)>>,
    done: &Sender<Finished<T, R>>,
    fresh: &S,
    run: RunJob<S, T, J, R>,
) {
    let mut state = fresh.clone();
    loop {
        let job = match jobs.lock() {
            Ok(jobs) => jobs.recv(),
            Err(_) => return,
        };
        let Ok((tag, job)) = job else { return };
        if done
            .send(run_caught(&mut state, fresh, run, tag, job))
            .is_err()
        {
            return;
        }
    }
}

/// Runs one job, catching a panic: then `state` starts again from `fresh`.
fn run_caught<S: Clone, T, J, R>(
    state: &mut S,
    fresh: &S,
    run: RunJob<S, T, J, R>,
    tag: T,
    job: J,
) -> Finished<T, R> {
    let outcome = catch(|| run(state, &tag, job));
    if outcome.is_err() {
        *state = fresh.clone();
    }
    Finished { tag, outcome }
}

/// Runs `job`, catching a panic as its message (the panic hook has already
/// printed it with its location).
fn catch<T>(job: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(job)).map_err(|payload| {
        if let Some(text) = payload.downcast_ref::<&str>() {
            (*text).to_owned()
        } else if let Some(text) = payload.downcast_ref::<String>() {
            text.clone()
        } else {
            "a panic without a message".to_owned()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Doubles its input, counting its jobs; panics on 13.
    fn double(count: &mut u32, _tag: &u8, x: u32) -> u32 {
        *count += 1;
        assert!(x != 13, "unlucky {x}");
        x * 2
    }

    fn sorted(mut done: Vec<Finished<u8, u32>>) -> Vec<(u8, Result<u32, String>)> {
        done.sort_by_key(|f| f.tag);
        done.into_iter().map(|f| (f.tag, f.outcome)).collect()
    }

    #[test]
    fn jobs_come_back_tagged_and_a_panic_comes_back_as_its_message() {
        let mut pool = WorkerPool::new("test", 2, 0, double);
        pool.submit(1, 5);
        pool.submit(2, 13);
        pool.submit(3, 7);
        assert_eq!(
            sorted(pool.wait_all()),
            [(1, Ok(10)), (2, Err("unlucky 13".to_owned())), (3, Ok(14))]
        );
        assert!(pool.finished().is_empty());
        // The workers live on after the panic.
        pool.submit(4, 1);
        assert_eq!(sorted(pool.wait_all()), [(4, Ok(2))]);
    }

    #[test]
    fn a_job_panicking_inline_restarts_the_state() {
        let mut pool = WorkerPool::new("test", 1, 0, double);
        // As if every worker had gone: jobs run inline.
        pool.jobs = None;
        pool.submit(1, 3);
        pool.submit(2, 4);
        assert_eq!(pool.inline, Some(2));
        pool.submit(3, 13);
        assert_eq!(
            pool.inline,
            Some(0),
            "a panic restarts from the fresh state"
        );
        assert_eq!(
            sorted(pool.finished()),
            [(1, Ok(6)), (2, Ok(8)), (3, Err("unlucky 13".to_owned()))]
        );
    }

    #[test]
    fn a_panic_is_caught_with_its_message() {
        assert_eq!(catch(|| 7), Ok(7));
        assert_eq!(
            catch(|| -> u8 { panic!("static") }),
            Err("static".to_owned())
        );
        let n = 3;
        assert_eq!(
            catch(|| -> u8 { panic!("made {n}") }),
            Err("made 3".to_owned())
        );
    }
}
