//! `taos web build`: a game crate to a folder a static server can serve.
//!
//! Steps, each announced as `== ...` on stderr: find the game (cargo
//! metadata), match the wasm-bindgen CLI to `Cargo.lock`, add the wasm32
//! target, `cargo build --target wasm32-unknown-unknown --profile web`,
//! `wasm-bindgen --target web`, `wasm-opt -Os`, the page, the assets, and
//! the size report.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};

use crate::metadata::{self, Package, Workspace};
use crate::page::{self, PageVars};
use crate::process::{self, say, warn};
use crate::tools::{self, WASM_OPT_FEATURES, WASM_TARGET};

/// The profile a web build uses unless told otherwise.
pub const DEFAULT_PROFILE: &str = "web";

/// `profile.web` as `--config` values, for workspaces that do not define
/// it: `release`, optimised for size, thin LTO, no debug info.
pub const WEB_PROFILE_CONFIG: [&str; 4] = [
    r#"profile.web.inherits="release""#,
    r#"profile.web.opt-level="s""#,
    r#"profile.web.lto="thin""#,
    r#"profile.web.strip="debuginfo""#,
];

/// What to build, and how (the command line's flags).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildOptions {
    /// `--manifest-path`: the game's (or its workspace's) `Cargo.toml`.
    pub manifest_path: Option<PathBuf>,
    /// `-p`: the package.
    pub package: Option<String>,
    /// `--bin`: the binary.
    pub bin: Option<String>,
    /// `--out`: the output folder (default `<workspace>/dist/<bin>`).
    pub out: Option<PathBuf>,
    /// `--page`: the page template (default the game's `web/index.html`,
    /// else the built-in page).
    pub page: Option<PathBuf>,
    /// `--assets`: the asset folder (default the game's `assets/`).
    pub assets: Option<PathBuf>,
    /// `--no-assets`: copy no asset folder.
    pub no_assets: bool,
    /// `--profile`.
    pub profile: String,
    /// Whether to run `wasm-opt` (off with `--no-wasm-opt` or `TAOS_WASM_OPT=0`).
    pub wasm_opt: bool,
    /// `--title`: the page's title (default the binary's name).
    pub title: Option<String>,
    /// `--also-build PACKAGE:BIN`: other binaries of the workspace built in
    /// the same cargo run (linked side by side), not packaged; a later
    /// `taos web build` of one finds it fresh.
    pub also_build: Vec<AlsoBuild>,
}

/// A binary built beside the game in the same cargo run (`--also-build`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlsoBuild {
    /// Its package.
    pub package: String,
    /// Its binary.
    pub bin: String,
}

impl std::str::FromStr for AlsoBuild {
    type Err = String;

    /// Parses `PACKAGE:BIN`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.split_once(':') {
            Some((package, bin)) if !package.is_empty() && !bin.is_empty() => Ok(Self {
                package: package.into(),
                bin: bin.into(),
            }),
            _ => Err(format!("`{text}` is not PACKAGE:BIN")),
        }
    }
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            manifest_path: None,
            package: None,
            bin: None,
            out: None,
            page: None,
            assets: None,
            no_assets: false,
            profile: DEFAULT_PROFILE.into(),
            wasm_opt: true,
            title: None,
            also_build: Vec::new(),
        }
    }
}

/// The game a build is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The workspace it lives in.
    pub workspace: Workspace,
    /// Its package.
    pub package: Package,
    /// The binary built.
    pub bin: String,
}

impl Game {
    /// The default output folder: `<workspace root>/dist/<bin>`.
    pub fn default_out(&self) -> PathBuf {
        self.workspace.root.join("dist").join(&self.bin)
    }
}

/// Finds the game with `cargo metadata`: the package and binary chosen as
/// [`metadata::select_package`] and [`metadata::select_bin`] say.
pub fn find_game(
    manifest_path: Option<&Path>,
    package: Option<&str>,
    bin: Option<&str>,
) -> anyhow::Result<Game> {
    let mut command = process::cargo();
    command.args(["metadata", "--format-version", "1", "--no-deps"]);
    if let Some(manifest) = manifest_path {
        command.arg("--manifest-path").arg(manifest);
    }
    let json = process::capture(
        &mut command,
        "cargo metadata",
        "run this in a game crate's folder, or name its Cargo.toml with --manifest-path",
    )?;
    let workspace = metadata::parse(&json)?;
    let cwd = std::env::current_dir().context("the current folder cannot be read")?;
    let package = metadata::select_package(&workspace, package, manifest_path, &cwd)?.clone();
    let bin = metadata::select_bin(&package, bin)?.to_string();
    Ok(Game {
        workspace,
        package,
        bin,
    })
}

