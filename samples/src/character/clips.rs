//! The character's clips, made in code: `idle` (breathing), `walk` and `run`
//! (looping cycles with a `footstep` event at each foot contact) and `jump`
//! (once). Every clip animates the same channels (the hips' height and
//! every joint's rotation) so that blending any two of them is a plain mix.

use std::f32::consts::TAU;

use glam::{Quat, Vec3};
use taos_engine::prelude::*;

use super::rig::Bone;

/// The event walk and run report when a foot lands.
pub const FOOTSTEP: &str = "footstep";

/// Seconds of one walk cycle (two steps).
pub const WALK_PERIOD: f32 = 0.9;
/// Seconds of one run cycle (two steps).
pub const RUN_PERIOD: f32 = 0.6;
/// Seconds of the jump clip.
pub const JUMP_DURATION: f32 = 0.6;

/// One frame of a clip: where the hips are (relative to the root) and each
/// joint's rotation relative to its bind pose.
#[derive(Debug, Clone, Copy)]
struct Pose {
    hips: Vec3,
    rotations: [Quat; Bone::ALL.len()],
}

impl Pose {
    fn rest() -> Self {
        Self {
            hips: Bone::Hips.local_offset(),
            rotations: [Quat::IDENTITY; Bone::ALL.len()],
        }
    }

    /// Turns `bone` by `x` radians about the side axis (positive swings a
    /// hanging limb forward) and `z` about the forward axis.
    fn turn(&mut self, bone: Bone, x: f32, z: f32) -> &mut Self {
        self.rotations[bone.index()] = Quat::from_rotation_z(z) * Quat::from_rotation_x(x);
        self
    }

    fn twist(&mut self, bone: Bone, y: f32) -> &mut Self {
        self.rotations[bone.index()] *= Quat::from_rotation_y(y);
        self
    }
}

/// A clip through `poses` at `times`, linearly interpolated.
fn clip_from_poses(
    name: &str,
    joints: &[GameObject],
    times: &[f32],
    poses: &[Pose],
) -> anyhow::Result<AnimationClip> {
    let mut channels = vec![AnimationChannel::translation(
        joints[Bone::Hips.index()],
        times.to_vec(),
        poses.iter().map(|p| p.hips).collect(),
        Interpolation::Linear,
    )];
    for bone in Bone::ALL {
        channels.push(AnimationChannel::rotation(
            joints[bone.index()],
            times.to_vec(),
            poses.iter().map(|p| p.rotations[bone.index()]).collect(),
            Interpolation::Linear,
        ));
    }
    Ok(AnimationClip::new(name, channels)?)
}

/// A looping clip of `period` seconds sampling `pose` (of the cycle's phase,
/// `0..TAU`) at `keys` evenly spaced times; the last key repeats the first.
fn cycle(
    name: &str,
    joints: &[GameObject],
    period: f32,
    keys: usize,
    pose: impl Fn(f32) -> Pose,
) -> anyhow::Result<AnimationClip> {
    let times: Vec<f32> = (0..=keys)
        .map(|i| period * i as f32 / keys as f32)
        .collect();
    let poses: Vec<Pose> = (0..=keys)
        .map(|i| pose(TAU * (i % keys) as f32 / keys as f32))
        .collect();
    clip_from_poses(name, joints, &times, &poses)
}

/// How much a stride swings the limbs and bounces the body.
struct Gait {
    leg: f32,
    knee: f32,
    arm: f32,
    elbow: f32,
    lean: f32,
    bob: f32,
    crouch: f32,
}

/// A stride at `phase`: the left foot lands at 0, the right at half a turn.
fn stride(gait: &Gait, phase: f32) -> Pose {
    let (sin, cos) = phase.sin_cos();
    let mut pose = Pose::rest();
    // Legs swing opposite each other; a knee bends while its leg swings
    // forward (the left one in the second half of the cycle).
    pose.turn(Bone::UpperLegL, gait.leg * cos, 0.0)
        .turn(Bone::UpperLegR, -gait.leg * cos, 0.0)
        .turn(Bone::LowerLegL, -0.1 - gait.knee * (-sin).max(0.0), 0.0)
        .turn(Bone::LowerLegR, -0.1 - gait.knee * sin.max(0.0), 0.0)
        .turn(Bone::FootL, 0.3 * gait.leg * (-sin).max(0.0), 0.0)
        .turn(Bone::FootR, 0.3 * gait.leg * sin.max(0.0), 0.0)
        // Arms swing against the legs.
        .turn(Bone::UpperArmL, -gait.arm * cos, -0.06)
        .turn(Bone::UpperArmR, gait.arm * cos, 0.06)
        .turn(Bone::LowerArmL, gait.elbow + 0.15 * cos.max(0.0), 0.0)
        .turn(Bone::LowerArmR, gait.elbow + 0.15 * (-cos).max(0.0), 0.0)
        .turn(Bone::Spine, -gait.lean, 0.0)
        .turn(Bone::Head, gait.lean * 0.6, 0.0);
    // The hips turn with the forward leg, the chest against them.
    pose.twist(Bone::Hips, 0.12 * cos)
        .twist(Bone::Chest, -0.2 * cos);
    // Lowest when the legs are apart (at each contact), highest between.
    pose.hips.y -= gait.crouch + gait.bob * cos * cos;
    pose
}

