//! Choosing the output's colour: SDR (an sRGB format, as every renderer
//! output so far) or HDR (`Rgba16Float` in extended linear sRGB, scRGB),
//! from what a surface offers. Pure functions over
//! [`wgpu::SurfaceCapabilities`], testable without a window.
//!
//! Why only `Rgba16Float`: the tonemap writes linear BT.709 values, which is
//! what [`wgpu::SurfaceColorSpace::ExtendedSrgbLinear`] (scRGB) takes as is.
//! The other HDR surfaces would need a different encoder in the tonemap:
//! `Rgb10a2Unorm` is HDR only in the BT.2100 PQ or HLG colour spaces (a
//! BT.2020 gamut and a PQ or HLG curve), and without them it is a 10-bit SDR
//! format; [`ExtendedSrgb`](wgpu::SurfaceColorSpace::ExtendedSrgb) wants
//! sRGB-encoded values. Neither is chosen.

use wgpu::{SurfaceCapabilities, SurfaceColorSpace, SurfaceColorSpaces, TextureFormat};

/// The format an HDR output uses.
pub const HDR_OUTPUT_FORMAT: TextureFormat = TextureFormat::Rgba16Float;

/// The colour space an HDR output is presented in: linear, values above 1.0
/// brighter than SDR white (scRGB).
pub const HDR_OUTPUT_COLOR_SPACE: SurfaceColorSpace = SurfaceColorSpace::ExtendedSrgbLinear;

/// Whether an output holds a standard- or a high-dynamic-range image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OutputColor {
    /// Standard dynamic range: values clamped to 0..=1, sRGB-encoded (by the
    /// format or by the tonemap).
    #[default]
    Sdr,
    /// High dynamic range: linear values, 1.0 is SDR (paper) white and more
    /// is brighter.
    Hdr,
}

impl OutputColor {
    /// What an output of `format` holds: [`Hdr`](Self::Hdr) for floating-point
    /// formats (the tonemap writes them linear and unclamped), else
    /// [`Sdr`](Self::Sdr).
    #[must_use]
    pub fn of_format(format: TextureFormat) -> Self {
        match format {
            TextureFormat::Rgba16Float | TextureFormat::Rgba32Float => Self::Hdr,
            _ => Self::Sdr,
        }
    }
}

/// Why an HDR output was asked for and an SDR one is used instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HdrFallback {
    /// The output offers no `Rgba16Float` in extended linear sRGB.
    #[error(
        "the output offers no Rgba16Float in extended linear sRGB (scRGB); it offers {offered:?}"
    )]
    NotOffered {
        /// The formats the output offers, each with its colour spaces.
        offered: Vec<(TextureFormat, SurfaceColorSpaces)>,
    },
    /// Features were already set up for the SDR format: HDR output must be
    /// asked for before the first feature is added.
    #[error(
        "HDR output was asked for after {features} feature(s) were set up for {format:?}; \
         ask before adding features"
    )]
    FeaturesAlreadySetUp {
        /// How many features were set up.
        features: usize,
        /// The format they were set up for.
        format: TextureFormat,
    },
}

/// A format to configure an output with, and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputChoice {
    /// The texture format.
    pub format: TextureFormat,
    /// The colour space to configure a surface with.
    pub color_space: SurfaceColorSpace,
    /// SDR or HDR.
    pub color: OutputColor,
    /// Why HDR was asked for and not chosen (`None` when it was not asked
    /// for, or was chosen).
    pub fallback: Option<HdrFallback>,
}

/// Picks an output format from what a surface offers (`capabilities`).
///
/// - SDR, or HDR that is not offered: the first sRGB format of
///   `capabilities.formats` (else its first format) in the backend's
///   default colour space; for HDR with the reason in
///   [`OutputChoice::fallback`].
/// - HDR, when `Rgba16Float` in extended linear sRGB is offered: that.
///
/// Returns `None` when the surface offers no format at all (it cannot be
/// presented to).
#[must_use]
pub fn choose_output_format(
    capabilities: &SurfaceCapabilities,
    request: OutputColor,
) -> Option<OutputChoice> {
    if request == OutputColor::Hdr {
        let spaces = capabilities.color_spaces(HDR_OUTPUT_FORMAT);
        if spaces.contains(SurfaceColorSpaces::EXTENDED_SRGB_LINEAR) {
            return Some(OutputChoice {
                format: HDR_OUTPUT_FORMAT,
                color_space: HDR_OUTPUT_COLOR_SPACE,
                color: OutputColor::Hdr,
                fallback: None,
            });
        }
    }
    let format = capabilities
        .formats
        .iter()
        .copied()
        .find(TextureFormat::is_srgb)
        .or_else(|| capabilities.formats.first().copied())?;
    let fallback = (request == OutputColor::Hdr).then(|| HdrFallback::NotOffered {
        offered: capabilities
            .format_capabilities
            .iter()
            .map(|offer| (offer.format, offer.color_spaces))
            .collect(),
    });
    Some(OutputChoice {
        format,
        color_space: SurfaceColorSpace::Auto,
        color: OutputColor::Sdr,
        fallback,
    })
}

#[cfg(test)]
mod tests {
    use wgpu::{SurfaceCapabilities, SurfaceColorSpaces, SurfaceFormatCapabilities, TextureFormat};

    use super::*;

