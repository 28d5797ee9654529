//! In the browser: the asset paths `taos web serve --watch` pushes to the
//! page, which its glue dispatches as `taos-asset-changed` events.

use std::sync::{Arc, Mutex};

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// The event the page's glue dispatches on `window`, its `detail` the
/// changed file's path relative to the asset folder.
pub(crate) const EVENT: &str = "taos-asset-changed";

/// The paths the page reported, waiting for the next frame.
#[derive(Debug, Clone, Default)]
pub struct PageChanges {
    queue: Arc<Mutex<Vec<String>>>,
}

impl PageChanges {
    /// Listens on `window` for [`EVENT`] (for the rest of the page's life).
    #[must_use]
    pub fn listen() -> Self {
        let changes = Self::default();
        let sink = Arc::clone(&changes.queue);
        let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            let detail = js_sys::Reflect::get(&event, &"detail".into())
                .ok()
                .and_then(|detail| detail.as_string());
            if let (Some(path), Ok(mut queue)) = (detail, sink.lock()) {
                queue.push(path);
            }
        });
        if let Some(window) = web_sys::window() {
            let _ =
                window.add_event_listener_with_callback(EVENT, listener.as_ref().unchecked_ref());
        }
        // The page keeps the listener for its whole life.
        listener.forget();
        changes
    }

    /// The paths reported since the last call.
    #[must_use]
    pub fn take(&self) -> Vec<String> {
        self.queue
            .lock()
            .map(|mut queue| std::mem::take(&mut *queue))
            .unwrap_or_default()
    }
}
