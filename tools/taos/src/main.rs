//! `taos`: builds any Taos game crate for the browser, and serves it.
//!
//! ```sh
//! taos web build            # in a game crate's folder -> <workspace>/dist/<bin>/
//! taos web serve            # serves that folder on http://127.0.0.1:8080/
//! taos web build --serve    # both
//! taos assets assets [--out DIR]   # imports every glTF model into the import cache
//! ```
//!
//! This file is only the command line; see the `taos_cli` library for what
//! each step does, and what the tool is not.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use taos_cli::build::{self, BuildOptions};
use taos_cli::prepare;
use taos_cli::serve::Server;
use taos_import_cache::{Compression, ImportCache};

/// The Taos engine's command-line tool.
#[derive(Debug, Parser)]
#[command(name = "taos", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Games in the browser: build a game crate for the web, serve the result.
    #[command(subcommand)]
    Web(Web),
    /// Imports every .gltf/.glb under a folder into the import cache, so a
    /// game's first load of each finds its images decoded.
    Assets(AssetsArgs),
}

#[derive(Debug, Args)]
struct AssetsArgs {
    /// The folder of models (a game's assets/).
    folder: PathBuf,
    /// The cache folder to fill (default: the engine's, $TAOS_CACHE_DIR or
    /// the platform's cache folder plus `taos`). Ship it with the game and
    /// point `Assets::with_import_cache(ImportCache::in_folder(..))` or
    /// $TAOS_CACHE_DIR at it.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Store entries LZ4-compressed (smaller, slower to load) instead of raw.
    #[arg(long)]
    lz4: bool,
}

#[derive(Debug, Subcommand)]
enum Web {
    /// Builds a game crate for the browser into a folder any static server
    /// can serve: the JS glue, the wasm, index.html, assets/ and size.txt.
    Build(BuildArgs),
    /// Serves a folder over HTTP (static files; .wasm as application/wasm).
    Serve(ServeArgs),
}

#[derive(Debug, Args)]
struct BuildArgs {
    /// The game's Cargo.toml (default: the crate in the current folder).
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
    /// The package to build (default: the one in the current folder, or the
    /// workspace's only package with a binary).
    #[arg(short = 'p', long, value_name = "PACKAGE")]
    package: Option<String>,
    /// The binary to build (default: the package's only one).
    #[arg(long, value_name = "NAME")]
    bin: Option<String>,
    /// The output folder (default: dist/BIN in the workspace root).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The page template (default: the game's web/index.html, else a
    /// built-in page); {{TITLE}}, {{JS}} and {{WASM}} are filled in.
    #[arg(long, value_name = "FILE")]
    page: Option<PathBuf>,
    /// The asset folder, copied to assets/ in the output folder (default: the game's assets/).
    #[arg(long, value_name = "DIR", conflicts_with = "no_assets")]
    assets: Option<PathBuf>,
    /// Copy no asset folder.
    #[arg(long)]
    no_assets: bool,
    /// The cargo profile (`web`, defined here if the workspace lacks it:
    /// release, opt-level "s", thin LTO, no debug info).
    #[arg(long, value_name = "NAME", default_value = build::DEFAULT_PROFILE)]
    profile: String,
    /// Skip wasm-opt (a bigger wasm, minutes sooner); so does TAOS_WASM_OPT=0.
    #[arg(long)]
    no_wasm_opt: bool,
    /// The page's title (default: the binary's name).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Also build this binary of the workspace (PACKAGE:BIN; repeatable) in
    /// the same cargo run, linked side by side; it is not packaged, but a
    /// later `taos web build` of it finds it built.
    #[arg(long, value_name = "PACKAGE:BIN")]
    also_build: Vec<build::AlsoBuild>,
    /// Serve the folder once built (as `taos web serve`).
    #[arg(long)]
    serve: bool,
    /// With --serve: the port.
    #[arg(long, default_value_t = 8080, requires = "serve")]
    port: u16,
    /// With --serve: the address to listen on.
    #[arg(long, default_value = "127.0.0.1", requires = "serve")]
    host: String,
}

