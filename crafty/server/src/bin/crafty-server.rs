//! `crafty-server`: one crafty world served over WebSocket.
//!
//! ```text
//! cargo run --release -p crafty_server --bin crafty-server -- --port 30000 --data ./server-data
//! ```
//!
//! Options: `--port N` (30000; 0 picks a free one), `--bind ADDRESS`
//! (127.0.0.1; 0.0.0.0 serves the network), `--data DIR` (where the world
//! and the players are saved; the platform's data folder by default),
//! `--database URL` (a PostgreSQL database instead, which several servers
//! share), `--world NAME` (which world of the database, `crafty-server`),
//! `--advertise ADDRESS` (where players reach this server, kept in the
//! lease), `--lease-timeout SECONDS` (5), `--seed N` (1, for a new world),
//! `--max-players N` (15), `--tick-hz N` (20), `--max-connections N` (64:
//! open connections in all, joining or playing), `--max-per-address N` (8:
//! open connections from one IP address; one over either cap is closed
//! with WebSocket code 1013, "try again later"), `--tls-cert FILE` and
//! `--tls-key FILE` (both or neither: the server's certificate chain and
//! private key, PEM, such as Let's Encrypt's `fullchain.pem` and
//! `privkey.pem`; with them it speaks only `wss://`, without them
//! `ws://`, in clear).
//!
//! With `--database`, the server first takes the world's lease: if
//! another server hosts the world it stands by (not listening) and takes
//! the world over once the host's beat has stood still for the lease
//! timeout. It prints `listening on ADDRESS (seed N)` once it accepts
//! clients (`… over TLS` after it with a certificate), and
//! on SIGINT or SIGTERM says goodbye to every client, saves, gives the
//! lease up, and exits.

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use crafty_server::lease::{HostId, LEASE_TIMEOUT, wait_to_host};
use crafty_server::socket::{
    ConnectionLimits, MAX_CONNECTIONS, MAX_PER_ADDRESS, TlsIdentity, Wake,
};
use crafty_server::{ServerConfig, ServerStore, serve_within};
use taos_storage::{Database, RedbBackend, block_on};
use taos_storage_postgres::PostgresBackend;

/// The most of the world's database file the server keeps in memory.
const REDB_CACHE_BYTES: usize = 16 * 1024 * 1024;

/// What the server runs with, from the command line.
#[derive(Debug)]
struct Options {
    config: ServerConfig,
    limits: ConnectionLimits,
    bind: String,
    port: u16,
    data: Option<PathBuf>,
    database: Option<String>,
    world: String,
    advertise: Option<String>,
    lease_timeout: Duration,
    /// The certificate chain and key files, for `wss://`.
    tls: Option<(PathBuf, PathBuf)>,
}

/// The command line as clap reads it.
#[derive(Debug, clap::Parser)]
#[command(
    name = "crafty-server",
    about = "One crafty world served over WebSocket",
    long_about = "One crafty world served over WebSocket (wss:// with --tls-cert and --tls-key, \
                  ws:// without). Prints `listening on ADDRESS (seed N)` once it accepts clients \
                  (followed by `over TLS` with a certificate); on SIGINT or SIGTERM says goodbye \
                  to every client, saves, and exits."
)]
struct Cli {
    /// The port to listen on (0 picks a free one).
    #[arg(long, value_name = "N", default_value_t = 30_000)]
    port: u16,
    /// The address to listen on (0.0.0.0 serves the network).
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    bind: String,
    /// Where the world and the players are saved (the platform's data
    /// folder by default).
    #[arg(long, value_name = "DIR", conflicts_with = "database")]
    data: Option<PathBuf>,
    /// A PostgreSQL database to keep the world in (postgres://user@host/db
    /// or key=value settings), which several servers may share: one hosts
    /// each world, the others stand by.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Which world of the database this server serves.
    #[arg(long, value_name = "NAME", default_value = "crafty-server")]
    world: String,
    /// Where players reach this server (kept in the world's lease, for the
    /// others to say); the listening address by default.
    #[arg(long, value_name = "ADDRESS")]
    advertise: Option<String>,
    /// Seconds a host's lease may stand still before a standing-by server
    /// takes the world over.
    #[arg(long, value_name = "SECONDS", default_value_t = LEASE_TIMEOUT.as_secs_f64())]
    lease_timeout: f64,
    /// The seed of a new world.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().seed)]
    seed: u64,
    /// The most players playing at once.
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_players)]
    max_players: usize,
    /// Ticks per second (1 to 120).
    #[arg(
        long,
        value_name = "N",
        default_value_t = ServerConfig::default().tick_hz,
        value_parser = clap::value_parser!(u32).range(1..=120)
    )]
    tick_hz: u32,
    /// The most connections open at once, joining or playing; one more
    /// is closed with WebSocket code 1013 ("try again later") and "the
    /// server is full".
    #[arg(
        long,
        value_name = "N",
        default_value_t = MAX_CONNECTIONS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    max_connections: usize,
    /// The most connections open at once from one IP address; one more is
    /// closed with WebSocket code 1013 and "too many connections from your
    /// address".
    #[arg(
        long,
        value_name = "N",
        default_value_t = MAX_PER_ADDRESS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    max_per_address: usize,
    /// The server's certificate chain (PEM, its own certificate first, as
    /// in Let's Encrypt's fullchain.pem): with --tls-key, the server
    /// speaks only wss:// (TLS). Without both, ws://, in clear (player
    /// tokens too: use TLS beyond loopback or a trusted LAN).
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert's certificate (PEM: PKCS#8, PKCS#1
    /// or SEC1, as in Let's Encrypt's privkey.pem).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
}

