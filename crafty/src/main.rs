//! `crafty`: the launcher and the game in a window, or headless play; in
//! the browser, the launcher and the game in the page.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    native::main()
}

/// In the page: the launcher and the game on a canvas, worlds in IndexedDB
/// (the page's address carries `?world=`; see `crafty::app::run_in_page`).
#[cfg(target_arch = "wasm32")]
fn main() {
    wasm_bindgen_futures::spawn_local(async {
        // Errors are shown in the page by `run_in_page` itself.
        let _ = crafty::app::run_in_page().await;
    });
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::process::ExitCode;
    use std::time::{SystemTime, UNIX_EPOCH};

    use anyhow::Context as _;
    use crafty::cli::{Args, Command};
    use crafty::headless::{backend, run_headless};
    use taos_engine::storage::block_on;

    fn now_ms() -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }

    pub(super) fn main() -> ExitCode {
        taos_engine::init_logging();
        match run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("crafty: {error:#}");
                ExitCode::FAILURE
            }
        }
    }

    fn run() -> anyhow::Result<()> {
        let args = Args::parse(std::env::args().skip(1))?;
        let backend = backend(args.data_dir.clone()).context("finding where worlds are saved")?;
        match args.command {
            Command::Help(text) => println!("{text}"),
            Command::MakeReplay { out, script } => {
                let recording = crafty::script::compile(&script, 0)?;
                recording
                    .save(&out)
                    .with_context(|| format!("writing {}", out.display()))?;
                println!(
                    "{} ticks written to {}",
                    recording.flags.len(),
                    out.display()
                );
            }
            Command::Headless(headless) => {
                let report = run_headless(&headless, &backend, now_ms(), |done, total| {
                    eprintln!("tick {done}/{total}");
                })?;
                for warning in &report.warnings {
                    eprintln!("warning: {warning}");
                }
                println!(
                    "world {:?} ({}): {} ticks, {} edits, state checksum {:016x}, saved {} new edits",
                    report.world_name,
                    report.world_id,
                    report.ticks,
                    report.edits,
                    report.checksum,
                    report.saved.new_edits
                );
                if let Some(path) = &headless.screenshot {
                    println!("screenshot: {}", path.display());
                }
            }
            Command::ApplyEdits { file } => {
                let bytes =
                    std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
                let unsaved = crafty::save::UnsavedEdits::from_json(&bytes)?;
                let store = block_on(crafty::save::WorldStore::open(&backend))?;
                let applied = block_on(store.apply_unsaved(&unsaved))?;
                println!(
                    "world {:?} ({}): {applied} of the file's {} edits saved (the rest were saved already)",
                    unsaved.name,
                    unsaved.world,
                    unsaved.edits.len()
                );
            }
            Command::Window {
                world,
                script,
                view,
            } => {
                let script = script
                    .map(|text| crafty::script::compile(&text, 0))
                    .transpose()?;
                crafty::app::run(backend, world, script, view, now_ms)?;
            }
        }
        Ok(())
    }
}