/// Runs the whole build; returns the output folder.
pub fn build(options: &BuildOptions) -> anyhow::Result<PathBuf> {
    let game = find_game(
        options.manifest_path.as_deref(),
        options.package.as_deref(),
        options.bin.as_deref(),
    )?;
    let out = options.out.clone().unwrap_or_else(|| game.default_out());
    say(&format!(
        "{} (binary {}) from {}",
        game.package.name,
        game.bin,
        game.package.manifest_path.display()
    ));

    let version = wasm_bindgen_version(&game)?;
    tools::ensure_wasm_target()?;
    let wasm_bindgen = tools::ensure_wasm_bindgen(&version)?;
    let wasm_opt = if options.wasm_opt {
        tools::find_wasm_opt()
    } else {
        say(
            "wasm-opt skipped (--no-wasm-opt or TAOS_WASM_OPT=0): the wasm is left as rustc made it",
        );
        None
    };

    let wasm = cargo_build(&game, &options.profile, &options.also_build)?;
    let stem = wasm
        .file_stem()
        .and_then(|s| s.to_str())
        .context("the built wasm has no file name")?
        .to_string();
    let js = format!("{stem}.js");
    let bg_wasm = format!("{stem}_bg.wasm");

    fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    clear_earlier_output(&out, &js, &bg_wasm)?;

    say(&format!("wasm-bindgen --target web {}", wasm.display()));
    let mut bindgen = Command::new(&wasm_bindgen);
    bindgen
        .args([
            "--target",
            "web",
            "--no-typescript",
            "--out-name",
            &stem,
            "--out-dir",
        ])
        .arg(&out)
        .arg(&wasm);
    process::run(
        &mut bindgen,
        "wasm-bindgen",
        "its version must match the wasm-bindgen crate in Cargo.lock exactly; \
         `cargo update -p wasm-bindgen` and a rebuild fix a stale lock",
    )?;
    let out_wasm = out.join(&bg_wasm);

    if let Some(wasm_opt) = wasm_opt {
        say(&format!("wasm-opt -Os {stem}"));
        let optimised = out.join(format!("{bg_wasm}.opt"));
        let mut command = Command::new(&wasm_opt);
        command
            .arg("-Os")
            .args(WASM_OPT_FEATURES)
            .arg(&out_wasm)
            .arg("-o")
            .arg(&optimised);
        process::run(
            &mut command,
            "wasm-opt",
            "skip it with --no-wasm-opt (a bigger wasm), or install binaryen 116 or newer",
        )?;
        fs::rename(&optimised, &out_wasm)?;
    }

    write_page(options, &game, &out, &js, &bg_wasm)?;
    copy_assets(options, &game, &out)?;

    let report = crate::size::report(&format!("{stem}.wasm"), &out_wasm)
        .with_context(|| format!("cannot read {}", out_wasm.display()))?;
    fs::write(out.join("size.txt"), format!("{report}\n"))?;
    eprintln!("{report}");
    say(&format!("built {}/", out.display()));
    Ok(out)
}

/// The `wasm-bindgen` crate's version in the workspace's `Cargo.lock`
/// (generated first if there is none).
fn wasm_bindgen_version(game: &Game) -> anyhow::Result<String> {
    let lock_path = game.workspace.root.join("Cargo.lock");
    if !lock_path.exists() {
        say("cargo generate-lockfile (the workspace has no Cargo.lock yet)");
        let mut command = process::cargo();
        command
            .args(["generate-lockfile", "--manifest-path"])
            .arg(game.workspace.root.join("Cargo.toml"));
        process::run(&mut command, "cargo generate-lockfile", "check the network")?;
    }
    let lock = fs::read_to_string(&lock_path)
        .with_context(|| format!("cannot read {}", lock_path.display()))?;
    match crate::lock::package_versions(&lock, "wasm-bindgen").as_slice() {
        [version] => Ok(version.clone()),
        [] => bail!(
            "{} does not depend on wasm-bindgen (it is not in {}): a game for the browser \
             needs it; depend on taos_engine, which brings it on wasm32",
            game.package.name,
            lock_path.display()
        ),
        several => bail!(
            "{} holds several wasm-bindgen versions ({}): the JS glue can match only one; \
             unify them with `cargo update -p wasm-bindgen`",
            lock_path.display(),
            several.join(", ")
        ),
    }
}

