//! crafty's command line.
//!
//! ```text
//! crafty                                   the launcher, in a window
//! crafty --world NAME                      straight into a saved world, in a window
//! crafty --world NAME --script "..."        ... playing an input script first
//! crafty --world join:NAME@HOST:PORT        joining a multiplayer server as NAME
//! crafty --headless --world <NAME|new:SEED> [--mode creative|survival]
//!        [--replay FILE] --ticks N [--screenshot out.png] [--size WxH] [--view N]
//! crafty --make-replay FILE --script "walk 60, look-down 15, break"
//! crafty --apply-edits FILE                 save edits exported when saving failed
//! ```
//!
//! Every form accepts `--data-dir DIR` (default: the platform data dir, or
//! `TAOS_DATA_DIR`).

use std::path::PathBuf;

use crate::player::GameMode;
use crate::weather::WeatherKind;

/// Which world to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorldChoice {
    /// A saved world, by name (or id).
    Named(String),
    /// A new world from this seed.
    New(u64),
    /// A multiplayer server (`join:NAME@ADDRESS`): the window joins it as
    /// `name`.
    Join {
        /// The player's name on the server.
        name: String,
        /// The server's address (`host:port`).
        address: String,
    },
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
    /// Set the time of day first: minutes after midnight (`--time HH:MM`).
    pub time: Option<u16>,
    /// Set the weather first (`--weather clear|rain|snow|storm`): it holds
    /// at full strength until the current spell ends.
    pub weather: Option<WeatherKind>,
    /// View distance in chunks (`--view N`, 2 to 64); the default's otherwise.
    pub view: Option<i32>,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Open the window: the launcher, or a world by name.
    Window {
        /// Go straight into this world.
        world: Option<String>,
        /// An input script (see [`crate::script`]) played in the first
        /// world opened, before the player's own input takes over.
        script: Option<String>,
        /// The view distance for this run (`--view N`, 2 to 64 chunks),
        /// over the saved settings.
        view: Option<i32>,
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
    /// Append the edits of an unsaved-edits file (written by the window
    /// when a save failed) to its world.
    ApplyEdits {
        /// The file.
        file: PathBuf,
    },
    /// Print this help text (clap's, for `--help`).
    Help(String),
}

/// Parsed arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    /// What to do.
    pub command: Command,
    /// Where worlds are saved (`None`: the default location).
    pub data_dir: Option<PathBuf>,
}

/// A bad command line; the message says what was wrong, then how to call crafty.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ArgsError(String);

/// A new world's game mode, as typed on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ModeArg {
    Creative,
    Survival,
}

/// A headless run's weather, as typed on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum WeatherArg {
    /// Nothing: sun and blue sky.
    Clear,
    /// Rain (snow above the snow line and in cold places).
    Rain,
    /// Snow everywhere.
    Snow,
    /// Heavy rain under a dark sky, with lightning.
    Storm,
}

impl From<WeatherArg> for WeatherKind {
    fn from(weather: WeatherArg) -> Self {
        match weather {
            WeatherArg::Clear => Self::Clear,
            WeatherArg::Rain => Self::Rain,
            WeatherArg::Snow => Self::Snow,
            WeatherArg::Storm => Self::Storm,
        }
    }
}