impl From<Cli> for Options {
    fn from(cli: Cli) -> Self {
        Self {
            config: ServerConfig {
                seed: cli.seed,
                max_players: cli.max_players,
                tick_hz: cli.tick_hz,
                ..ServerConfig::default()
            },
            limits: ConnectionLimits {
                total: cli.max_connections,
                per_address: cli.max_per_address,
            },
            bind: cli.bind,
            port: cli.port,
            data: cli.data,
            database: cli.database,
            world: cli.world,
            advertise: cli.advertise,
            lease_timeout: Duration::try_from_secs_f64(cli.lease_timeout.max(0.1))
                .unwrap_or(LEASE_TIMEOUT),
            tls: cli.tls_cert.zip(cli.tls_key),
        }
    }
}

/// Parses `args` (with the program name first); `--help` and a bad
/// command line are clap's errors (exit 0 and 2 when
/// [`exit`](clap::Error::exit)ed).
fn parse<I, T>(args: I) -> Result<Options, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::Parser as _;
    Cli::try_parse_from(args).map(Options::from)
}

fn main() {
    let options = parse(std::env::args_os()).unwrap_or_else(|e| e.exit());
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    if let Err(message) = run(&options) {
        eprintln!("crafty-server: {message}");
        std::process::exit(1);
    }
}

