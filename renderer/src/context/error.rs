//! Errors of the GPU context, read-back and surfaces.

/// Creating a [`GpuContext`](super::GpuContext) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ContextError {
    /// No GPU adapter is available.
    #[error(
        "no GPU adapter found ({detail}). On a machine without a GPU, install a software \
         Vulkan driver: `apt-get install mesa-vulkan-drivers libvulkan1` (Debian/Ubuntu, \
         provides lavapipe), or try `WGPU_BACKEND=gl`"
    )]
    NoAdapter {
        /// What wgpu reported.
        detail: String,
    },
    /// The adapter refused to create a device.
    #[error("GPU adapter {adapter} refused to create a device: {source}")]
    Device {
        /// The adapter's name.
        adapter: String,
        /// wgpu's error.
        source: wgpu::RequestDeviceError,
    },
}

/// Reading a texture back to the CPU failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadbackError {
    /// A target of zero width or height.
    #[error("an offscreen target must be at least 1x1, got {width}x{height}")]
    ZeroSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// Read-back supports 8-bit RGBA/BGRA formats and `Rgba16Float` only
    /// (floats only from `Rgba16Float`).
    #[error("cannot read back format {format:?}: only 8-bit RGBA or BGRA, or Rgba16Float")]
    UnsupportedFormat {
        /// The target's format.
        format: wgpu::TextureFormat,
    },
    /// Mapping the staging buffer failed.
    #[error("mapping the read-back buffer failed: {0}")]
    Map(String),
}

/// Acquiring or configuring a window surface failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SurfaceError {
    /// Creating the surface for the window failed.
    #[error("cannot create a GPU surface for the window: {0}")]
    Create(#[from] wgpu::CreateSurfaceError),
    /// The adapter cannot present to this surface.
    #[error("the GPU adapter cannot present to this window")]
    Unsupported,
    /// wgpu reported a validation error while acquiring the frame.
    #[error("validation error while acquiring the surface texture")]
    Validation,
    /// The surface does not offer this format (in a colour space the
    /// renderer can write).
    #[error("the window surface does not offer {format:?}")]
    FormatNotOffered {
        /// The format asked for.
        format: wgpu::TextureFormat,
    },
    /// The surface was lost and reconfiguring did not bring it back.
    #[error("the window surface was lost and could not be recovered")]
    Lost,
}
