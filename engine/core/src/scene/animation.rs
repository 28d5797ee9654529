//! The animation step of [`Scene::update`]: advance every active
//! [`AnimationPlayer`] by the scaled delta and write the sampled poses into
//! the targets' transforms (see the [`animation`](crate::animation) module
//! docs for why it runs there).

use bevy_ecs::query::Without;
use bevy_ecs::system::{Query, SystemState};
use bevy_ecs::world::World;

use super::Scene;
use crate::animation::AnimationPlayer;
use crate::game_loop::Stage;
use crate::object::Inactive;
use crate::transform::Transform;

type StepParams = (
    Query<'static, 'static, &'static mut AnimationPlayer, Without<Inactive>>,
    Query<'static, 'static, &'static mut Transform>,
);

/// The players and transforms the step reads and writes, and how many players
/// were playing after the last step.
pub(crate) struct AnimationStep {
    state: SystemState<StepParams>,
    playing: usize,
}

impl AnimationStep {
    pub(crate) fn new(world: &mut World) -> Self {
        Self {
            state: SystemState::new(world),
            playing: 0,
        }
    }

    /// Players still moving after the last step (for [`Scene::runnable_work`]).
    pub(crate) fn playing(&self) -> usize {
        self.playing
    }

    fn run(&mut self, world: &mut World, dt: f32) {
        let Ok((mut players, mut transforms)) = self.state.get_mut(world) else {
            log::error!("animation step: the scene's world lost a component registration");
            return;
        };
        let mut playing = 0;
        for mut player in &mut players {
            if let Some((clip, time)) = player.step(dt) {
                for channel in clip.channels() {
                    // A target removed since the clip was built is skipped.
                    let Ok(mut transform) = transforms.get_mut(channel.target().entity()) else {
                        continue;
                    };
                    let mut posed = *transform;
                    channel.apply(time, &mut posed);
                    // Same-value writes would only wake the transform sweep.
                    if posed != *transform {
                        *transform = posed;
                    }
                }
            }
            playing += usize::from(player.is_playing());
        }
        self.playing = playing;
    }
}

impl Scene {
    /// Steps every active animation player by `dt` scene seconds.
    pub(super) fn animate(&mut self, dt: f32) {
        let start = self.stage_start();
        self.animation.run(&mut self.world, dt);
        self.stage_end(Stage::Animation, start);
    }
}
