//! `crafty-server`: one crafty world served over WebSocket.
//!
//! ```text
//! cargo run --release -p crafty_server --bin crafty-server -- --port 30000 --data ./server-data
//! ```
//!
//! Options: `--port N` (30000; 0 picks a free one), `--bind ADDRESS`
//! (127.0.0.1; 0.0.0.0 serves the network), `--data DIR` (where the world
//! and the players are saved; the platform's data folder by default),
//! `--seed N` (1, for a new world), `--max-players N` (15), `--tick-hz N`
//! (20). It prints `listening on ADDRESS` once it accepts clients, and on
//! SIGINT or SIGTERM says goodbye to every client, saves, and exits.

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::mpsc;

use crafty_server::socket::Wake;
use crafty_server::{ServerConfig, ServerStore, serve};
use taos_storage::{RedbBackend, block_on};

struct Options {
    config: ServerConfig,
    bind: String,
    port: u16,
    data: Option<PathBuf>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        config: ServerConfig::default(),
        bind: "127.0.0.1".to_owned(),
        port: 30_000,
        data: None,
    };
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        let number = |text: String| {
            text.parse::<u64>()
                .map_err(|_| format!("{flag} takes a number, not {text:?}"))
        };
        match flag.as_str() {
            "--port" => {
                options.port = u16::try_from(number(value()?)?)
                    .map_err(|_| "--port is at most 65535".to_owned())?;
            }
            "--bind" => options.bind = value()?,
            "--data" => options.data = Some(PathBuf::from(value()?)),
            "--seed" => options.config.seed = number(value()?)?,
            "--max-players" => {
                options.config.max_players = usize::try_from(number(value()?)?)
                    .map_err(|_| "--max-players is too large".to_owned())?;
            }
            "--tick-hz" => {
                let hz = number(value()?)?;
                if !(1..=120).contains(&hz) {
                    return Err("--tick-hz is 1 to 120".to_owned());
                }
                options.config.tick_hz = hz as u32;
            }
            "--help" | "-h" => {
                return Err(
                    "usage: crafty-server [--port N] [--bind ADDRESS] [--data DIR] [--seed N] \
                     [--max-players N] [--tick-hz N]"
                        .to_owned(),
                );
            }
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    Ok(options)
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("crafty-server: {message}");
            std::process::exit(2);
        }
    };
    if let Err(message) = run(&options) {
        eprintln!("crafty-server: {message}");
        std::process::exit(1);
    }
}

fn run(options: &Options) -> Result<(), String> {
    let backend = match &options.data {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            RedbBackend::new(dir)
        }
        None => RedbBackend::from_env().map_err(|e| e.to_string())?,
    };
    let store =
        block_on(ServerStore::open(&backend, "crafty-server")).map_err(|e| e.to_string())?;
    let listener = TcpListener::bind((options.bind.as_str(), options.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", options.bind, options.port))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let (wake, wakes) = mpsc::channel();
    let on_signal = wake.clone();
    ctrlc::set_handler(move || {
        let _ = on_signal.send(Wake::Shutdown);
    })
    .map_err(|e| format!("cannot catch signals: {e}"))?;
    println!(
        "crafty-server: listening on {address} (seed {})",
        options.config.seed
    );
    let stats = serve(options.config, listener, store, wake, &wakes).map_err(|e| e.to_string())?;
    println!(
        "crafty-server: saved {} players and {} edits; {} ticks; {} idle wake-ups",
        stats.records_saved, stats.edits, stats.ticks, stats.idle_wakeups
    );
    Ok(())
}
