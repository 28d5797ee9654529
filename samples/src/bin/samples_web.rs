//! The window samples in one binary, picked by name: the samples' page in
//! the browser (`samples/?sample=NAME`, see `crafty/web/build.sh`), or natively
//! `cargo run -p taos_samples --bin samples_web -- NAME`.
//!
//! Not here: `gltf_viewer` (it opens a file from disk) and
//! `presets_compare` (it writes tiles to disk); run those natively.
//!
//! `samples/?checksum=physics` runs the physics determinism scene instead
//! of a sample and puts its checksum in the page's title and the console:
//! the number `cargo run -p taos_samples --bin physics -- --checksum`
//! prints natively.

use taos_engine::game_loop::LoopConfig;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_samples::{
    ManyLightsOptions, SampleArgs, character, character_preset, controllers, deferred_showcase,
    deferred_showcase_preset, forward_simple, forward_simple_preset, many_lights, physics,
    physics_loop, run_sample, shooter, shooter_loop, shooter_preset,
};

/// The samples this binary runs, by the name a page or command line gives.
const SAMPLES: [&str; 9] = [
    "forward_simple",
    "deferred_showcase",
    "many_lights",
    "controllers",
    "shooter",
    "character",
    "physics",
    "editor",
    "particles",
];

/// Runs sample `name` in a window (a canvas in the page).
fn run(name: &str) -> anyhow::Result<()> {
    let args = SampleArgs {
        headless: false,
        frames: 1,
        screenshot: None,
        size: (1024, 640),
    };
    let loop_config = LoopConfig::default();
    match name {
        "forward_simple" => run_sample(
            name,
            &args,
            loop_config,
            forward_simple_preset(),
            forward_simple,
        ),
        "deferred_showcase" => run_sample(
            name,
            &args,
            loop_config,
            deferred_showcase_preset(),
            deferred_showcase,
        ),
        "many_lights" => {
            let options = ManyLightsOptions::default();
            run_sample(
                name,
                &args,
                loop_config,
                options.renderer_preset(),
                move |engine| many_lights(engine, options),
            )
        }
        "controllers" => run_sample(
            name,
            &args,
            loop_config,
            forward_preset(PresetOptions::default()),
            controllers,
        ),
        "shooter" => run_sample(name, &args, shooter_loop(), shooter_preset(), shooter),
        "character" => run_sample(name, &args, loop_config, character_preset(), character),
        "physics" => run_sample(
            name,
            &args,
            physics_loop(),
            forward_preset(PresetOptions::default()),
            physics,
        ),
        "editor" => Ok(taos_engine::Engine::run_app(
            name,
            taos_engine::EngineConfig::new(args.size.0, args.size.1),
            forward_preset(PresetOptions::default()),
            taos_samples::EditorSample::default(),
        )?),
        "particles" => Ok(taos_engine::Engine::run_app(
            name,
            taos_engine::EngineConfig::new(args.size.0, args.size.1),
            taos_samples::ParticlesOptions::default().renderer_preset(),
            taos_samples::ParticlesApp {
                options: taos_samples::ParticlesOptions::default(),
            },
        )?),
        other => anyhow::bail!(
            "no sample called {other:?}; these run here: {}",
            SAMPLES.join(", ")
        ),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> anyhow::Result<()> {
    use clap::Parser;

    /// The window samples in one binary (the samples' page in the browser).
    #[derive(Debug, Parser)]
    #[command(name = "samples_web")]
    struct Cli {
        /// The sample to run in a window.
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(SAMPLES))]
        name: String,
    }

    run(&Cli::parse().name)
}

/// The value of `key=` in the page's query string.
#[cfg(target_arch = "wasm32")]
fn query_value(key: &str) -> Option<String> {
    let query = web_sys::window()?.location().search().ok()?;
    query
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('=').map(str::to_owned))
}

/// In the page: the sample named by `?sample=` (the first one without),
/// or the physics determinism run for `?checksum=physics`.
#[cfg(target_arch = "wasm32")]
fn main() {
    taos_engine::init_logging();
    if query_value("checksum").as_deref() == Some("physics") {
        match taos_samples::physics_checksum() {
            Ok(checksum) => {
                let line = format!(
                    "physics checksum ({} bodies, {} ticks): {checksum:#018x}",
                    taos_samples::CHECKSUM_BODIES,
                    taos_samples::CHECKSUM_TICKS
                );
                log::info!("{line}");
                if let Some(document) = web_sys::window().and_then(|w| w.document()) {
                    document.set_title(&line);
                }
            }
            Err(error) => taos_engine::show_page_error(&format!("{error:#}")),
        }
        return;
    }
    let name = query_value("sample").unwrap_or_else(|| SAMPLES[0].to_owned());
    if let Err(error) = run(&name) {
        taos_engine::show_page_error(&format!("{error:#}"));
    }
}