/// The flags as clap reads them; [`Args::parse`] checks how they combine.
#[derive(Debug, clap::Parser)]
#[command(
    name = "crafty",
    about = "crafty: the Taos voxel game with saved worlds",
    after_help = "Forms:\n  crafty [--world NAME] [--script \"...\"]          the launcher (or a world, a script played first) in a window\n  crafty --world join:NAME@HOST:PORT             join a multiplayer server (crafty-server) as NAME\n  crafty --headless --world <NAME|new:SEED> --ticks N [--mode ..] [--replay FILE] [--screenshot out.png] [--size WxH] [--time HH:MM] [--weather clear|rain|snow|storm] [--view N]\n  crafty --make-replay FILE --script \"walk 60, look-down 15, break, place\"\n  crafty --apply-edits FILE                      save edits the window exported when saving failed\n\nEvery form accepts --data-dir DIR (default: the platform data dir, or TAOS_DATA_DIR)."
)]
struct Cli {
    /// Run without a window: play --ticks ticks deterministically, save, exit.
    #[arg(long)]
    headless: bool,
    /// The world: a saved world's name, or new:SEED for a new one (headless).
    #[arg(long, value_name = "NAME|new:SEED|join:NAME@HOST:PORT")]
    world: Option<String>,
    /// Game mode of a new world.
    #[arg(long, value_enum, default_value = "creative")]
    mode: ModeArg,
    /// Replay file (action flags per tick) to feed a headless run.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Ticks to simulate headless (60 per second).
    #[arg(long, value_name = "N")]
    ticks: Option<u64>,
    /// Where to write the final headless frame (PNG).
    #[arg(long, value_name = "PATH")]
    screenshot: Option<PathBuf>,
    /// Screenshot size.
    #[arg(long, value_name = "WxH", default_value = "640x360")]
    size: String,
    /// Time of day to start a headless run at (06:00 sunrise, 12:00 noon, 18:00 sunset).
    #[arg(long, value_name = "HH:MM")]
    time: Option<String>,
    /// Weather to start a headless run in.
    #[arg(long, value_enum)]
    weather: Option<WeatherArg>,
    /// View distance in chunks, 2 to 64 (level-of-detail terrain beyond 8).
    #[arg(long, value_name = "N")]
    view: Option<i32>,
    /// Where worlds are saved.
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Compile --script into this replay file and exit.
    #[arg(long, value_name = "FILE")]
    make_replay: Option<PathBuf>,
    /// An input script (see the crafty chapter): for --make-replay, or played
    /// in the window's first world before the player takes over.
    #[arg(long, value_name = "SCRIPT")]
    script: Option<String>,
    /// Save the edits of a file the window exported when saving failed
    /// ("Export unsaved edits"), then exit.
    #[arg(long, value_name = "FILE")]
    apply_edits: Option<PathBuf>,
}

impl Args {
    /// Parses arguments (without the program name).
    ///
    /// # Errors
    /// [`ArgsError`] naming the bad or missing argument.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Self, ArgsError> {
        use clap::Parser as _;
        let program = std::iter::once(String::from("crafty"));
        let cli = match Cli::try_parse_from(program.chain(args)) {
            Ok(cli) => cli,
            Err(error) if error.kind() == clap::error::ErrorKind::DisplayHelp => {
                return Ok(Self {
                    command: Command::Help(error.render().to_string()),
                    data_dir: None,
                });
            }
            Err(error) => return Err(ArgsError(error.render().to_string())),
        };
        let size = parse_size(&cli.size)?;
        let range = crate::settings::VIEW_DISTANCES;
        if let Some(view) = cli.view
            && !range.contains(&view)
        {
            return Err(ArgsError(format!(
                "--view must be {} to {} chunks, not {view}",
                range.start(),
                range.end()
            )));
        }
        let mode = match cli.mode {
            ModeArg::Creative => GameMode::Creative,
            ModeArg::Survival => GameMode::Survival,
        };
        let command = if let Some(file) = cli.apply_edits {
            Command::ApplyEdits { file }
        } else if let Some(out) = cli.make_replay {
            let script = cli
                .script
                .ok_or_else(|| ArgsError("--make-replay needs --script \"...\"".into()))?;
            Command::MakeReplay { out, script }
        } else if cli.headless {
            let world = cli.world.ok_or_else(|| {
                ArgsError("--headless needs --world NAME or --world new:SEED".into())
            })?;
            let ticks = cli
                .ticks
                .ok_or_else(|| ArgsError("--headless needs --ticks N".into()))?;
            Command::Headless(HeadlessArgs {
                world: parse_world(&world)?,
                mode,
                replay: cli.replay,
                ticks,
                screenshot: cli.screenshot,
                size,
                time: cli.time.as_deref().map(parse_clock).transpose()?,
                weather: cli.weather.map(WeatherKind::from),
                view: cli.view,
            })
        } else {
            Command::Window {
                world: cli.world,
                script: cli.script,
                view: cli.view,
            }
        };
        Ok(Self {
            command,
            data_dir: cli.data_dir,
        })
    }
}

