//! [`Task`]: work a game starts now and picks up on a later frame, the same
//! way natively and in the browser.
//!
//! Natively, saves and asset reads finish at once, so a task is finished
//! when it is started. In the browser IndexedDB and `fetch` answer through
//! the page's event loop, which must never be blocked: the work runs there
//! and the game asks for its answer each frame. Code written against `Task`
//! runs unchanged on both.
//!
//! ```
//! use taos_engine::Task;
//!
//! let mut task = Task::spawn(async { 6 * 7 });
//! // In a game: `if let Some(answer) = engine.poll(&mut task) { ... }` in `update`.
//! assert_eq!(task.take(), Some(42));
//! assert_eq!(task.take(), None); // an answer is taken once
//! ```

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;

/// How far long work has come: bytes (or items) done of a total that may
/// not be known yet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Done so far.
    pub done: u64,
    /// The whole, when known (a download without `Content-Length` has none).
    pub total: Option<u64>,
}

impl Progress {
    /// `done / total` in `0..=1`, when the total is known (an empty whole is done).
    pub fn fraction(&self) -> Option<f32> {
        self.total.map(|total| {
            if total == 0 {
                1.0
            } else {
                (self.done.min(total) as f64 / total as f64) as f32
            }
        })
    }
}

/// Where running work reports its [`Progress`]; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct ProgressReporter(Rc<Cell<Progress>>);

impl ProgressReporter {
    /// Sets what is done and the whole.
    pub fn set(&self, done: u64, total: Option<u64>) {
        self.0.set(Progress { done, total });
    }

    /// Adds `amount` to what is done.
    pub fn advance(&self, amount: u64) {
        let mut progress = self.0.get();
        progress.done = progress.done.saturating_add(amount);
        self.0.set(progress);
    }

    /// Adds `amount` to the whole (unknown counts as zero).
    pub fn grow_total(&self, amount: u64) {
        let mut progress = self.0.get();
        progress.total = Some(progress.total.unwrap_or(0).saturating_add(amount));
        self.0.set(progress);
    }

    /// What has been reported so far.
    pub fn get(&self) -> Progress {
        self.0.get()
    }
}

/// The answer of work started with [`Task::spawn`], once it is there.
///
/// Poll it from a game's per-frame hook with [`Engine::poll`](crate::Engine::poll)
/// (which also keeps frames coming while it waits), or with
/// [`take`](Self::take). Dropping a task does not cancel its work: a save
/// in flight still commits.
#[must_use = "a task's answer is only seen by polling it"]
pub struct Task<T> {
    answer: Rc<RefCell<Option<T>>>,
    progress: ProgressReporter,
    taken: bool,
}

impl<T> std::fmt::Debug for Task<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Task")
            .field("done", &self.is_done())
            .field("taken", &self.taken)
            .field("progress", &self.progress.get())
            .finish()
    }
}

impl<T: 'static> Task<T> {
    /// Starts `work`: natively it runs to the end here and now; in the
    /// browser it is handed to the page's event loop.
    pub fn spawn(work: impl Future<Output = T> + 'static) -> Self {
        Self::spawn_with_progress(|_| work)
    }

    /// [`spawn`](Self::spawn) for work that reports its progress through
    /// the [`ProgressReporter`] it is given (see [`progress`](Self::progress)).
    pub fn spawn_with_progress<F>(work: impl FnOnce(ProgressReporter) -> F) -> Self
    where
        F: Future<Output = T> + 'static,
    {
        let task = Self {
            answer: Rc::new(RefCell::new(None)),
            progress: ProgressReporter::default(),
            taken: false,
        };
        let future = work(task.progress.clone());
        let answer = Rc::clone(&task.answer);
        #[cfg(not(target_arch = "wasm32"))]
        {
            *answer.borrow_mut() = Some(pollster::block_on(future));
        }
        #[cfg(target_arch = "wasm32")]
        wasm_bindgen_futures::spawn_local(async move {
            let value = future.await;
            *answer.borrow_mut() = Some(value);
        });
        task
    }
}

impl<T> Task<T> {
    /// A task that is already done with `value`.
    pub fn ready(value: T) -> Self {
        Self {
            answer: Rc::new(RefCell::new(Some(value))),
            progress: ProgressReporter::default(),
            taken: false,
        }
    }

    /// Whether the answer has come (taken or not).
    pub fn is_done(&self) -> bool {
        self.taken || self.answer.borrow().is_some()
    }

    /// Whether the answer has been taken already.
    pub fn is_taken(&self) -> bool {
        self.taken
    }

    /// The answer, if it came and was not taken yet (it is given once).
    pub fn take(&mut self) -> Option<T> {
        let value = self.answer.borrow_mut().take();
        if value.is_some() {
            self.taken = true;
        }
        value
    }

    /// How far the work has come, as it reported (zero of unknown for work
    /// that does not report).
    pub fn progress(&self) -> Progress {
        self.progress.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_fractions_clamp_and_handle_unknown_and_empty_totals() {
        let reporter = ProgressReporter::default();
        assert_eq!(reporter.get().fraction(), None);
        reporter.grow_total(200);
        reporter.advance(50);
        assert_eq!(reporter.get().fraction(), Some(0.25));
        reporter.advance(500);
        assert_eq!(reporter.get().fraction(), Some(1.0));
        reporter.set(0, Some(0));
        assert_eq!(reporter.get().fraction(), Some(1.0));
    }

    #[test]
    fn a_task_reports_its_progress_and_gives_its_answer_once() {
        let mut task = Task::spawn_with_progress(|progress| async move {
            progress.set(3, Some(4));
            "done"
        });
        assert!(task.is_done());
        assert_eq!(task.progress().done, 3);
        assert_eq!(task.take(), Some("done"));
        assert!(task.is_taken());
        assert_eq!(task.take(), None);
        assert!(Task::ready(1).is_done());
    }
}