/// Whether the workspace defines `[profile.NAME]` itself (its manifest or
/// its `.cargo/config.toml`).
fn defines_profile(root: &Path, name: &str) -> bool {
    let header = format!("[profile.{name}");
    [
        root.join("Cargo.toml"),
        root.join(".cargo").join("config.toml"),
    ]
    .iter()
    .filter_map(|p| fs::read_to_string(p).ok())
    .any(|text| {
        text.lines().any(|line| {
            let line = line.trim();
            line.strip_prefix(&header)
                .is_some_and(|rest| rest.starts_with(']') || rest.starts_with('.'))
        })
    })
}

/// `cargo build` for wasm32; returns the built `.wasm`.
fn cargo_build(game: &Game, profile: &str, also: &[AlsoBuild]) -> anyhow::Result<PathBuf> {
    let mut command = process::cargo();
    command
        .arg("build")
        .arg("--manifest-path")
        .arg(&game.package.manifest_path)
        .args(["--target", WASM_TARGET, "--profile", profile])
        .args(["-p", &game.package.name, "--bin", &game.bin]);
    for other in also {
        command.args(["-p", &other.package, "--bin", &other.bin]);
    }
    command.args(["--message-format", "json-render-diagnostics"]);
    if profile == DEFAULT_PROFILE && !defines_profile(&game.workspace.root, profile) {
        for value in WEB_PROFILE_CONFIG {
            command.args(["--config", value]);
        }
    }
    say(&process::display(&command));
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .context("cargo build: cargo could not be started")?;
    let stdout = child.stdout.take().context("cargo build: no output")?;
    let mut built = None;
    for line in BufReader::new(stdout).lines() {
        if let Some(path) = wasm_artifact(&line?, &game.bin) {
            built = Some(path);
        }
    }
    let status = child.wait()?;
    if !status.success() {
        bail!(
            "cargo build for {WASM_TARGET} failed ({status}): the errors are above; \
             a game must compile for the browser (see the engine's web docs)"
        );
    }
    let dir = if profile == "dev" { "debug" } else { profile };
    let wasm = built.unwrap_or_else(|| {
        game.workspace
            .target_dir
            .join(WASM_TARGET)
            .join(dir)
            .join(format!("{}.wasm", game.bin))
    });
    if !wasm.is_file() {
        bail!("cargo build succeeded, but {} is not there", wasm.display());
    }
    Ok(wasm)
}

/// The `.wasm` of binary `bin` from one line of cargo's JSON messages.
pub fn wasm_artifact(line: &str, bin: &str) -> Option<PathBuf> {
    let message: serde_json::Value = serde_json::from_str(line).ok()?;
    if message["reason"] != "compiler-artifact" || message["target"]["name"] != bin {
        return None;
    }
    let is_bin = message["target"]["kind"]
        .as_array()
        .is_some_and(|kinds| kinds.iter().any(|k| k == "bin"));
    if !is_bin {
        return None;
    }
    message["filenames"]
        .as_array()?
        .iter()
        .filter_map(|f| f.as_str())
        .find(|f| f.ends_with(".wasm"))
        .map(PathBuf::from)
}

