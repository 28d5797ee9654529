//! The physics determinism run: 500 bodies (boxes and bouncing balls)
//! dropped in a pile, a six-link chain on ball joints swinging into it, a
//! kick at tick 60 and a snapshot taken at tick 120, saved to bytes and
//! restored, then run to tick 240. Its checksum folds the loop's state
//! checksum (every body's pose and velocities, bit for bit) after every
//! tick.
//!
//! Native builds and the browser build print the same number: the
//! `physics` binary with `--checksum`, and the samples page with
//! `?checksum=physics` (in the page's title and the console). The samples'
//! tests hold the number in `samples/tests/reference/physics_checksum.txt`,
//! and the browser test compares the page's with it.
//!
//! The scene is built without transcendental functions (no `sin`, `cos`
//! or `powf`, whose last bit differs between C libraries): positions are
//! sums and products of exact constants, so its start is the same bits on
//! every platform, and every object is a scene root (the physics copies
//! root poses without engine arithmetic).

use glam::{Quat, Vec3};
use taos_engine::game_loop::{GameLoop, LoopConfig, ManualClock, Snapshot};
use taos_engine::physics::{Collider, Joint, Physics, PhysicsConfig, RigidBody};
use taos_engine::prelude::*;

/// Bodies in the pile.
pub const CHECKSUM_BODIES: usize = 500;

/// Ticks the run lasts.
pub const CHECKSUM_TICKS: u32 = 240;

/// The tick whose end is snapshotted, saved to bytes and restored.
const SNAPSHOT_TICK: u32 = 120;

/// The tick before which a body is kicked.
const KICK_TICK: u32 = 60;

/// Runs the determinism scene and returns its checksum.
///
/// # Errors
/// If the scene, the snapshot or the restore fails (none does for this
/// fixed scene; an error here is a bug to report).
pub fn physics_checksum() -> anyhow::Result<u64> {
    let mut scene = Scene::new();
    taos_engine::physics::install(&mut scene, PhysicsConfig::default());
    let mut game = GameLoop::new(scene, LoopConfig::fixed(60)?, ManualClock::new())?;
    taos_engine::physics::install_replay(&mut game);
    let kicked = build(game.scene_mut())?;

    let mut folded = 0xCBF2_9CE4_8422_2325_u64;
    let mut snapshot = None;
    for tick in 1..=CHECKSUM_TICKS {
        if tick == KICK_TICK {
            game.scene_mut()
                .world_mut()
                .resource_mut::<Physics>()
                .apply_impulse(kicked, Vec3::new(0.0, 400.0, -900.0))?;
        }
        game.step();
        folded = (folded ^ game.state_checksum()).wrapping_mul(0x0000_0100_0000_01B3);
        if tick == SNAPSHOT_TICK {
            snapshot = Some((game.snapshot()?.to_bytes(), folded));
        }
    }
    // Back to tick 120 through bytes (as a saved game), and on to the end:
    // the second half must give the same checksums as the first time.
    let (bytes, at_snapshot) = snapshot.ok_or_else(|| anyhow::anyhow!("no snapshot taken"))?;
    game.restore(&Snapshot::from_bytes(&bytes)?)?;
    let mut again = at_snapshot;
    for _ in SNAPSHOT_TICK + 1..=CHECKSUM_TICKS {
        game.step();
        again = (again ^ game.state_checksum()).wrapping_mul(0x0000_0100_0000_01B3);
    }
    anyhow::ensure!(
        again == folded,
        "the run restored at tick {SNAPSHOT_TICK} ended with {again:#018x}, the first with {folded:#018x}"
    );
    Ok(folded)
}

/// The ground, the pile and the chain; returns the body to kick.
fn build(scene: &mut Scene) -> anyhow::Result<GameObject> {
    let ground = scene.spawn_with(
        "Ground",
        Transform::from_position(Vec3::new(0.0, -0.5, 0.0)),
    );
    scene.add_component(ground, Collider::cuboid(Vec3::new(40.0, 0.5, 40.0))?)?;
    // A quarter turn's worth of exact unit quaternions (0.6, 0.8 rows).
    let turns = [
        Quat::IDENTITY,
        Quat::from_xyzw(0.0, 0.6, 0.0, 0.8),
        Quat::from_xyzw(0.6, 0.0, 0.0, 0.8),
        Quat::from_xyzw(0.0, 0.0, 0.6, 0.8),
    ];
    let mut kicked = None;
    for i in 0..CHECKSUM_BODIES {
        let (x, layer, z) = (i % 10, i / 100, (i / 10) % 10);
        let jitter = (i % 7) as f32 * 0.03;
        let position = Vec3::new(
            x as f32 * 1.05 - 5.0 + jitter,
            2.0 + layer as f32 * 1.2,
            z as f32 * 1.05 - 5.0 - jitter,
        );
        let collider = if i % 2 == 0 {
            Collider::cuboid(Vec3::new(0.45, 0.3, 0.4))?
        } else {
            Collider::ball(0.45)?.with_restitution(0.3)?
        };
        let object = scene.spawn_with(
            format!("Body {i}"),
            Transform::from_trs(position, turns[i % 4], Vec3::ONE),
        );
        scene.add_component(object, RigidBody::dynamic())?;
        scene.add_component(object, collider)?;
        kicked.get_or_insert(object);
    }
    // A chain of six capsules hanging from a pivot over the pile's edge,
    // released horizontal.
    let mut previous = None;
    for i in 0..6 {
        let link = scene.spawn_with(
            format!("Link {i}"),
            Transform::from_trs(
                Vec3::new(7.0 + i as f32 * 0.5, 8.0, 0.0),
                Quat::from_xyzw(0.0, 0.0, 0.6, 0.8),
                Vec3::ONE,
            ),
        );
        scene.add_component(link, RigidBody::dynamic().with_mass(5.0)?)?;
        scene.add_component(link, Collider::capsule(0.2, 0.05)?)?;
        let joint = Joint::ball().with_anchor(Vec3::new(0.0, 0.25, 0.0))?;
        let joint = match previous {
            Some(id) => joint.connected_to(id),
            None => joint,
        };
        scene.add_component(link, joint)?;
        previous = scene.id(link);
    }
    kicked.ok_or_else(|| anyhow::anyhow!("no bodies"))
}