#[derive(Debug, Args)]
struct ServeArgs {
    /// The folder to serve (default: `taos web build`'s output for the crate
    /// in the current folder if it exists, else the current folder).
    dir: Option<PathBuf>,
    /// The port (0: any free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on (0.0.0.0 for other machines too).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The game's asset folder to watch: a changed file is copied into the
    /// served assets/ folder and pushed to the page, whose hot reload
    /// applies it (models, textures, sounds, scene files).
    #[arg(long, value_name = "ASSETS")]
    watch: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Web(Web::Build(args)) => web_build(args),
        Command::Web(Web::Serve(args)) => {
            let dir = args.dir.unwrap_or_else(default_serve_dir);
            serve_watching(dir, &args.host, args.port, args.watch.as_deref())
        }
        Command::Assets(args) => assets(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("taos: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn web_build(args: BuildArgs) -> anyhow::Result<()> {
    let env_off = std::env::var("TAOS_WASM_OPT").is_ok_and(|v| v == "0");
    let options = BuildOptions {
        manifest_path: args.manifest_path,
        package: args.package,
        bin: args.bin,
        out: args.out,
        page: args.page,
        assets: args.assets,
        no_assets: args.no_assets,
        profile: args.profile,
        wasm_opt: !args.no_wasm_opt && !env_off,
        title: args.title,
        also_build: args.also_build,
    };
    let out = build::build(&options)?;
    if args.serve {
        serve(out, &args.host, args.port)
    } else {
        eprintln!("serve it with: taos web serve {}", out.display());
        Ok(())
    }
}

fn megabytes(bytes: u64) -> String {
    if bytes < 1_000_000 {
        format!("{:.1} kB", bytes as f64 / 1e3)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

fn assets(args: AssetsArgs) -> anyhow::Result<()> {
    let cache = match args.out {
        Some(dir) => ImportCache::in_folder(dir),
        None => ImportCache::platform().ok_or_else(|| {
            anyhow::anyhow!("this platform has no cache folder: set TAOS_CACHE_DIR or pass --out")
        })?,
    };
    let cache = if args.lz4 {
        cache.with_compression(Compression::Lz4)
    } else {
        cache
    };
    let folder = cache.folder().map(|f| f.display().to_string());
    let started = std::time::Instant::now();
    let summary = prepare::prepare(
        &args.folder,
        &cache,
        &mut |i, n, outcome| match &outcome.result {
            Ok(stats) => eprintln!(
                "[{i}/{n}] {}: {} images ({} already cached), {} read, {} stored, {:.2} s",
                outcome.name,
                stats.images,
                stats.from_cache,
                megabytes(outcome.bytes_in),
                megabytes(stats.bytes_written),
                outcome.elapsed.as_secs_f64()
            ),
            Err(error) => eprintln!("[{i}/{n}] {}: FAILED: {error:#}", outcome.name),
        },
    )?;
    eprintln!(
        "{} models ({} failed), {} images ({} already cached): {} read, {} stored in {}, {:.1} s",
        summary.models,
        summary.failed,
        summary.images,
        summary.from_cache,
        megabytes(summary.bytes_in),
        megabytes(summary.bytes_out),
        folder.as_deref().unwrap_or("the cache"),
        started.elapsed().as_secs_f64()
    );
    if summary.failed > 0 {
        anyhow::bail!("{} of {} models failed", summary.failed, summary.models);
    }
    Ok(())
}

/// `taos web build`'s output for the crate here, if it was built; else `.`.
fn default_serve_dir() -> PathBuf {
    let in_a_crate = std::env::current_dir()
        .is_ok_and(|cwd| cwd.ancestors().any(|dir| dir.join("Cargo.toml").is_file()));
    if !in_a_crate {
        return PathBuf::from(".");
    }
    build::find_game(None, None, None)
        .map(|game| game.default_out())
        .ok()
        .filter(|dir| dir.is_dir())
        .unwrap_or_else(|| PathBuf::from("."))
}

fn serve(dir: PathBuf, host: &str, port: u16) -> anyhow::Result<()> {
    serve_watching(dir, host, port, None)
}

fn serve_watching(
    dir: PathBuf,
    host: &str,
    port: u16,
    watch: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let mut server = Server::bind(&dir, host, port)?;
    let _watch = match watch {
        Some(assets) => {
            let feed = taos_cli::changes::ChangeFeed::new();
            let served = server.root().join("assets");
            let watch = taos_cli::watch::watch_assets(assets, &served, feed.clone())?;
            eprintln!(
                "watching {}: changed files go to {} and to the page",
                assets.display(),
                served.display()
            );
            server = server.with_changes(feed);
            Some(watch)
        }
        None => None,
    };
    let addr = server.local_addr()?;
    eprintln!(
        "serving {} on http://{addr}/ (Ctrl-C stops)",
        server.root().display()
    );
    server.run();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn assets_takes_a_folder_and_an_out() {
        assert!(Cli::try_parse_from(["taos", "assets"]).is_err());
        assert!(Cli::try_parse_from(["taos", "assets", "a", "--out", "c", "--lz4"]).is_ok());
    }

    #[test]
    fn serve_flags_need_serve() {
        assert!(Cli::try_parse_from(["taos", "web", "build", "--port", "1"]).is_err());
        assert!(Cli::try_parse_from(["taos", "web", "build", "--serve", "--port", "1"]).is_ok());
        assert!(
            Cli::try_parse_from(["taos", "web", "build", "--assets", "a", "--no-assets"]).is_err()
        );
    }
}