fn run(options: &Options) -> Result<(), String> {
    // A bad certificate or key is said before anything else happens.
    let tls = match &options.tls {
        Some((cert, key)) => {
            Some(TlsIdentity::from_pem_files(cert, key).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let (wake, wakes) = mpsc::channel();
    let stopping = Arc::new(AtomicBool::new(false));
    let on_signal = wake.clone();
    let stop = Arc::clone(&stopping);
    ctrlc::set_handler(move || {
        stop.store(true, Ordering::SeqCst);
        let _ = on_signal.send(Wake::Shutdown);
    })
    .map_err(|e| format!("cannot catch signals: {e}"))?;
    if let Some(url) = &options.database {
        let backend = PostgresBackend::connect(url).map_err(|e| e.to_string())?;
        let store =
            block_on(ServerStore::open(&backend, &options.world)).map_err(|e| e.to_string())?;
        let advertised = options
            .advertise
            .clone()
            .unwrap_or_else(|| format!("{}:{}", options.bind, options.port));
        let me = HostId::new();
        let hosting = wait_to_host(
            &store,
            me,
            &advertised,
            options.lease_timeout,
            Duration::from_millis(250),
            || stopping.load(Ordering::SeqCst),
        )
        .map_err(|e| e.to_string())?;
        if !hosting {
            println!("crafty-server: stopped while standing by");
            return Ok(());
        }
        println!("crafty-server: hosting world {} as {me}", options.world);
        return listen_and_serve(options, tls, store, wake, &wakes);
    }
    let backend = match &options.data {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            RedbBackend::new(dir)
        }
        None => RedbBackend::from_env().map_err(|e| e.to_string())?,
    }
    // A server saves every tick for days: redb's page cache (1 GiB by
    // default) would grow with its file; the OS caches the file anyway.
    .with_cache_size(REDB_CACHE_BYTES);
    let store = block_on(ServerStore::open(&backend, &options.world)).map_err(|e| e.to_string())?;
    listen_and_serve(options, tls, store, wake, &wakes)
}

fn listen_and_serve<D: Database + Send + Sync + 'static>(
    options: &Options,
    tls: Option<TlsIdentity>,
    store: ServerStore<D>,
    wake: mpsc::Sender<Wake>,
    wakes: &mpsc::Receiver<Wake>,
) -> Result<(), String> {
    let listener = TcpListener::bind((options.bind.as_str(), options.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", options.bind, options.port))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    // Tests read the address as the word after "listening on".
    println!(
        "crafty-server: listening on {address} (seed {}){}",
        options.config.seed,
        if tls.is_some() { " over TLS" } else { "" }
    );
    let stats = serve_within(
        options.config,
        options.limits,
        tls,
        listener,
        store,
        wake,
        wakes,
    )
    .map_err(|e| e.to_string())?;
    println!(
        "crafty-server: saved {} players and {} edits ({} chunks changed); {} ticks; {} idle wake-ups",
        stats.records_saved, stats.edits, stats.changed_chunks, stats.ticks, stats.idle_wakeups
    );
    let mib = |bytes: Option<u64>| {
        bytes.map_or("-".to_owned(), |b| {
            format!("{:.1} MiB", b as f64 / 1048576.0)
        })
    };
    println!(
        "crafty-server: tick p50 {:?}, p99 {:?}, max {:?} (saving p50 {:?}, p99 {:?}); memory after the first minute {}, at the last {}",
        stats.tick_p50,
        stats.tick_p99,
        stats.tick_max,
        stats.save_p50,
        stats.save_p99,
        mib(stats.memory_first_minute),
        mib(stats.memory_last_minute)
    );
    if stats.memory_by_minute.len() > 2 {
        let minutes: Vec<String> = stats
            .memory_by_minute
            .iter()
            .map(|&bytes| mib(Some(bytes)))
            .collect();
        println!(
            "crafty-server: memory minute by minute: {}",
            minutes.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Options {
        parse(std::iter::once("crafty-server").chain(args.iter().copied())).unwrap()
    }

    #[test]
    fn the_defaults_are_the_old_ones() {
        let options = parsed(&[]);
        assert_eq!(options.port, 30_000);
        assert_eq!(options.bind, "127.0.0.1");
        assert_eq!(options.data, None);
        let default = ServerConfig::default();
        assert_eq!(options.config.seed, default.seed);
        assert_eq!(options.config.max_players, default.max_players);
        assert_eq!(options.config.tick_hz, default.tick_hz);
        assert_eq!(options.limits, ConnectionLimits::default());
        assert_eq!((MAX_CONNECTIONS, MAX_PER_ADDRESS), (64, 8));
        assert_eq!(
            (default.seed, default.max_players, default.tick_hz),
            (1, 15, 20)
        );
    }

    #[test]
    fn every_old_option_parses_to_the_same_value() {
        let options = parsed(&[
            "--port",
            "0",
            "--bind",
            "0.0.0.0",
            "--data",
            "server-data",
            "--seed",
            "42",
            "--max-players",
            "3",
            "--tick-hz",
            "120",
        ]);
        assert_eq!(options.port, 0);
        assert_eq!(options.bind, "0.0.0.0");
        assert_eq!(options.data, Some(PathBuf::from("server-data")));
        assert_eq!(options.config.seed, 42);
        assert_eq!(options.config.max_players, 3);
        assert_eq!(options.config.tick_hz, 120);
    }

    #[test]
    fn the_connection_caps_parse() {
        let options = parsed(&["--max-connections", "10", "--max-per-address", "2"]);
        assert_eq!(
            options.limits,
            ConnectionLimits {
                total: 10,
                per_address: 2
            }
        );
    }

    #[test]
    fn what_the_old_parser_refused_is_still_refused() {
        let refused = |args: &[&str]| {
            parse(std::iter::once("crafty-server").chain(args.iter().copied())).is_err()
        };
        assert!(refused(&["--port", "65536"]));
        assert!(refused(&["--port"]));
        assert!(refused(&["--seed", "x"]));
        assert!(refused(&["--tick-hz", "0"]));
        assert!(refused(&["--tick-hz", "121"]));
        assert!(refused(&["--frobnicate"]));
        assert!(refused(&["--max-connections", "0"]));
        assert!(refused(&["--max-per-address", "-1"]));
        assert!(refused(&["--tls-cert", "cert.pem"]));
        assert!(refused(&["--tls-key", "key.pem"]));
    }

    #[test]
    fn a_certificate_and_its_key_parse_together() {
        let options = parsed(&["--tls-cert", "cert.pem", "--tls-key", "key.pem"]);
        assert_eq!(
            options.tls,
            Some((PathBuf::from("cert.pem"), PathBuf::from("key.pem")))
        );
        assert_eq!(parsed(&[]).tls, None);
    }
}
