//! The wgpu context: instance, adapter, device and queue, headless or for a
//! window, plus offscreen targets with read-back and window surfaces.

mod error;
mod options;
mod output_color;
mod readback;
mod surface;

pub use error::{ContextError, ReadbackError, SurfaceError};
pub use options::ContextOptions;
pub use output_color::{
    HDR_OUTPUT_COLOR_SPACE, HDR_OUTPUT_FORMAT, HdrFallback, OutputChoice, OutputColor,
    choose_output_format,
};
pub use readback::{OffscreenTarget, PendingReadback};
pub use surface::{Frame as SurfaceFrame, WindowSurface};

/// Everything needed to talk to one GPU.
#[derive(Debug)]
pub struct GpuContext {
    instance: wgpu::Instance,
    adapter: wgpu::Adapter,
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The mip-chain pipelines, made on the first texture that needs them.
    mips: std::sync::OnceLock<crate::resources::MipGenerator>,
}

impl GpuContext {
    /// A context with no window: render into [`OffscreenTarget`]s and read back.
    ///
    /// Honours `WGPU_BACKEND` and `WGPU_ADAPTER_NAME` from the environment.
    ///
    /// # Errors
    /// [`ContextError::NoAdapter`] (naming the package that provides software
    /// Vulkan) or [`ContextError::Device`].
    pub fn headless() -> Result<Self, ContextError> {
        Self::headless_with(ContextOptions::default())
    }

    /// [`headless`](Self::headless) with `options` (for instance a context
    /// that does not request timestamp queries).
    ///
    /// # Errors
    /// As [`GpuContext::headless`].
    pub fn headless_with(options: ContextOptions) -> Result<Self, ContextError> {
        without_wayland_noise(|| {
            let instance = wgpu::Instance::new(
                wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
            );
            pollster::block_on(Self::from_instance_with(instance, None, options))
        })
    }

    /// A context whose adapter can present to `surface`, created from `instance`.
    ///
    /// # Errors
    /// As [`GpuContext::headless`].
    pub async fn from_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, ContextError> {
        Self::from_instance_with(instance, surface, ContextOptions::default()).await
    }

    /// [`from_instance`](Self::from_instance) with `options`.
    ///
    /// # Errors
    /// As [`GpuContext::headless`].
    pub async fn from_instance_with(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
        options: ContextOptions,
    ) -> Result<Self, ContextError> {
        let adapter_options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: surface,
            apply_limit_buckets: false,
        };
        let adapter = instance
            .request_adapter(&adapter_options)
            .await
            .map_err(|source| ContextError::NoAdapter {
                detail: source.to_string(),
            })?;
        let info = adapter.get_info();
        log::info!(
            "GPU adapter: {} ({:?}, {:?})",
            info.name,
            info.backend,
            info.device_type
        );
        let required_features = options.features_to_request(adapter.features());
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("taos device"),
                required_features,
                required_limits: limits_for(&adapter.limits()),
                ..Default::default()
            })
            .await
            .map_err(|source| ContextError::Device {
                adapter: info.name.clone(),
                source,
            })?;
        // wgpu's default handler panics on a validation error no error scope
        // caught. A shipped game logs it and goes on (the frame or resource
        // at fault is dropped by wgpu); debug builds keep the panic, so tests
        // and developers see the bug where it happens.
        if !cfg!(debug_assertions) {
            device.on_uncaptured_error(std::sync::Arc::new(|error: wgpu::Error| {
                log::error!("GPU error (the frame goes on): {error}");
            }));
        }
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
            mips: std::sync::OnceLock::new(),
        })
    }

    /// The wgpu instance.
    #[must_use]
    pub fn instance(&self) -> &wgpu::Instance {
        &self.instance
    }

    /// The adapter in use.
    #[must_use]
    pub fn adapter(&self) -> &wgpu::Adapter {
        &self.adapter
    }

    /// The device.
    #[must_use]
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue.
    #[must_use]
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Whether the device can time passes on the GPU (it was created with
    /// `TIMESTAMP_QUERY`; see [`ContextOptions::gpu_timestamps`]).
    #[must_use]
    pub fn has_gpu_timestamps(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// Whether the device can also write timestamps between passes
    /// (`TIMESTAMP_QUERY_INSIDE_ENCODERS`): the render graph's encoder
    /// passes (copies, clears) are then timed as well.
    #[must_use]
    pub fn has_encoder_timestamps(&self) -> bool {
        self.device.features().contains(
            wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS,
        )
    }

    /// The pipelines that build RGBA8 mip chains on this device.
    pub(crate) fn mip_generator(&self) -> &crate::resources::MipGenerator {
        self.mips
            .get_or_init(|| crate::resources::MipGenerator::new(&self.device))
    }

    /// Name, backend and type of the adapter.
    #[must_use]
    pub fn adapter_info(&self) -> wgpu::AdapterInfo {
        self.adapter.get_info()
    }
}

/// The limits to ask a device for: wgpu's defaults where the adapter meets
/// them, else its downlevel ones, else WebGL2's (no compute, no storage
/// buffers: features that need them fall back or say they are unavailable),
/// with the adapter's own texture sizes in every case.
fn limits_for(offered: &wgpu::Limits) -> wgpu::Limits {
    let base = [wgpu::Limits::default(), wgpu::Limits::downlevel_defaults()]
        .into_iter()
        .find(|wanted| wanted.check_limits(offered))
        .unwrap_or_else(wgpu::Limits::downlevel_webgl2_defaults);
    base.using_resolution(offered.clone())
}

/// Runs `f` (creating a GPU instance, requesting an adapter) with
/// libwayland's `XDG_RUNTIME_DIR is invalid or not set` line kept off
/// stderr, on a machine without a desktop session (CI, SSH, containers).
///
/// Mesa's implicit Vulkan layer `VK_LAYER_MESA_device_select` connects to a
/// Wayland display each time adapters are listed, because wgpu enables the
/// Wayland surface extension; without a session, libwayland prints that
/// line to file descriptor 2. Nothing is wrong, so the line goes to the log
/// at `debug` level instead (see [`taos_stderr`]). With a session, `f` just
/// runs.
pub fn without_wayland_noise<T>(f: impl FnOnce() -> T) -> T {
    if cfg!(target_arch = "wasm32") || !taos_stderr::wayland_would_complain() {
        return f();
    }
    taos_stderr::filtered(&[taos_stderr::Noise::WaylandRuntimeDir], f)
}