/// `walk`: a 0.9 s cycle of two steps, `footstep` at each contact.
fn walk(joints: &[GameObject]) -> anyhow::Result<AnimationClip> {
    let gait = Gait {
        leg: 0.45,
        knee: 0.7,
        arm: 0.35,
        elbow: 0.25,
        lean: 0.05,
        bob: 0.04,
        crouch: 0.0,
    };
    Ok(cycle("walk", joints, WALK_PERIOD, 12, |phase| {
        stride(&gait, phase)
    })?
    .with_event(0.0, FOOTSTEP)?
    .with_event(WALK_PERIOD * 0.5, FOOTSTEP)?)
}

/// `run`: a 0.6 s cycle, longer swings, leaning forward, elbows bent.
fn run(joints: &[GameObject]) -> anyhow::Result<AnimationClip> {
    let gait = Gait {
        leg: 0.8,
        knee: 1.4,
        arm: 0.7,
        elbow: 1.3,
        lean: 0.22,
        bob: 0.07,
        crouch: 0.05,
    };
    Ok(
        cycle("run", joints, RUN_PERIOD, 12, |phase| stride(&gait, phase))?
            .with_event(0.0, FOOTSTEP)?
            .with_event(RUN_PERIOD * 0.5, FOOTSTEP)?,
    )
}

/// `idle`: three seconds of breathing, the arms a little away from the body.
fn idle(joints: &[GameObject]) -> anyhow::Result<AnimationClip> {
    cycle("idle", joints, 3.0, 8, |phase| {
        let breath = phase.sin();
        let mut pose = Pose::rest();
        pose.turn(Bone::Chest, -0.03 * breath, 0.0)
            .turn(Bone::Head, 0.04 * breath, 0.0)
            .turn(Bone::UpperArmL, 0.05, -0.1 - 0.03 * breath)
            .turn(Bone::UpperArmR, 0.05, 0.1 + 0.03 * breath)
            .turn(Bone::LowerArmL, 0.15, 0.0)
            .turn(Bone::LowerArmR, 0.15, 0.0)
            .turn(Bone::LowerLegL, -0.05, 0.0)
            .turn(Bone::LowerLegR, -0.05, 0.0);
        pose.hips.y -= 0.01 + 0.01 * breath;
        pose
    })
}

/// `jump`: crouch, spring up with the arms raised, tuck, reach for the ground.
fn jump(joints: &[GameObject]) -> anyhow::Result<AnimationClip> {
    let mut crouch = Pose::rest();
    crouch
        .turn(Bone::UpperLegL, 0.7, 0.0)
        .turn(Bone::UpperLegR, 0.7, 0.0)
        .turn(Bone::LowerLegL, -1.2, 0.0)
        .turn(Bone::LowerLegR, -1.2, 0.0)
        .turn(Bone::FootL, 0.5, 0.0)
        .turn(Bone::FootR, 0.5, 0.0)
        .turn(Bone::Spine, -0.35, 0.0)
        .turn(Bone::UpperArmL, -0.6, -0.1)
        .turn(Bone::UpperArmR, -0.6, 0.1);
    crouch.hips.y -= 0.25;
    let mut spring = Pose::rest();
    spring
        .turn(Bone::UpperArmL, 2.6, -0.3)
        .turn(Bone::UpperArmR, 2.6, 0.3)
        .turn(Bone::LowerArmL, 0.2, 0.0)
        .turn(Bone::LowerArmR, 0.2, 0.0)
        .turn(Bone::FootL, -0.4, 0.0)
        .turn(Bone::FootR, -0.4, 0.0)
        .turn(Bone::Head, 0.2, 0.0);
    let mut tuck = Pose::rest();
    tuck.turn(Bone::UpperLegL, 1.2, 0.0)
        .turn(Bone::UpperLegR, 0.9, 0.0)
        .turn(Bone::LowerLegL, -1.6, 0.0)
        .turn(Bone::LowerLegR, -1.3, 0.0)
        .turn(Bone::UpperArmL, 1.2, -0.8)
        .turn(Bone::UpperArmR, 1.2, 0.8)
        .turn(Bone::LowerArmL, 0.8, 0.0)
        .turn(Bone::LowerArmR, 0.8, 0.0)
        .turn(Bone::Spine, -0.2, 0.0);
    let mut reach = Pose::rest();
    reach
        .turn(Bone::UpperLegL, 0.4, 0.0)
        .turn(Bone::UpperLegR, 0.2, 0.0)
        .turn(Bone::LowerLegL, -0.5, 0.0)
        .turn(Bone::LowerLegR, -0.3, 0.0)
        .turn(Bone::UpperArmL, 0.5, -0.6)
        .turn(Bone::UpperArmR, 0.5, 0.6);
    let d = JUMP_DURATION;
    clip_from_poses(
        "jump",
        joints,
        &[0.0, 0.1 * d, 0.45 * d, d],
        &[crouch, spring, tuck, reach],
    )
}

/// The four clips, for `joints` spawned in [`Bone::ALL`] order.
pub struct Clips {
    /// Breathing in place.
    pub idle: AnimationClip,
    /// The walk cycle.
    pub walk: AnimationClip,
    /// The run cycle.
    pub run: AnimationClip,
    /// The jump, played once.
    pub jump: AnimationClip,
}

impl Clips {
    /// Builds every clip for these joints.
    ///
    /// # Errors
    /// Never for these fixed keyframes (a clip or event the animation
    /// module refuses would be a bug here).
    pub fn new(joints: &[GameObject]) -> anyhow::Result<Self> {
        Ok(Self {
            idle: idle(joints)?,
            walk: walk(joints)?,
            run: run(joints)?,
            jump: jump(joints)?,
        })
    }
}
