//! The play state: what a snapshot saves and restores, and what the checksum covers.

use serde::{Deserialize, Serialize};

use super::events::AnimationEvent;
use super::layers::AnimationLayer;
use super::{AnimationClip, AnimationPlayer, ClipId};

/// Everything about a player that changes while it plays: what a
/// [`Snapshot`](crate::game_loop::Snapshot) saves and restores (clips,
/// masks and the root-motion bone are setup, kept from the live player).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PlayState {
    pub(super) layers: Vec<AnimationLayer>,
    pub(super) current: Option<ClipId>,
    pub(super) speed: f32,
    pub(super) looping: bool,
    pub(super) paused: bool,
    /// The targets have not been written since time last changed.
    pub(super) pose_pending: bool,
    /// Fired by the last step, not yet drained.
    pub(super) events: Vec<AnimationEvent>,
    pub(super) root_delta: [f32; 3],
    pub(super) root_total: [f32; 3],
}

impl AnimationPlayer {
    pub(crate) fn play_state(&self) -> &PlayState {
        &self.state
    }

    /// Puts back a saved play state. Layers of clips or masks this player
    /// does not have are dropped, as are events it cannot name.
    pub(crate) fn restore_play_state(&mut self, mut state: PlayState) {
        let (clips, masks) = (&self.clips, &self.masks);
        state.layers.retain(|layer| {
            clips.get(layer.clip.index()).is_some()
                && layer
                    .mask
                    .is_none_or(|mask| masks.get(mask.index()).is_some())
        });
        // Values no game reaches (a negative weight, a time past the clip)
        // are brought back into range rather than trusted.
        let finite_or = |v: f32, default: f32| if v.is_finite() { v } else { default };
        for layer in &mut state.layers {
            let duration = clips
                .get(layer.clip.index())
                .map_or(0.0, AnimationClip::duration);
            layer.time = finite_or(layer.time, 0.0).clamp(0.0, duration);
            layer.speed = finite_or(layer.speed, 1.0);
            layer.weight = finite_or(layer.weight, 0.0).max(0.0);
            if let Some(fade) = &mut layer.fade {
                if fade.duration.is_finite() && fade.duration > 0.0 {
                    fade.from = finite_or(fade.from, 0.0).max(0.0);
                    fade.to = finite_or(fade.to, 0.0).max(0.0);
                    fade.elapsed = finite_or(fade.elapsed, 0.0).clamp(0.0, fade.duration);
                } else {
                    layer.fade = None;
                }
            }
        }
        state.speed = finite_or(state.speed, 1.0);
        for v in state.root_delta.iter_mut().chain(&mut state.root_total) {
            *v = finite_or(*v, 0.0);
        }
        if state
            .current
            .is_some_and(|clip| clips.get(clip.index()).is_none())
        {
            state.current = None;
        }
        state.events.retain_mut(|event| {
            match clips
                .get(event.clip.index())
                .and_then(|clip| clip.events().get(event.index))
            {
                Some(named) => {
                    event.name = named.shared_name().clone();
                    true
                }
                None => false,
            }
        });
        self.state = state;
    }
}

/// Covers the play state (what snapshots save), so a checksum that
/// registers the player (`checksum_mut().component::<AnimationPlayer>()`)
/// notices two runs whose players drifted apart before their poses do.
impl crate::game_loop::StateHash for AnimationPlayer {
    fn hash_state(&self, h: &mut crate::game_loop::StateHasher) {
        let state = &self.state;
        h.write_u64(state.layers.len() as u64);
        for layer in &state.layers {
            h.write_u32(layer.clip.0);
            h.write_f32(layer.time);
            h.write_f32(layer.speed);
            h.write_u8(u8::from(layer.looping));
            h.write_f32(layer.weight);
            h.write_u8(u8::from(layer.additive));
            h.write_u32(layer.mask.map_or(u32::MAX, |mask| mask.0));
            if let Some(fade) = layer.fade {
                h.write_u8(1 + u8::from(fade.remove));
                for v in [fade.from, fade.to, fade.elapsed, fade.duration] {
                    h.write_f32(v);
                }
            } else {
                h.write_u8(0);
            }
        }
        h.write_u32(state.current.map_or(u32::MAX, |clip| clip.0));
        h.write_f32(state.speed);
        h.write_u8(u8::from(state.looping) | u8::from(state.paused) << 1);
        h.write_u64(state.events.len() as u64);
        for event in &state.events {
            h.write_u32(event.clip.0);
            h.write_u64(event.index as u64);
        }
        for v in state.root_total {
            h.write_f32(v);
        }
    }
}