/// Removes what an earlier build of this binary wrote into `out` (never
/// anything else: `--out` may be a folder holding other things).
fn clear_earlier_output(out: &Path, js: &str, bg_wasm: &str) -> anyhow::Result<()> {
    for name in [js, bg_wasm, "index.html", "size.txt"] {
        let path = out.join(name);
        if path.is_file() {
            fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
        }
    }
    for name in ["snippets", "assets"] {
        let path = out.join(name);
        if path.is_dir() {
            fs::remove_dir_all(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        }
    }
    Ok(())
}

/// Writes `out/index.html` from the template.
fn write_page(
    options: &BuildOptions,
    game: &Game,
    out: &Path,
    js: &str,
    bg_wasm: &str,
) -> anyhow::Result<()> {
    let game_page = game.package.dir().join("web").join("index.html");
    let (template, from) = match &options.page {
        Some(page) => (
            fs::read_to_string(page)
                .with_context(|| format!("the page {} cannot be read", page.display()))?,
            page.display().to_string(),
        ),
        None if game_page.is_file() => (
            fs::read_to_string(&game_page)
                .with_context(|| format!("cannot read {}", game_page.display()))?,
            game_page.display().to_string(),
        ),
        None => (page::DEFAULT_PAGE.to_string(), "the built-in page".into()),
    };
    let vars = PageVars {
        title: options.title.clone().unwrap_or_else(|| game.bin.clone()),
        js: js.into(),
        wasm: bg_wasm.into(),
    };
    say(&format!("index.html from {from}"));
    let path = out.join("index.html");
    fs::write(&path, page::render(&template, &vars))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Copies the asset folder to `out/assets/`, if there is one.
fn copy_assets(options: &BuildOptions, game: &Game, out: &Path) -> anyhow::Result<()> {
    if options.no_assets {
        return Ok(());
    }
    let from = match &options.assets {
        Some(dir) => dir.clone(),
        None => {
            let dir = game.package.dir().join("assets");
            if !dir.is_dir() {
                return Ok(());
            }
            dir
        }
    };
    say(&format!("assets from {}/", from.display()));
    let copied = crate::assets::copy_assets(&from, &out.join("assets"))?;
    for skipped in &copied.skipped {
        warn(&format!("asset skipped: {skipped}"));
    }
    say(&format!(
        "{} asset files, {} bytes",
        copied.files, copied.bytes
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_dir::TestDir;

    #[test]
    fn the_wasm_comes_from_the_bins_artifact_message() {
        let line = r#"{"reason":"compiler-artifact","target":{"kind":["bin"],"name":"my-game"},
            "filenames":["/t/wasm32-unknown-unknown/web/my-game.wasm"],"fresh":true}"#
            .replace('\n', "");
        assert_eq!(
            wasm_artifact(&line, "my-game"),
            Some(PathBuf::from("/t/wasm32-unknown-unknown/web/my-game.wasm"))
        );
        assert_eq!(wasm_artifact(&line, "other"), None);
        let lib = r#"{"reason":"compiler-artifact","target":{"kind":["lib"],"name":"my-game"},"filenames":["x.wasm"]}"#;
        assert_eq!(wasm_artifact(lib, "my-game"), None);
        assert_eq!(
            wasm_artifact(r#"{"reason":"build-finished"}"#, "my-game"),
            None
        );
        assert_eq!(wasm_artifact("not json", "my-game"), None);
    }

    #[test]
    fn also_build_reads_package_colon_bin() {
        let also: AlsoBuild = "taos_samples:samples_web".parse().unwrap();
        assert_eq!(
            (also.package.as_str(), also.bin.as_str()),
            ("taos_samples", "samples_web")
        );
        for bad in ["samples_web", ":x", "x:", ""] {
            assert!(bad.parse::<AlsoBuild>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_web_profile_is_found_where_defined() {
        let dir = TestDir::new("profile");
        dir.write(
            "a/Cargo.toml",
            b"[package]\nname = \"a\"\n\n[profile.web]\ninherits = \"release\"\n",
        );
        dir.write(
            "b/Cargo.toml",
            b"[package]\nname = \"b\"\n[profile.webby]\n[profile.release]\n",
        );
        dir.write("c/Cargo.toml", b"[package]\nname = \"c\"\n");
        dir.write(
            "c/.cargo/config.toml",
            b"[profile.web.package.\"*\"]\nopt-level = 1\n",
        );
        assert!(defines_profile(&dir.path().join("a"), "web"));
        assert!(!defines_profile(&dir.path().join("b"), "web"));
        assert!(defines_profile(&dir.path().join("c"), "web"));
        assert!(!defines_profile(&dir.path().join("missing"), "web"));
    }

    #[test]
    fn only_earlier_output_is_cleared() {
        let dir = TestDir::new("clear");
        for name in [
            "g.js",
            "g_bg.wasm",
            "index.html",
            "size.txt",
            "assets/a.png",
            "snippets/x.js",
            "mine.txt",
        ] {
            dir.write(name, b"x");
        }
        clear_earlier_output(dir.path(), "g.js", "g_bg.wasm").unwrap();
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(left, ["mine.txt"]);
    }
}
