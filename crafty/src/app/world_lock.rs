//! One writer per world: a world is played, renamed or deleted only while
//! this window holds its lock.
//!
//! In the browser every tab of the site shares one IndexedDB, so two tabs
//! on one world would overwrite each other's inventory and position, and a
//! world deleted in one would be recreated by the other's autosave. The
//! lock is the page's Web Locks API (`navigator.locks`), waited for at most
//! 3 s (a page reloading the world frees it as it unloads): a second tab is
//! told the world is open elsewhere. The browser
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

    /// `navigator.locks.request(name, {signal: AbortSignal.timeout(..)},
    /// grant)`: the grant callback keeps the lock until the promise it
    /// returns resolves, which [`WorldLock`]'s drop does.
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

    /// How long to wait for a lock another page holds: a page that
    /// reloads the world in the same tab frees it as it unloads, a moment
    /// after the new page asks.
    const WAIT_MS: u32 = 3_000;

    async fn request(name: &str) -> Result<Option<Function>, JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let locks = Reflect::get(&window.navigator(), &"locks".into())?;
        if locks.is_undefined() {
            return Err("navigator.locks is missing".into());
        }
        let request: Function = Reflect::get(&locks, &"request".into())?.dyn_into()?;
        let options = Object::new();
        match timeout_signal(&window) {
            Some(signal) => Reflect::set(&options, &"signal".into(), &signal)?,
            // No AbortSignal.timeout: only take a free lock.
            None => Reflect::set(&options, &"ifAvailable".into(), &true.into())?,
        };
        // Resolved once with the release function when the lock is granted,
        // or with null when it is held elsewhere (or the wait timed out).
        let tell: Rc<RefCell<Option<Function>>> = Rc::default();
        let decision = Promise::new(&mut |resolve, _| *tell.borrow_mut() = Some(resolve));
        let granted = tell.clone();
        let grant = Closure::once_into_js(move |lock: JsValue| -> Promise {
            let tell = granted.borrow_mut().take();
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
        let refused = Closure::once_into_js(move |_error: JsValue| {
            if let Some(tell) = tell.borrow_mut().take() {
                let _ = tell.call1(&JsValue::NULL, &JsValue::NULL);
            }
        });
        let asked = request.call3(&locks, &name.into(), &options, &grant)?;
        let catch: Function = Reflect::get(&asked, &"catch".into())?.dyn_into()?;
        catch.call1(&asked, &refused)?;
        let answer = JsFuture::from(decision).await?;
        Ok(answer.dyn_into::<Function>().ok())
    }

    /// `AbortSignal.timeout(WAIT_MS)`, where the browser has it.
    fn timeout_signal(window: &web_sys::Window) -> Option<JsValue> {
        let class = Reflect::get(window, &"AbortSignal".into()).ok()?;
        let timeout: Function = Reflect::get(&class, &"timeout".into())
            .ok()?
            .dyn_into()
            .ok()?;
        timeout.call1(&class, &WAIT_MS.into()).ok()
    }

    impl Drop for WorldLock {
        fn drop(&mut self) {
            if let Some(release) = self.release.take() {
                let _ = release.call0(&JsValue::NULL);
            }
        }
    }
}
