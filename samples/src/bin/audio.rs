//! `cargo run -p taos_samples --bin audio [-- --headless --frames N --screenshot out.png] [--wav mix.wav --seconds 6]`

use clap::Parser;
use taos_engine::game_loop::LoopConfig;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{Engine, EngineConfig};
use taos_samples::{AudioArgs, SampleArgs, audio_scene, mix_to_wav, run_sample};

fn main() -> anyhow::Result<()> {
    let cli = AudioArgs::parse();
    let args = SampleArgs::from(cli.common);
    if let Some(wav) = &cli.wav {
        let config = EngineConfig::new(args.size.0, args.size.1);
        let mut engine = Engine::headless(config, forward_preset(PresetOptions::default()))?;
        audio_scene(&mut engine)?;
        let levels = mix_to_wav(&mut engine, wav, cli.seconds)?;
        for (second, (left, right)) in levels.iter().enumerate() {
            println!("second {second}: left {left:.3}  right {right:.3}");
        }
        println!("audio: wrote {}", wav.display());
        return Ok(());
    }
    run_sample(
        "audio",
        &args,
        LoopConfig::default(),
        forward_preset(PresetOptions::default()),
        audio_scene,
    )
}