    fn offering(formats: &[(TextureFormat, SurfaceColorSpaces)]) -> SurfaceCapabilities {
        SurfaceCapabilities {
            // As wgpu lists them: `formats` holds those usable in the default
            // colour space (here: those with sRGB or scRGB).
            formats: formats
                .iter()
                .filter(|(_, spaces)| {
                    spaces.intersects(
                        SurfaceColorSpaces::SRGB | SurfaceColorSpaces::EXTENDED_SRGB_LINEAR,
                    )
                })
                .map(|(format, _)| *format)
                .collect(),
            format_capabilities: formats
                .iter()
                .map(|&(format, color_spaces)| SurfaceFormatCapabilities {
                    format,
                    color_spaces,
                })
                .collect(),
            ..SurfaceCapabilities::default()
        }
    }

    /// A desktop HDR monitor on Vulkan: 8-bit sRGB, fp16 scRGB, 10-bit PQ.
    fn hdr_monitor() -> SurfaceCapabilities {
        offering(&[
            (TextureFormat::Bgra8Unorm, SurfaceColorSpaces::SRGB),
            (TextureFormat::Bgra8UnormSrgb, SurfaceColorSpaces::SRGB),
            (
                TextureFormat::Rgba16Float,
                SurfaceColorSpaces::SRGB | SurfaceColorSpaces::EXTENDED_SRGB_LINEAR,
            ),
            (TextureFormat::Rgb10a2Unorm, SurfaceColorSpaces::BT2100_PQ),
        ])
    }

    /// An SDR window (lavapipe under Xvfb offers about this).
    fn sdr_window() -> SurfaceCapabilities {
        offering(&[
            (TextureFormat::Bgra8Unorm, SurfaceColorSpaces::SRGB),
            (TextureFormat::Bgra8UnormSrgb, SurfaceColorSpaces::SRGB),
        ])
    }

    #[test]
    fn hdr_is_chosen_when_offered() {
        let choice = choose_output_format(&hdr_monitor(), OutputColor::Hdr).unwrap();
        assert_eq!(choice.format, TextureFormat::Rgba16Float);
        assert_eq!(choice.color_space, SurfaceColorSpace::ExtendedSrgbLinear);
        assert_eq!(choice.color, OutputColor::Hdr);
        assert_eq!(choice.fallback, None);
    }

    #[test]
    fn without_hdr_the_srgb_format_is_chosen_with_the_reason() {
        let choice = choose_output_format(&sdr_window(), OutputColor::Hdr).unwrap();
        assert_eq!(choice.format, TextureFormat::Bgra8UnormSrgb);
        assert_eq!(choice.color_space, SurfaceColorSpace::Auto);
        assert_eq!(choice.color, OutputColor::Sdr);
        let Some(HdrFallback::NotOffered { offered }) = &choice.fallback else {
            panic!("a fallback names its reason: {choice:?}");
        };
        assert_eq!(offered.len(), 2);
        let message = choice.fallback.as_ref().unwrap().to_string();
        assert!(message.contains("Rgba16Float"), "{message}");
        assert!(message.contains("Bgra8UnormSrgb"), "{message}");
    }

    #[test]
    fn fp16_without_scrgb_or_pq_only_ten_bit_is_not_hdr() {
        // fp16 only in sRGB would clamp at 1.0; 10-bit PQ wants another encoder.
        let caps = offering(&[
            (TextureFormat::Rgba8UnormSrgb, SurfaceColorSpaces::SRGB),
            (TextureFormat::Rgba16Float, SurfaceColorSpaces::SRGB),
            (TextureFormat::Rgb10a2Unorm, SurfaceColorSpaces::BT2100_PQ),
        ]);
        let choice = choose_output_format(&caps, OutputColor::Hdr).unwrap();
        assert_eq!(choice.format, TextureFormat::Rgba8UnormSrgb);
        assert!(matches!(
            choice.fallback,
            Some(HdrFallback::NotOffered { .. })
        ));
    }

    #[test]
    fn sdr_keeps_the_first_srgb_format_even_on_an_hdr_monitor() {
        let choice = choose_output_format(&hdr_monitor(), OutputColor::Sdr).unwrap();
        assert_eq!(choice.format, TextureFormat::Bgra8UnormSrgb);
        assert_eq!(choice.color, OutputColor::Sdr);
        assert_eq!(choice.fallback, None, "SDR was asked for: no fallback");
    }

    #[test]
    fn without_srgb_the_first_format_is_taken_and_nothing_offered_is_none() {
        let caps = offering(&[(TextureFormat::Bgra8Unorm, SurfaceColorSpaces::SRGB)]);
        let choice = choose_output_format(&caps, OutputColor::Sdr).unwrap();
        assert_eq!(choice.format, TextureFormat::Bgra8Unorm);
        assert_eq!(
            choose_output_format(&SurfaceCapabilities::default(), OutputColor::Hdr),
            None
        );
    }

    #[test]
    fn float_formats_hold_hdr() {
        assert_eq!(
            OutputColor::of_format(TextureFormat::Rgba16Float),
            OutputColor::Hdr
        );
        assert_eq!(
            OutputColor::of_format(TextureFormat::Bgra8UnormSrgb),
            OutputColor::Sdr
        );
        assert_eq!(
            OutputColor::of_format(TextureFormat::Rgb10a2Unorm),
            OutputColor::Sdr
        );
    }
}
