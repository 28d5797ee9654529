//! Storage work the window starts now and picks up on a later frame: the
//! engine's [`Task`] (done at once natively, answered through the page's
//! event loop in the browser), read through a shared reference.

use std::cell::RefCell;
use std::future::Future;
use std::time::Duration;

use taos_engine::{Engine, Task};

/// How soon to look again while a task runs.
pub(super) const POLL_EVERY: Duration = Duration::from_millis(16);

/// The answer of work started with [`Pending::start`], once it is there.
pub(super) struct Pending<T>(RefCell<Task<T>>);

impl<T: 'static> Pending<T> {
    /// Starts `work`: runs it to the end natively, hands it to the page's
    /// event loop in the browser.
    pub(super) fn start(work: impl Future<Output = T> + 'static) -> Self {
        Self(RefCell::new(Task::spawn(work)))
    }

    /// The answer, if it came (once).
    pub(super) fn take(&self) -> Option<T> {
        self.0.borrow_mut().take()
    }

    /// Asks `engine` for a frame soon, so the answer is picked up even when
    /// nothing else would wake the window.
    pub(super) fn keep_polling(&self, engine: &mut Engine) {
        engine.wake_at(web_time::Instant::now() + POLL_EVERY);
    }
}
