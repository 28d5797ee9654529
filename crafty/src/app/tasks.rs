//! Storage work the window starts now and picks up on a later frame.
//!
//! Natively the embedded database answers at once, so a task is finished
//! when it is started. In the browser IndexedDB answers through the page's
//! event loop, which must never be blocked: the work runs there and the
//! app polls for its answer each frame (asking for frames while waiting).

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;

use taos_engine::Engine;

/// How soon to look again while a task runs.
pub(super) const POLL_EVERY: Duration = Duration::from_millis(16);

/// The answer of work started with [`Pending::start`], once it is there.
pub(super) struct Pending<T>(Rc<RefCell<Option<T>>>);

impl<T: 'static> Pending<T> {
    /// Starts `work`: runs it to the end natively, hands it to the page's
    /// event loop in the browser.
    pub(super) fn start(work: impl Future<Output = T> + 'static) -> Self {
        let slot = Rc::new(RefCell::new(None));
        #[cfg(not(target_arch = "wasm32"))]
        {
            *slot.borrow_mut() = Some(taos_engine::storage::block_on(work));
        }
        #[cfg(target_arch = "wasm32")]
        {
            let answer = slot.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let value = work.await;
                *answer.borrow_mut() = Some(value);
            });
        }
        Self(slot)
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
