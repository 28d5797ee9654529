//! `cargo run -p taos_samples --bin particles [-- --preset forward|forward-plus|deferred
//! --path auto|gpu|cpu --density FACTOR] [--headless --frames N --screenshot out.png]`

use taos_engine::{Engine, EngineConfig};
use taos_samples::{ParticlesApp, ParticlesOptions, particle_counters, particles};

fn main() -> anyhow::Result<()> {
    let (args, options) = ParticlesOptions::from_env();
    let config = EngineConfig::new(args.size.0, args.size.1);
    if args.headless {
        let mut engine = Engine::headless(config, options.renderer_preset())?;
        particles(&mut engine, options)?;
        for _ in 0..args.frames.max(1) {
            engine.frame()?;
        }
        println!("particles: {}", particle_counters(&mut engine));
        if let Some(path) = &args.screenshot {
            engine.screenshot(path)?;
            println!("particles: wrote {}", path.display());
        }
        return Ok(());
    }
    Engine::run_app(
        "particles",
        config,
        options.renderer_preset(),
        ParticlesApp { options },
    )?;
    Ok(())
}
