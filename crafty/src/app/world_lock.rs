//! One writer per world: a world is played, renamed or deleted only while
//! this window holds its lock.
//!
//! In the browser every tab of the site shares one IndexedDB, so two tabs
//! on one world would overwrite each other's inventory and position, and a
//! world deleted in one would be recreated by the other's autosave. The
//! lock is the page's Web Locks API (`navigator.locks`), asked for without
//! waiting: a second tab is told the world is open elsewhere. The browser
//! frees a lock when its tab closes or crashes, so a killed tab never
//! leaves a world locked. Natively the embedded database's file lock keeps
//! a second crafty process out of the whole database, so the lock here
//! always succeeds.

/// The world is open in another tab (or window) of this browser.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "this world is open in another tab of this browser; close it there (or leave it for the \
     launcher) and try again"
)]
pub(super) struct WorldInUse;

/// Held while a world is played (or changed); dropping it lets another tab
/// have the world.
pub(super) struct WorldLock {
    #[cfg(target_arch = "wasm32")]
    release: Option<js_sys::Function>,
}

impl std::fmt::Debug for WorldLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldLock").finish_non_exhaustive()
    }
}

/// The lock's name for world `id`.
fn lock_name(id: &str) -> String {
    format!("crafty-world:{id}")
}

/// Takes the lock of world `id` if no other tab holds it.
///
/// # Errors
/// [`WorldInUse`] when another tab holds it.
#[cfg(not(target_arch = "wasm32"))]
#[allow(
    clippy::unused_async,
    reason = "the browser's version awaits the page; both are called alike"
)]
pub(super) async fn lock_world(id: &str) -> Result<WorldLock, WorldInUse> {
    log::debug!("{}: held through the database file's lock", lock_name(id));
    Ok(WorldLock {})
}

#[cfg(target_arch = "wasm32")]
pub(super) use page::lock_world;

#[cfg(target_arch = "wasm32")]
mod page {
    use std::cell::RefCell;
    use std::rc::Rc;

    use js_sys::{Function, Object, Promise, Reflect};
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;

    use super::{WorldInUse, WorldLock, lock_name};

    /// `navigator.locks.request(name, {ifAvailable: true}, grant)`: the
    /// grant callback keeps the lock until the promise it returns resolves,
    /// which [`WorldLock`]'s drop does.
    pub(in crate::app) async fn lock_world(id: &str) -> Result<WorldLock, WorldInUse> {
        match request(&lock_name(id)).await {
            Ok(Some(release)) => Ok(WorldLock {
                release: Some(release),
            }),
            Ok(None) => Err(WorldInUse),
            Err(e) => {
                // No Web Locks (an old browser, an insecure origin): play
                // without the guard rather than not at all.
                log::warn!("world locks are not available ({e:?}); two tabs could share a world");
                Ok(WorldLock { release: None })
            }
        }
    }

    async fn request(name: &str) -> Result<Option<Function>, JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let locks = Reflect::get(&window.navigator(), &"locks".into())?;
        if locks.is_undefined() {
            return Err("navigator.locks is missing".into());
        }
        let request: Function = Reflect::get(&locks, &"request".into())?.dyn_into()?;
        let options = Object::new();
        Reflect::set(&options, &"ifAvailable".into(), &true.into())?;
        // Resolved by the grant callback with the release function, or
        // null when the lock is held elsewhere.
        let decided: Rc<RefCell<Option<Function>>> = Rc::default();
        let decision = Promise::new(&mut |resolve, _| *decided.borrow_mut() = Some(resolve));
        let grant = Closure::once_into_js(move |lock: JsValue| -> Promise {
            let tell = decided.borrow_mut().take();
            if lock.is_null() {
                if let Some(tell) = tell {
                    let _ = tell.call1(&JsValue::NULL, &JsValue::NULL);
                }
                return Promise::resolve(&JsValue::UNDEFINED);
            }
            let mut release = None;
            let held = Promise::new(&mut |resolve, _| release = Some(resolve));
            if let (Some(tell), Some(release)) = (tell, release) {
                let _ = tell.call1(&JsValue::NULL, &release);
            }
            held
        });
        request.call3(&locks, &name.into(), &options, &grant)?;
        let answer = JsFuture::from(decision).await?;
        Ok(answer.dyn_into::<Function>().ok())
    }

    impl Drop for WorldLock {
        fn drop(&mut self) {
            if let Some(release) = self.release.take() {
                let _ = release.call0(&JsValue::NULL);
            }
        }
    }
}
