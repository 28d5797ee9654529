//! The clip panel: every clip of the model's player, each playable alone
//! (a short cross-fade) or as a layer blended in with a weight, the
//! current clip scrubbed along a slider, and the playback speed.
//!
//! The panel only describes what the user did ([`ClipAction`]);
//! [`apply_clip_action`] does it, so the behaviour is tested without a window.

use taos_engine::{AnimationPlayer, AnimationPlayerError, ClipId, LayerSettings, egui};

/// How long "play alone" cross-fades, in seconds.
pub const SOLO_FADE: f32 = 0.3;

/// One thing the user did in the clip panel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ClipAction {
    /// Play this clip alone, cross-fading from what plays (looped).
    Solo(ClipId),
    /// Blend this clip in as a looping layer (`true`) or stop its layer.
    Layer(ClipId, bool),
    /// Set a playing clip's blend weight.
    Weight(ClipId, f32),
    /// Pause and show the current clip at this time (seconds).
    Scrub(f32),
    /// Set the playback speed of the player.
    Speed(f32),
    /// Pause if playing, play if paused.
    PauseResume,
}

/// Does `action` to `player`.
///
/// # Errors
/// What the player refused (an unknown clip, a bad weight or time); the
/// player is unchanged then.
pub fn apply_clip_action(
    player: &mut AnimationPlayer,
    action: ClipAction,
) -> Result<(), AnimationPlayerError> {
    match action {
        ClipAction::Solo(clip) => {
            player.set_looping(true);
            if player.current().is_some() && !player.is_paused() {
                player.cross_fade(clip, SOLO_FADE)
            } else {
                player.play(clip)
            }
        }
        ClipAction::Layer(clip, true) => {
            player.play_layer(clip, LayerSettings::default().looping(true))
        }
        ClipAction::Layer(clip, false) => {
            player.stop_layer(clip);
            Ok(())
        }
        ClipAction::Weight(clip, weight) => player.set_weight(clip, weight),
        ClipAction::Scrub(time) => {
            player.pause();
            player.seek(time)
        }
        ClipAction::Speed(speed) => player.set_speed(speed),
        ClipAction::PauseResume => {
            if player.is_paused() {
                player.resume();
            } else {
                player.pause();
            }
            Ok(())
        }
    }
}

/// Draws the panel for `player`'s clips `ids` (as the spawn returned
/// them); returns what the user did this frame.
pub fn clip_panel(ui: &mut egui::Ui, player: &AnimationPlayer, ids: &[ClipId]) -> Vec<ClipAction> {
    let mut actions = Vec::new();
    egui::Grid::new("clips").num_columns(4).show(ui, |ui| {
        for &id in ids {
            let Some(clip) = player.clip(id) else {
                continue;
            };
            let layer = player.layer(id);
            let mut playing = layer.is_some();
            if ui
                .selectable_label(player.current() == Some(id), clip.name())
                .on_hover_text("play alone")
                .clicked()
            {
                actions.push(ClipAction::Solo(id));
            }
            ui.small(format!("{:.2} s", clip.duration()));
            if ui.checkbox(&mut playing, "blend").changed() {
                actions.push(ClipAction::Layer(id, playing));
            }
            let mut weight = layer.map_or(0.0, |l| l.weight());
            let slider = egui::Slider::new(&mut weight, 0.0..=1.0).fixed_decimals(2);
            if ui.add_enabled(layer.is_some(), slider).changed() {
                actions.push(ClipAction::Weight(id, weight));
            }
            ui.end_row();
        }
    });
    if let Some(clip) = player.current_clip() {
        let mut time = player.time();
        let scrub = egui::Slider::new(&mut time, 0.0..=clip.duration())
            .text("time")
            .fixed_decimals(2);
        if ui.add(scrub).changed() {
            actions.push(ClipAction::Scrub(time));
        }
    }
    ui.horizontal(|ui| {
        let label = if player.is_paused() { "play" } else { "pause" };
        if ui.button(label).clicked() {
            actions.push(ClipAction::PauseResume);
        }
        let mut speed = player.speed();
        if ui
            .add(egui::Slider::new(&mut speed, -2.0..=2.0).text("speed"))
            .changed()
        {
            actions.push(ClipAction::Speed(speed));
        }
    });
    actions
}

#[cfg(test)]
mod tests {
    use taos_engine::prelude::*;

    use super::*;

    fn player() -> (AnimationPlayer, ClipId, ClipId) {
        let target = Scene::new().spawn("target");
        let clip = |name: &str, to: Vec3| {
            AnimationClip::new(
                name,
                vec![AnimationChannel::translation(
                    target,
                    vec![0.0, 2.0],
                    vec![Vec3::ZERO, to],
                    Interpolation::Linear,
                )],
            )
            .unwrap()
        };
        let mut player = AnimationPlayer::new();
        let walk = player.add_clip(clip("walk", Vec3::X));
        let wave = player.add_clip(clip("wave", Vec3::Y));
        (player, walk, wave)
    }

    #[test]
    fn solo_plays_then_cross_fades_and_layers_blend_with_weights() {
        let (mut player, walk, wave) = player();
        apply_clip_action(&mut player, ClipAction::Solo(walk)).unwrap();
        assert_eq!(player.current(), Some(walk));
        assert!(player.is_looping());
        apply_clip_action(&mut player, ClipAction::Solo(wave)).unwrap();
        assert!(
            player.cross_fade_progress().is_some(),
            "a playing clip fades out"
        );
        apply_clip_action(&mut player, ClipAction::Layer(walk, true)).unwrap();
        apply_clip_action(&mut player, ClipAction::Weight(walk, 0.25)).unwrap();
        assert_eq!(player.layer(walk).map(|l| l.weight()), Some(0.25));
        apply_clip_action(&mut player, ClipAction::Layer(walk, false)).unwrap();
        assert!(player.layer(walk).is_none());
        assert!(apply_clip_action(&mut player, ClipAction::Weight(walk, f32::NAN)).is_err());
    }

    #[test]
    fn scrubbing_pauses_at_the_time_and_speed_is_checked() {
        let (mut player, walk, _) = player();
        apply_clip_action(&mut player, ClipAction::Solo(walk)).unwrap();
        apply_clip_action(&mut player, ClipAction::Scrub(1.5)).unwrap();
        assert!(player.is_paused());
        assert_eq!(player.time(), 1.5);
        apply_clip_action(&mut player, ClipAction::PauseResume).unwrap();
        assert!(!player.is_paused());
        assert!(apply_clip_action(&mut player, ClipAction::Speed(f32::INFINITY)).is_err());
        apply_clip_action(&mut player, ClipAction::Speed(-1.0)).unwrap();
        assert_eq!(player.speed(), -1.0);
    }
}
