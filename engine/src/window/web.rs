//! The window loop's browser side (wasm32 only): which GPU API the page
//! gets, the GPU request that cannot block there, and errors shown in the
//! page rather than lost in the console.
//!
//! The GPU API is picked at run time by one build: WebGPU when the browser
//! offers a working adapter, WebGL2 otherwise. A page may force one with a
//! `backend=webgpu` or `backend=webgl2` query parameter (the browser's
//! counterpart of `WGPU_BACKEND`), which is how the browser tests run the
//! same page on both.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use taos_renderer::{ContextError, GpuContext};
use winit::window::Window;

/// The GPU and the window's surface, once the browser has answered.
pub(super) type GpuReady = Result<(GpuContext, wgpu::Surface<'static>), super::RunError>;

/// Where the asynchronous GPU request leaves its answer for the loop.
pub(super) type GpuSlot = Rc<RefCell<Option<GpuReady>>>;

/// The backends the page asked for with `?backend=`, or every browser one.
fn requested_backends() -> wgpu::Backends {
    let query = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let asked = query
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix("backend="));
    match asked {
        Some("webgpu") => wgpu::Backends::BROWSER_WEBGPU,
        Some("webgl2" | "webgl" | "gl") => wgpu::Backends::GL,
        Some(other) => {
            log::warn!("unknown backend={other:?} in the page's address; picking one");
            wgpu::Backends::BROWSER_WEBGPU | wgpu::Backends::GL
        }
        None => wgpu::Backends::BROWSER_WEBGPU | wgpu::Backends::GL,
    }
}

/// Browsers start an `AudioContext` made before the player touched the page
/// suspended, and keep it so until a script resumes it during a gesture.
/// The sound device (cpal's Web Audio host, under kira) makes its context
/// when the engine starts, so this wraps the methods a device calls on its
/// context (`resume`, `createBuffer`, ...) to remember the contexts in use,
/// and resumes them on the first pointer, key or touch gesture (and every
/// later one that finds them suspended).
const RESUME_AUDIO_ON_GESTURE: &str = r#"
if (!window.__taosAudioOnGesture) {
  window.__taosAudioOnGesture = true;
  const contexts = [];
  window.__taosAudioContexts = contexts;
  const remember = (context) => {
    if (!contexts.includes(context)) contexts.push(context);
  };
  // wasm-bindgen's glue keeps the AudioContext constructor it saw at load,
  // so the contexts are learned from the methods a sound device calls.
  for (const name of ["AudioContext", "BaseAudioContext", "webkitAudioContext"]) {
    const proto = window[name] && window[name].prototype;
    if (!proto) continue;
    for (const method of ["resume", "createBuffer", "createBufferSource", "createGain"]) {
      const original = proto[method];
      if (typeof original !== "function" || original.__taos) continue;
      const wrapped = function (...args) {
        if (typeof this.resume === "function" && "state" in this) remember(this);
        return original.apply(this, args);
      };
      wrapped.__taos = true;
      proto[method] = wrapped;
    }
  }
  const resume = () => {
    for (const context of contexts) {
      if (context.state === "suspended") context.resume().catch(() => {});
    }
  };
  for (const type of ["pointerdown", "keydown", "touchend"]) {
    window.addEventListener(type, resume, { capture: true });
  }
}
"#;

/// Makes the game's sound start with the player's first gesture (see
/// [`RESUME_AUDIO_ON_GESTURE`]); called before the engine opens its sound
/// device. A page whose content security policy refuses it stays silent
/// and says so in the console.
pub(super) fn resume_audio_on_gesture() {
    let installed =
        js_sys::Function::new_no_args(RESUME_AUDIO_ON_GESTURE).call0(&wasm_bindgen::JsValue::NULL);
    if let Err(error) = installed {
        log::warn!("audio: cannot arrange for sound to start on the first gesture: {error:?}");
    }
}

/// The id of the canvas element a page may provide for the game.
pub(super) const CANVAS_ID: &str = "taos-canvas";

/// The page's `<canvas id="taos-canvas">`, if it has one.
pub(super) fn page_canvas() -> Option<web_sys::HtmlCanvasElement> {
    use wasm_bindgen::JsCast as _;
    let element = web_sys::window()?
        .document()?
        .get_element_by_id(CANVAS_ID)?;
    match element.dyn_into::<web_sys::HtmlCanvasElement>() {
        Ok(canvas) => Some(canvas),
        Err(_) => {
            log::warn!("#{CANVAS_ID} is not a <canvas>; the game makes its own");
            None
        }
    }
}

/// Starts asking the browser for a GPU for `window`'s canvas; the answer
/// lands in the returned slot and the window is asked to redraw, which is
/// when the loop picks it up.
pub(super) fn request_gpu(window: Arc<Window>) -> GpuSlot {
    let slot: GpuSlot = Rc::new(RefCell::new(None));
    let answer = slot.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
        descriptor.backends = requested_backends();
        // Keeps WebGPU only when an adapter can really be had (headless
        // browsers often expose `navigator.gpu` with no adapter behind it).
        let instance = wgpu::util::new_instance_with_webgpu_detection(descriptor).await;
        let ready = match instance.create_surface(window.clone()) {
            Ok(surface) => GpuContext::from_instance(instance, Some(&surface))
                .await
                .map(|gpu| (gpu, surface))
                .map_err(|e: ContextError| super::RunError::from(crate::EngineError::from(e))),
            Err(e) => Err(taos_renderer::SurfaceError::from(e).into()),
        };
        *answer.borrow_mut() = Some(ready);
        window.request_redraw();
    });
    slot
}

/// Shows `error` (with its causes) in the page, see [`show_page_error`].
pub(super) fn show_error(error: &dyn std::error::Error) {
    show_page_error(&crate::main_entry::describe(error));
}

/// Shows `text` to the player in the page (wasm32 only): in the element
/// with id `taos-error` if the page has one, else in a new `<pre>` at the
/// top of the body; marks it `data-shown="true"`. Also logs it to the
/// console. For errors a page cannot otherwise report, since nothing
/// waits for the loop to return there.
pub fn show_page_error(text: &str) {
    log::error!("{text}");
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let element = document.get_element_by_id("taos-error").or_else(|| {
        let element = document.create_element("pre").ok()?;
        element.set_id("taos-error");
        document.body()?.prepend_with_node_1(&element).ok()?;
        Some(element)
    });
    if let Some(element) = element {
        element.set_text_content(Some(text));
        let _ = element.set_attribute("data-shown", "true");
    }
}
