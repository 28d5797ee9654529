//! The command line every sample shares, and running a sample either way.

use std::path::PathBuf;

use taos_engine::game_loop::LoopConfig;
use taos_engine::{Engine, EngineConfig, run_windowed};
use taos_renderer::Renderer;

/// `[--headless] [--frames N] [--screenshot PATH] [--size WxH]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleArgs {
    /// Render offscreen instead of opening a window.
    pub headless: bool,
    /// Frames to render headless (default 1).
    pub frames: u32,
    /// Where to write the last headless frame.
    pub screenshot: Option<PathBuf>,
    /// Output size.
    pub size: (u32, u32),
}

impl SampleArgs {
    /// Parses `args` (without the program name).
    ///
    /// # Errors
    /// A message naming the bad argument.
    pub fn parse(args: impl IntoIterator<Item = String>) -> anyhow::Result<Self> {
        let mut parsed = Self {
            headless: false,
            frames: 1,
            screenshot: None,
            size: (800, 600),
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .ok_or_else(|| anyhow::anyhow!("{name} needs a value"))
            };
            match arg.as_str() {
                "--headless" => parsed.headless = true,
                "--frames" => parsed.frames = value("--frames")?.parse()?,
                "--screenshot" => parsed.screenshot = Some(value("--screenshot")?.into()),
                "--size" => {
                    let size = value("--size")?;
                    let (w, h) = size
                        .split_once('x')
                        .ok_or_else(|| anyhow::anyhow!("--size wants WIDTHxHEIGHT, got {size}"))?;
                    parsed.size = (w.parse()?, h.parse()?);
                }
                "--help" | "-h" => anyhow::bail!(
                    "usage: [--headless] [--frames N] [--screenshot out.png] [--size WxH]"
                ),
                other => anyhow::bail!("unknown argument {other} (try --help)"),
            }
        }
        if parsed.size.0 == 0 || parsed.size.1 == 0 {
            anyhow::bail!("--size must be at least 1x1");
        }
        Ok(parsed)
    }
}

/// Runs a sample: headless (render `frames`, optionally save a screenshot) or
/// in a window titled `title` until it closes, with `loop_config` (variable
/// or fixed steps, auto-pause, watchdog).
///
/// # Errors
/// Whatever building the engine, the sample's setup, rendering or saving reported.
pub fn run_sample(
    title: &str,
    args: &SampleArgs,
    loop_config: LoopConfig,
    preset: impl FnOnce(&mut Renderer) + 'static,
    setup: impl FnOnce(&mut Engine) -> anyhow::Result<()> + 'static,
) -> anyhow::Result<()> {
    let config = EngineConfig {
        loop_config,
        ..EngineConfig::new(args.size.0, args.size.1)
    };
    if args.headless {
        let mut engine = Engine::headless(config, preset)?;
        setup(&mut engine)?;
        for _ in 0..args.frames.max(1) {
            engine.frame()?;
        }
        if let Some(path) = &args.screenshot {
            engine.screenshot(path)?;
            println!("{title}: wrote {}", path.display());
        }
        return Ok(());
    }
    run_windowed(title, config, preset, move |engine| {
        setup(engine).map_err(Into::into)
    })?;
    Ok(())
}