impl WorldChoice {
    /// Reads `NAME`, `new:SEED` or `join:NAME@ADDRESS` (as `--world` takes
    /// it).
    ///
    /// # Errors
    /// An empty name, a seed that is not a whole number, or a player name
    /// a server would refuse.
    pub fn parse(text: &str) -> Result<Self, ArgsError> {
        parse_world(text)
    }
}

fn parse_world(text: &str) -> Result<WorldChoice, ArgsError> {
    if let Some(join) = text.strip_prefix("join:") {
        let (name, address) = join.split_once('@').unwrap_or(("", ""));
        if !crafty_net::protocol::valid_name(name) || address.is_empty() {
            return Err(ArgsError(format!(
                "{text:?}: joining a server reads join:NAME@HOST:PORT, NAME being 1 to {} \
                 letters, digits, _ or -",
                crafty_net::protocol::MAX_NAME_CHARS
            )));
        }
        return Ok(WorldChoice::Join {
            name: name.to_owned(),
            address: address.to_owned(),
        });
    }
    match text.strip_prefix("new:") {
        Some(seed) => seed
            .parse::<u64>()
            .map(WorldChoice::New)
            .map_err(|_| ArgsError(format!("the seed in {text:?} must be a whole number"))),
        None if text.is_empty() => Err(ArgsError("--world needs a name".into())),
        None => Ok(WorldChoice::Named(text.to_owned())),
    }
}

/// `HH:MM` (00:00 to 23:59) as minutes after midnight.
fn parse_clock(text: &str) -> Result<u16, ArgsError> {
    let bad = || {
        ArgsError(format!(
            "--time must look like 18:30 (00:00 to 23:59), not {text:?}"
        ))
    };
    let (h, m) = text.split_once(':').ok_or_else(bad)?;
    let (h, m) = (
        h.parse::<u16>().map_err(|_| bad())?,
        m.parse::<u16>().map_err(|_| bad())?,
    );
    if h > 23 || m > 59 || text.len() > 5 {
        return Err(bad());
    }
    Ok(h * 60 + m)
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
    fn help_is_clap_s_and_names_every_flag() {
        let Command::Help(text) = parse("--help").unwrap().command else {
            panic!("--help is not an error");
        };
        for flag in [
            "--headless",
            "--world",
            "--ticks",
            "--make-replay",
            "--data-dir",
        ] {
            assert!(text.contains(flag), "{flag} missing from the help");
        }
    }

    #[test]
    fn no_arguments_opens_the_launcher() {
        assert_eq!(
            parse("").unwrap().command,
            Command::Window {
                world: None,
                script: None,
                view: None,
            }
        );
    }

    #[test]
    fn a_window_world_can_play_a_script_first() {
        let args =
            Args::parse(["--world", "new:42", "--script", "look-down 40, break"].map(String::from))
                .unwrap();
        assert_eq!(
            args.command,
            Command::Window {
                world: Some("new:42".to_owned()),
                script: Some("look-down 40, break".to_owned()),
                view: None,
            }
        );
    }

    #[test]
    fn headless_run_parses_every_option() {
        let args = parse(
            "--headless --world new:42 --mode survival --replay r.bin --ticks 600 \
             --screenshot out.png --size 320x180 --time 18:30 --weather storm --view 64 \
             --data-dir /tmp/w",
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
                time: Some(18 * 60 + 30),
                weather: Some(WeatherKind::Storm),
                view: Some(64),
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
        assert!(message("--ticks").contains("--ticks"));
        assert!(message("--bogus").contains("--bogus"));
        assert!(message("--make-replay r.bin").contains("--script"));
        for bad in ["24:00", "12:60", "noon", "7", "07:5x"] {
            let said = message(&format!("--headless --world new:1 --ticks 1 --time {bad}"));
            assert!(said.contains("--time"), "{bad}: {said}");
        }
        let said = message("--headless --world new:1 --ticks 1 --view 65");
        assert!(said.contains("--view must be 2 to"), "{said}");
        let said = message("--headless --world new:1 --ticks 1 --weather hail");
        assert!(
            said.contains("--weather") && said.contains("storm"),
            "{said}"
        );
    }
}
