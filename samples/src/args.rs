//! The command line every sample shares, and running a sample either way.

use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser};

use taos_engine::game_loop::LoopConfig;
use taos_engine::renderer::Renderer;
use taos_engine::{Engine, EngineConfig, run_windowed};

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

/// The command line as clap reads it; [`SampleArgs`] is what samples use.
#[derive(Debug, Parser)]
#[command(about = "A Taos sample scene, in a window or headless")]
struct Cli {
    #[command(flatten)]
    common: CommonCli,
}

/// The arguments every sample takes, for a sample's own parser to flatten
/// in (`#[command(flatten)]`) next to its own options.
#[derive(Debug, Clone, clap::Args)]
pub struct CommonCli {
    /// Render offscreen instead of opening a window.
    #[arg(long)]
    headless: bool,
    /// Frames to render when headless.
    #[arg(long, default_value_t = 1, value_name = "N")]
    frames: u32,
    /// Where to write the last headless frame (PNG).
    #[arg(long, value_name = "PATH")]
    screenshot: Option<PathBuf>,
    /// Output size in pixels.
    #[arg(long, default_value = "800x600", value_name = "WxH", value_parser = parse_size)]
    size: (u32, u32),
}

pub(crate) fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once('x')
        .ok_or_else(|| format!("wants WIDTHxHEIGHT, got {text:?}"))?;
    let parse = |v: &str| v.parse::<u32>().map_err(|e| format!("{v:?}: {e}"));
    let size = (parse(w)?, parse(h)?);
    if size.0 == 0 || size.1 == 0 {
        return Err("must be at least 1x1".into());
    }
    Ok(size)
}

impl From<Cli> for SampleArgs {
    fn from(cli: Cli) -> Self {
        cli.common.into()
    }
}

impl From<CommonCli> for SampleArgs {
    fn from(cli: CommonCli) -> Self {
        Self {
            headless: cli.headless,
            frames: cli.frames,
            screenshot: cli.screenshot,
            size: cli.size,
        }
    }
}

impl SampleArgs {
    /// Parses `args` (without the program name).
    ///
    /// # Errors
    /// A message naming the bad argument (or the help text for `--help`).
    pub fn parse(args: impl IntoIterator<Item = String>) -> anyhow::Result<Self> {
        let program = std::iter::once(String::from("sample"));
        Ok(Cli::try_parse_from(program.chain(args))?.into())
    }

    /// Parses the process's own arguments; `--help` prints the usage and a
    /// bad argument prints its error, both exiting the process.
    #[must_use]
    pub fn from_env() -> Self {
        Cli::parse().into()
    }

    /// As [`from_env`](Self::from_env), for a sample whose window has
    /// another size by default (`"WIDTHxHEIGHT"`, what `--size` takes).
    #[must_use]
    pub fn from_env_with_size(size: &'static str) -> Self {
        let matches = Cli::command()
            .mut_arg("size", |arg| arg.default_value(size))
            .get_matches();
        Cli::from_arg_matches(&matches)
            .unwrap_or_else(|error| error.exit())
            .into()
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
