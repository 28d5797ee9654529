//! crafty's command line.
//!
//! ```text
//! crafty                                   the launcher, in a window
//! crafty --world NAME                      straight into a saved world, in a window
//! crafty --headless --world <NAME|new:SEED> [--mode creative|survival]
//!        [--replay FILE] --ticks N [--screenshot out.png] [--size WxH]
//! crafty --make-replay FILE --script "walk 60, look-down 15, break"
//! ```
//!
//! Every form accepts `--data-dir DIR` (default: the platform data dir, or
//! `TAOS_DATA_DIR`).

use std::path::PathBuf;

use crate::player::GameMode;

/// Which world to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorldChoice {
    /// A saved world, by name (or id).
    Named(String),
    /// A new world from this seed.
    New(u64),
}

/// A headless run: play `ticks` deterministically, save, optionally screenshot, exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadlessArgs {
    /// The world.
    pub world: WorldChoice,
    /// Game mode of a new world.
    pub mode: GameMode,
    /// Action flags to feed, one per tick (an engine `Recording` file).
    pub replay: Option<PathBuf>,
    /// Ticks to simulate (60 per second).
    pub ticks: u64,
    /// Where to write the final frame.
    pub screenshot: Option<PathBuf>,
    /// Screenshot size.
    pub size: (u32, u32),
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Open the window: the launcher, or a world by name.
    Window {
        /// Go straight into this world.
        world: Option<String>,
    },
    /// Run headless.
    Headless(HeadlessArgs),
    /// Compile an input script (see [`crate::script`]) into a replay file.
    MakeReplay {
        /// Where to write the replay.
        out: PathBuf,
        /// The script.
        script: String,
    },
    /// Print usage.
    Help,
}

/// Parsed arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    /// What to do.
    pub command: Command,
    /// Where worlds are saved (`None`: the default location).
    pub data_dir: Option<PathBuf>,
}

/// A bad command line; the message says what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}\n\n{USAGE}")]
pub struct ArgsError(String);

/// How to call crafty.
pub const USAGE: &str = "usage:
  crafty [--world NAME] [--data-dir DIR]
  crafty --headless --world <NAME|new:SEED> [--mode creative|survival] [--replay FILE]
         --ticks N [--screenshot out.png] [--size WxH] [--data-dir DIR]
  crafty --make-replay FILE --script \"walk 60, look-down 15, break, place\"";

impl Args {
    /// Parses arguments (without the program name).
    ///
    /// # Errors
    /// [`ArgsError`] naming the bad or missing argument.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Self, ArgsError> {
        let mut headless = false;
        let mut world = None;
        let mut mode = GameMode::Creative;
        let mut replay = None;
        let mut ticks = None;
        let mut screenshot = None;
        let mut size = (640, 360);
        let mut data_dir = None;
        let mut make_replay = None;
        let mut script = None;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .ok_or_else(|| ArgsError(format!("{name} needs a value")))
            };
            match arg.as_str() {
                "--headless" => headless = true,
                "--world" => world = Some(value("--world")?),
                "--mode" => {
                    mode = match value("--mode")?.as_str() {
                        "creative" => GameMode::Creative,
                        "survival" => GameMode::Survival,
                        other => {
                            return Err(ArgsError(format!(
                                "--mode must be creative or survival, not {other:?}"
                            )));
                        }
                    }
                }
                "--replay" => replay = Some(PathBuf::from(value("--replay")?)),
                "--ticks" => {
                    let text = value("--ticks")?;
                    ticks = Some(text.parse::<u64>().map_err(|_| {
                        ArgsError(format!("--ticks must be a whole number, not {text:?}"))
                    })?);
                }
                "--screenshot" => screenshot = Some(PathBuf::from(value("--screenshot")?)),
                "--size" => size = parse_size(&value("--size")?)?,
                "--data-dir" => data_dir = Some(PathBuf::from(value("--data-dir")?)),
                "--make-replay" => make_replay = Some(PathBuf::from(value("--make-replay")?)),
                "--script" => script = Some(value("--script")?),
                "-h" | "--help" => {
                    return Ok(Self {
                        command: Command::Help,
                        data_dir,
                    });
                }
                other => return Err(ArgsError(format!("unknown argument {other:?}"))),
            }
        }
        let command = if let Some(out) = make_replay {
            let script =
                script.ok_or_else(|| ArgsError("--make-replay needs --script \"...\"".into()))?;
            Command::MakeReplay { out, script }
        } else if headless {
            let world = world.ok_or_else(|| {
                ArgsError("--headless needs --world NAME or --world new:SEED".into())
            })?;
            let ticks = ticks.ok_or_else(|| ArgsError("--headless needs --ticks N".into()))?;
            Command::Headless(HeadlessArgs {
                world: parse_world(&world)?,
                mode,
                replay,
                ticks,
                screenshot,
                size,
            })
        } else {
            Command::Window { world }
        };
        Ok(Self { command, data_dir })
    }
}

fn parse_world(text: &str) -> Result<WorldChoice, ArgsError> {
    match text.strip_prefix("new:") {
        Some(seed) => seed
            .parse::<u64>()
            .map(WorldChoice::New)
            .map_err(|_| ArgsError(format!("the seed in {text:?} must be a whole number"))),
        None if text.is_empty() => Err(ArgsError("--world needs a name".into())),
        None => Ok(WorldChoice::Named(text.to_owned())),
    }
}

fn parse_size(text: &str) -> Result<(u32, u32), ArgsError> {
    let bad = || ArgsError(format!("--size must look like 640x360, not {text:?}"));
    let (w, h) = text.split_once('x').ok_or_else(bad)?;
    let (w, h) = (
        w.parse::<u32>().map_err(|_| bad())?,
        h.parse::<u32>().map_err(|_| bad())?,
    );
    if w == 0 || h == 0 || w > 8192 || h > 8192 {
        return Err(ArgsError(format!(
            "--size {text} is outside 1x1..8192x8192"
        )));
    }
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Args, ArgsError> {
        Args::parse(line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn no_arguments_opens_the_launcher() {
        assert_eq!(parse("").unwrap().command, Command::Window { world: None });
    }

    #[test]
    fn headless_run_parses_every_option() {
        let args = parse(
            "--headless --world new:42 --mode survival --replay r.bin --ticks 600 \
             --screenshot out.png --size 320x180 --data-dir /tmp/w",
        )
        .unwrap();
        assert_eq!(args.data_dir, Some(PathBuf::from("/tmp/w")));
        assert_eq!(
            args.command,
            Command::Headless(HeadlessArgs {
                world: WorldChoice::New(42),
                mode: GameMode::Survival,
                replay: Some("r.bin".into()),
                ticks: 600,
                screenshot: Some("out.png".into()),
                size: (320, 180),
            })
        );
    }

    #[test]
    fn mistakes_are_named() {
        let message = |line: &str| parse(line).unwrap_err().to_string();
        assert!(message("--headless --ticks 5").contains("--world"));
        assert!(message("--headless --world w").contains("--ticks"));
        assert!(message("--headless --world new:x --ticks 1").contains("seed"));
        assert!(message("--size 0x5").contains("--size"));
        assert!(message("--ticks").contains("needs a value"));
        assert!(message("--bogus").contains("--bogus"));
        assert!(message("--make-replay r.bin").contains("--script"));
    }
}
