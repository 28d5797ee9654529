//! crafty in a web page (wasm32 only): the entry point, the page's address
//! as the command line, IndexedDB as the save store, persistent storage
//! asked for, and a status line the page (and its tests) can read.

use serde::Serialize;
use taos_engine::show_page_error as show_problem;
use taos_engine::storage::IndexedDbBackend;
use wasm_bindgen::JsCast;

use super::{AppError, WorldStore, chunk_storage, run_with};
use crate::chunk_cache::ChunkStore;
use crate::settings::PlayerSettings;

/// The id of the page element that carries [`PageStatus`] as JSON.
pub(super) const STATUS_ELEMENT: &str = "crafty-status";

/// Runs crafty in the page: opens the saved worlds in IndexedDB, asks the
/// browser to keep them (`navigator.storage.persist()`), then starts the
/// window loop on a canvas appended to the page. `?world=NAME` or
/// `?world=new:SEED` in the address goes straight into a world, and
/// `?world=join:NAME@HOST:PORT` joins a server (over the page's
/// WebSocket), like `--world` natively; `?backend=webgl2|webgpu` forces a GPU API;
/// `?script=...` plays an input script (see [`crate::script`]) in that
/// world before the player takes over, like `--script` natively.
///
/// Returns once the loop runs (the page keeps it going).
///
/// # Errors
/// IndexedDB cannot be opened (private browsing in some browsers, storage
/// blocked for the site), or the loop could not start. The message is
/// also shown in the page.
pub async fn run_in_page() -> Result<(), AppError> {
    taos_engine::init_logging();
    let store = match WorldStore::open(&IndexedDbBackend::new()).await {
        Ok(store) => store,
        Err(e) => {
            show_problem(&format!(
                "crafty cannot open its saved worlds in this browser: {e}\n\
                 Private browsing, or storage blocked for this site, prevents saving. \
                 Nothing was changed."
            ));
            return Err(e.into());
        }
    };
    ask_to_persist().await;
    let settings = PlayerSettings::load(&store).await.map(with_query_overrides);
    let script = query_value("script").and_then(|text| {
        crate::script::compile(&text, 0)
            .inspect_err(|e| show_problem(&format!("the page's ?script= is not played: {e}")))
            .ok()
    });
    let chunks = chunk_storage(ChunkStore::open(&IndexedDbBackend::new()).await);
    run_with(
        store,
        settings,
        chunks,
        query_value("world"),
        script,
        now_ms,
    )
    .inspect_err(|e| {
        show_problem(&e.to_string());
    })
}

/// The settings with what the page's address overrides for this visit
/// (not saved): `shadows=off|low|medium|high`, `shafts=on|off`, `view=N`
/// (chunks, 2 to 16). For slow GPUs and software rendering, where the
/// settings screen is a long way off at a frame every few seconds.
fn with_query_overrides(mut settings: PlayerSettings) -> PlayerSettings {
    use crate::settings::ShadowQuality;
    let own = &mut settings.settings;
    match query_value("shadows").as_deref() {
        Some("off") => own.shadows = ShadowQuality::Off,
        Some("low") => own.shadows = ShadowQuality::Low,
        Some("medium") => own.shadows = ShadowQuality::Medium,
        Some("high") => own.shadows = ShadowQuality::High,
        _ => {}
    }
    match query_value("shafts").as_deref() {
        Some("off") => own.light_shafts = false,
        Some("on") => own.light_shafts = true,
        _ => {}
    }
    if let Some(view) = query_value("view").and_then(|v| v.parse().ok()) {
        own.view_distance = view;
    }
    settings.settings = own.clone().sanitized();
    settings
}

/// Milliseconds since the Unix epoch, from the page's clock.
fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// The value of `key` in the page address's query string, decoded.
fn query_value(key: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| js_sys::decode_uri_component(v).ok())
        .map(String::from)
}

/// Asks the browser not to evict the saved worlds under storage pressure.
/// A refusal is logged, not an error: saves still work until evicted.
async fn ask_to_persist() {
    let Some(storage) = web_sys::window().map(|w| w.navigator().storage()) else {
        return;
    };
    let Ok(promise) = storage.persist() else {
        log::warn!("this browser cannot make storage persistent");
        return;
    };
    match wasm_bindgen_futures::JsFuture::from(promise).await {
        Ok(granted) if granted.as_bool() == Some(true) => {
            log::info!("storage is persistent: the browser will not evict saved worlds");
        }
        Ok(_) => log::info!(
            "the browser did not make storage persistent: it may evict saved worlds when short of space"
        ),
        Err(e) => log::warn!("asking for persistent storage failed: {e:?}"),
    }
}

