//! What a [`GpuContext`](super::GpuContext) asks of its adapter beyond the
//! WebGPU baseline.

/// The block-compressed texture formats a context requests where offered.
const COMPRESSED_TEXTURES: wgpu::Features = wgpu::Features::TEXTURE_COMPRESSION_BC
    .union(wgpu::Features::TEXTURE_COMPRESSION_ETC2)
    .union(wgpu::Features::TEXTURE_COMPRESSION_ASTC);

/// Options for creating a [`GpuContext`](super::GpuContext).
///
/// ```
/// use taos_renderer::ContextOptions;
///
/// // A context that never measures GPU time, even where the adapter could.
/// let options = ContextOptions::default().with_gpu_timestamps(false);
/// assert!(!options.gpu_timestamps);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ContextOptions {
    /// Request timestamp queries (`TIMESTAMP_QUERY`, and
    /// `TIMESTAMP_QUERY_INSIDE_ENCODERS` for copy passes) when the adapter
    /// offers them, so the renderer can time each pass on the GPU
    /// ([`FrameTimings::gpu`](crate::timings::FrameTimings::gpu)). Adapters
    /// without them (WebGL2, some tile-based GPUs) are not refused: the GPU
    /// figures are then `None`. Default `true`.
    pub gpu_timestamps: bool,
}

impl Default for ContextOptions {
    fn default() -> Self {
        Self {
            gpu_timestamps: true,
        }
    }
}

impl ContextOptions {
    /// These options with [`gpu_timestamps`](Self::gpu_timestamps) set.
    #[must_use]
    pub fn with_gpu_timestamps(mut self, enabled: bool) -> Self {
        self.gpu_timestamps = enabled;
        self
    }

    /// The optional wgpu features to request from an adapter offering
    /// `available`: those these options ask for that it has, and always
    /// the compressed texture formats it offers (BC, ETC2, ASTC: KTX2
    /// textures are transcoded to one of them).
    #[must_use]
    pub fn features_to_request(&self, available: wgpu::Features) -> wgpu::Features {
        let mut wanted = wgpu::Features::empty();
        if self.gpu_timestamps {
            wanted |=
                wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS;
        }
        let mut granted = wanted & available;
        // Timestamps inside encoders are usable only along with timestamps.
        if !granted.contains(wgpu::Features::TIMESTAMP_QUERY) {
            granted = wgpu::Features::empty();
        }
        granted | (COMPRESSED_TEXTURES & available)
    }
}

#[cfg(test)]
mod tests {
    use super::ContextOptions;
    use wgpu::Features as F;

    #[test]
    fn requests_only_what_the_adapter_offers() {
        let on = ContextOptions::default();
        assert_eq!(on.features_to_request(F::empty()), F::empty());
        assert_eq!(
            on.features_to_request(F::TIMESTAMP_QUERY),
            F::TIMESTAMP_QUERY
        );
        let both = F::TIMESTAMP_QUERY | F::TIMESTAMP_QUERY_INSIDE_ENCODERS;
        assert_eq!(on.features_to_request(both | F::SHADER_F16), both);
        // Inside-encoder timestamps alone are useless: nothing is requested.
        assert_eq!(
            on.features_to_request(F::TIMESTAMP_QUERY_INSIDE_ENCODERS),
            F::empty()
        );
        let off = on.with_gpu_timestamps(false);
        assert_eq!(off.features_to_request(both), F::empty());
        // Compressed formats are requested wherever offered.
        let bc = F::TEXTURE_COMPRESSION_BC;
        assert_eq!(off.features_to_request(both | bc), bc);
        assert_eq!(
            on.features_to_request(F::TIMESTAMP_QUERY_INSIDE_ENCODERS | bc),
            bc
        );
    }
}
