//! The animation step of [`Scene::update`]: advance every active
//! [`AnimationPlayer`] by the scaled delta and write the blended poses into
//! the targets' transforms and morph weights, and root motion into the
//! players' objects (see the [`animation`](crate::animation) module docs
//! for why it runs there).

use bevy_ecs::entity::Entity;
use bevy_ecs::query::Without;
use bevy_ecs::system::{Query, SystemState};
use bevy_ecs::world::World;

use super::Scene;
use crate::animation::{AnimationPlayer, PoseValue};
use crate::components::MorphWeights;
use crate::object::Inactive;
use crate::stages::Stage;
use crate::transform::Transform;

type StepParams = (
    Query<'static, 'static, (Entity, &'static mut AnimationPlayer), Without<Inactive>>,
    Query<'static, 'static, &'static mut Transform>,
    Query<'static, 'static, &'static mut MorphWeights>,
);

/// The players, transforms and morph weights the step reads and writes, and
/// how many players were playing after the last step.
pub(crate) struct AnimationStep {
    state: SystemState<StepParams>,
    playing: usize,
    /// Weights for targets that had no [`MorphWeights`] yet: added after the
    /// queries are done (only the first time a target is animated).
    missing_weights: Vec<(Entity, Vec<f32>)>,
}

impl AnimationStep {
    pub(crate) fn new(world: &mut World) -> Self {
        Self {
            state: SystemState::new(world),
            playing: 0,
            missing_weights: Vec::new(),
        }
    }

    /// Players still moving after the last step (for [`Scene::runnable_work`]).
    pub(crate) fn playing(&self) -> usize {
        self.playing
    }

    fn run(&mut self, world: &mut World, dt: f32) {
        let Ok((mut players, mut transforms, mut morphs)) = self.state.get_mut(world) else {
            log::error!("animation step: the scene's world lost a component registration");
            return;
        };
        let mut playing = 0;
        for (entity, mut player) in &mut players {
            if player.advance(dt) {
                for (target, value) in player.build_pose().values() {
                    // A target removed since the clip was built is skipped.
                    let entity = target.entity();
                    if let PoseValue::Weights(weights) = value {
                        match morphs.get_mut(entity) {
                            Ok(mut morph) => {
                                // Same-value writes would only mark it changed.
                                if morph.weights() != weights && morph.set_all(weights).is_err() {
                                    log::warn!(
                                        "animation: non-finite morph weights for {target:?}"
                                    );
                                }
                            }
                            Err(_) if transforms.contains(entity) => {
                                self.missing_weights.push((entity, weights.to_vec()));
                            }
                            Err(_) => {}
                        }
                        continue;
                    }
                    let Ok(mut transform) = transforms.get_mut(entity) else {
                        continue;
                    };
                    let mut posed = *transform;
                    match value {
                        PoseValue::Translation(v) => posed.position = v,
                        PoseValue::Rotation(q) => posed.rotation = q,
                        PoseValue::Scale(v) => posed.scale = v,
                        PoseValue::Weights(_) => {}
                    }
                    // Same-value writes would only wake the transform sweep.
                    if posed != *transform {
                        *transform = posed;
                    }
                }
            }
            let delta = player.root_motion_delta();
            if delta != glam::Vec3::ZERO
                && let Ok(mut transform) = transforms.get_mut(entity)
            {
                let turned = transform.rotation * delta;
                transform.position += turned;
            }
            playing += usize::from(player.is_playing());
        }
        self.playing = playing;
        for (entity, weights) in self.missing_weights.drain(..) {
            match MorphWeights::new(weights) {
                Ok(morph) => {
                    world.entity_mut(entity).insert(morph);
                }
                Err(error) => log::warn!("animation: {error}"),
            }
        }
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