/// What the page shows about the game, as JSON in the element with id
/// [`STATUS_ELEMENT`]: which screen is up, the worlds listed or the world
/// played, and how much of it is saved.
#[derive(Debug, Default, Serialize)]
pub(super) struct PageStatus {
    /// `"launcher"` or `"playing"`.
    pub screen: &'static str,
    /// The launcher's worlds, by name.
    pub worlds: Vec<String>,
    /// Of them, those shown with a thumbnail.
    pub thumbnails: usize,
    /// The message line (errors, warnings), if any.
    pub message: Option<String>,
    /// Storage work is in flight.
    pub busy: bool,
    /// The GPU API in use (`"BrowserWebGpu"` or `"Gl"`).
    pub backend: String,
    /// Frames presented by the game loop.
    pub frames: u64,
    /// Redraws the window loop ran (each runs the game loop's callback).
    pub redraws: u64,
    /// The game loop is paused (menu open, page hidden).
    pub paused: bool,
    /// The world played: its id.
    pub world: Option<String>,
    /// Edits in the live world.
    pub edits: usize,
    /// Of them, stored.
    pub saved_edits: usize,
    /// Saves written since this world was opened.
    pub saves: u64,
    /// While a save is in flight: the edit count it will have stored once
    /// it completes (the page says a save started, and what it holds).
    pub saving_edits: Option<usize>,
    /// Ticks left of the input script from the page's address, while it
    /// plays.
    pub script_ticks_left: Option<usize>,
    /// Edits the world had when this page opened it (what was saved).
    pub loaded_edits: usize,
    /// The newest of them: where, and the block it put there.
    pub loaded_last_edit: Option<([i32; 3], String)>,
    /// The newest edit: where, and the block there now.
    pub last_edit: Option<([i32; 3], String)>,
    /// Mesh and terrain jobs that panicked this session, retries included
    /// (0 in a healthy game; the HUD says so when not).
    pub job_failures: u64,
    /// On a server: where, as whom, and what it answered.
    pub online: Option<OnlineStatus>,
    /// The view distance played, in chunks.
    pub view_distance: i32,
    /// Chunks resident on the GPU, far terrain sections included.
    pub chunks: usize,
    /// Of them, far terrain sections.
    pub far_sections: usize,
    /// Bytes of chunk quad buffers on the GPU (resident, pooled).
    pub gpu_buffer_bytes: (u64, u64),
    /// The wasm module's linear memory in bytes: what the game holds in
    /// the page (it grows, never shrinks).
    pub wasm_memory_bytes: u64,
}

/// The wasm module's linear memory in bytes.
pub(super) fn wasm_memory_bytes() -> u64 {
    core::arch::wasm32::memory_size::<0>() as u64 * 65_536
}

/// A game on a server, as the page reports it.
#[derive(Debug, Default, Serialize)]
pub(super) struct OnlineStatus {
    /// The server's address.
    pub address: String,
    /// This player's name.
    pub name: String,
    /// Everyone playing there, by name.
    pub players: Vec<String>,
    /// This player's edits the server accepted.
    pub accepted: usize,
    /// This player's edits not answered yet.
    pub pending: usize,
    /// Changed chunks shown from the chunk cache.
    pub chunks_cached: usize,
    /// Changed chunks downloaded.
    pub chunks_fetched: usize,
    /// Bytes of chunk messages received.
    pub chunk_bytes: u64,
    /// What the join cost, once its chunks stopped coming.
    pub joined: Option<String>,
}

impl PageStatus {
    /// The launcher's status.
    pub(super) fn launcher(
        worlds: Vec<String>,
        thumbnails: usize,
        message: Option<String>,
        busy: bool,
    ) -> Self {
        Self {
            screen: "launcher",
            worlds,
            thumbnails,
            message,
            busy,
            ..Self::default()
        }
    }

    /// Writes it into the page (made hidden if the page has no such element).
    pub(super) fn show(&self) {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let element = document.get_element_by_id(STATUS_ELEMENT).or_else(|| {
            let element = document.create_element("script").ok()?;
            element.set_id(STATUS_ELEMENT);
            element.set_attribute("type", "application/json").ok()?;
            document.body()?.append_child(&element).ok()?;
            Some(element)
        });
        let Some(element) = element.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) else {
            return;
        };
        if let Ok(json) = serde_json::to_string(self) {
            element.set_text_content(Some(&json));
        }
    }
}
