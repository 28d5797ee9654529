//! The kira backend: a device through cpal, or a buffer mixed on demand.

use kira::backend::{Backend, Renderer};

/// Where [`OutputBackend`] sends the mix.
pub(crate) enum OutputChoice {
    /// The default output device.
    #[cfg(feature = "device")]
    Device,
    /// A buffer, mixed when asked, at this sample rate.
    Buffer(u32),
}

/// A device could not be opened.
#[derive(Debug)]
pub(crate) struct DeviceUnavailable(pub(crate) String);

/// One concrete backend type for both outputs, so `Audio` is not generic.
pub(crate) enum OutputBackend {
    #[cfg(feature = "device")]
    Device(kira::backend::cpal::CpalBackend),
    Buffer {
        sample_rate: u32,
        // Boxed: the renderer is large next to a device handle.
        renderer: Option<Box<Renderer>>,
    },
}

impl OutputBackend {
    /// Mixes `out.len() / 2` stereo frames into `out`; `false` on a device.
    pub(crate) fn render(&mut self, out: &mut [f32]) -> bool {
        match self {
            #[cfg(feature = "device")]
            Self::Device(_) => false,
            Self::Buffer { renderer, .. } => {
                if let Some(renderer) = renderer {
                    renderer.on_start_processing();
                    renderer.process(out, 2);
                } else {
                    out.fill(0.0);
                }
                true
            }
        }
    }

    pub(crate) fn buffer_sample_rate(&self) -> Option<u32> {
        match self {
            #[cfg(feature = "device")]
            Self::Device(_) => None,
            Self::Buffer { sample_rate, .. } => Some(*sample_rate),
        }
    }
}

impl Backend for OutputBackend {
    type Settings = OutputChoice;
    type Error = DeviceUnavailable;

    fn setup(
        settings: Self::Settings,
        internal_buffer_size: usize,
    ) -> Result<(Self, u32), Self::Error> {
        match settings {
            #[cfg(feature = "device")]
            OutputChoice::Device => {
                kira::backend::cpal::CpalBackend::setup(Default::default(), internal_buffer_size)
                    .map(|(backend, rate)| (Self::Device(backend), rate))
                    .map_err(|error| DeviceUnavailable(error.to_string()))
            }
            OutputChoice::Buffer(sample_rate) => {
                let _ = internal_buffer_size;
                let sample_rate = sample_rate.max(1);
                Ok((
                    Self::Buffer {
                        sample_rate,
                        renderer: None,
                    },
                    sample_rate,
                ))
            }
        }
    }

    fn start(&mut self, renderer: Renderer) -> Result<(), Self::Error> {
        match self {
            #[cfg(feature = "device")]
            Self::Device(backend) => backend
                .start(renderer)
                .map_err(|error| DeviceUnavailable(error.to_string())),
            Self::Buffer { renderer: slot, .. } => {
                *slot = Some(Box::new(renderer));
                Ok(())
            }
        }
    }
}
