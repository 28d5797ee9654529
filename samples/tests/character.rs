//! `character` as an image test after a walk, and its behaviour under
//! injected input on the headless engine's manual clock: the walk layer
//! takes over and footsteps sound, running hands over to the run, a jump
//! cross-fades to the jump clip and back, and the pose moves the mesh.

use std::path::Path;

use taos_engine::game_loop::{InputEvent, Key};
use taos_engine::prelude::*;
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_samples::character::rig::Bone;
use taos_samples::character::walker::{Stance, Walker};
use taos_samples::{CharacterScene, character_preset, spawn_character_scene};

const SIZE: (u32, u32) = (160, 120);

fn engine() -> (Engine, CharacterScene) {
    let mut engine = Engine::headless(EngineConfig::new(SIZE.0, SIZE.1), character_preset())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let objects = spawn_character_scene(&mut engine).unwrap();
    (engine, objects)
}

fn press(engine: &mut Engine, key: Key) {
    engine.game_loop().push_input(InputEvent::KeyDown(key));
}

fn release(engine: &mut Engine, key: Key) {
    engine.game_loop().push_input(InputEvent::KeyUp(key));
}

fn frames(engine: &mut Engine, n: u32) {
    for _ in 0..n {
        engine.frame().unwrap();
    }
}

fn walker(engine: &mut Engine, objects: CharacterScene) -> &Walker {
    engine
        .scene_mut()
        .behaviour::<Walker>(objects.character)
        .unwrap()
}

/// The weights of the idle, walk, run and jump layers (0 when not playing).
fn weights(engine: &Engine, objects: CharacterScene) -> [f32; 4] {
    let scene = engine.scene();
    let player = scene
        .get_component::<AnimationPlayer>(objects.character)
        .unwrap();
    ["idle", "walk", "run", "jump"].map(|name| {
        let clip = player.find_clip(name).unwrap();
        player.layer(clip).map_or(0.0, |layer| layer.weight())
    })
}

/// `bone`'s position in the character's own space (feet at the origin).
fn bone_in_body(engine: &mut Engine, objects: CharacterScene, bone: Bone) -> Vec3 {
    let scene = engine.scene_mut();
    let root = scene.world_matrix(objects.character).unwrap();
    let joints = scene
        .get_component::<SkinnedMesh>(objects.character)
        .unwrap()
        .joints()[bone.index()];
    let at = scene.world_position(joints).unwrap();
    root.inverse().transform_point3(at)
}

#[test]
fn character_matches_its_reference_after_a_walk() {
    let (mut engine, _) = engine();
    frames(&mut engine, 2);
    // Strafing right: the body turns to walk across the view, in profile.
    press(&mut engine, Key::D);
    frames(&mut engine, 40);
    let pixels = engine.read_pixels().unwrap();
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(&reference, "character", SIZE.0, SIZE.1, &pixels, tolerance);
}

#[test]
fn walking_blends_to_walk_then_run_with_footsteps() {
    let (mut engine, objects) = engine();
    frames(&mut engine, 30);
    let idle = weights(&engine, objects);
    assert!(idle[0] > 0.99, "standing idles: {idle:?}");
    assert_eq!(walker(&mut engine, objects).footsteps(), 0);
    let idle_foot = bone_in_body(&mut engine, objects, Bone::FootL);
    let idle_hand = bone_in_body(&mut engine, objects, Bone::LowerArmR);
    let idle_pixels = engine.read_pixels().unwrap();

    press(&mut engine, Key::W);
    frames(&mut engine, 120);
    let walking = weights(&engine, objects);
    let walker_now = walker(&mut engine, objects);
    assert!(
        (walker_now.speed() - 2.0).abs() < 0.1,
        "walks at 2 m/s: {}",
        walker_now.speed()
    );
    assert!(
        walking[1] > 0.9 && walking[1] > walking[0] + walking[2],
        "the walk layer dominates: {walking:?}"
    );
    // Two seconds, a step every 0.45 s once the walk leads.
    let walked_steps = walker_now.footsteps();
    assert!(
        (3..=6).contains(&walked_steps),
        "footsteps while walking: {walked_steps}"
    );
    let far = engine.scene().world_position(objects.character).unwrap();
    assert!(far.z < -3.0, "walked away from the camera (-Z): {far}");

    // The pose changed the skeleton, and with it the mesh on screen.
    let mut moved = 0.0_f32;
    for _ in 0..30 {
        frames(&mut engine, 1);
        let foot = bone_in_body(&mut engine, objects, Bone::FootL);
        let hand = bone_in_body(&mut engine, objects, Bone::LowerArmR);
        moved = moved.max(foot.distance(idle_foot) + hand.distance(idle_hand));
    }
    assert!(moved > 0.2, "the stride moves feet and hands: {moved}");
    let walk_pixels = engine.read_pixels().unwrap();
    let changed = idle_pixels
        .chunks_exact(4)
        .zip(walk_pixels.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
        .count();
    assert!(changed > 200, "the frame changed: {changed} pixels");

    press(&mut engine, Key::ControlLeft);
    frames(&mut engine, 90);
    let running = weights(&engine, objects);
    let walker_now = walker(&mut engine, objects);
    assert!(walker_now.speed() > 4.5, "runs: {} m/s", walker_now.speed());
    assert!(running[2] > 0.9, "the run layer dominates: {running:?}");
    let ran_steps = walker_now.footsteps() - walked_steps;
    assert!(ran_steps >= 3, "footsteps while running: {ran_steps}");

    release(&mut engine, Key::ControlLeft);
    release(&mut engine, Key::W);
    frames(&mut engine, 60);
    let stopped = weights(&engine, objects);
    assert!(stopped[0] > 0.9, "back to idle: {stopped:?}");
}

#[test]
fn a_jump_cross_fades_to_the_jump_clip_and_back() {
    let (mut engine, objects) = engine();
    frames(&mut engine, 10);
    press(&mut engine, Key::Space);
    frames(&mut engine, 1);
    release(&mut engine, Key::Space);
    frames(&mut engine, 12);
    assert_eq!(walker(&mut engine, objects).stance(), Stance::Airborne);
    assert_eq!(walker(&mut engine, objects).jumps(), 1);
    let rising = engine.scene().world_position(objects.character).unwrap();
    assert!(rising.y > 0.3, "in the air: {rising}");
    let jumping = weights(&engine, objects);
    assert!(jumping[3] > 0.99, "the jump took over: {jumping:?}");
    let player_current = {
        let scene = engine.scene();
        let player = scene
            .get_component::<AnimationPlayer>(objects.character)
            .unwrap();
        (
            player.current(),
            player.find_clip("jump"),
            player.layers().len(),
        )
    };
    assert_eq!(player_current.0, player_current.1, "jump is current");
    assert_eq!(player_current.2, 1, "the ground layers faded out");

    frames(&mut engine, 60);
    assert_eq!(walker(&mut engine, objects).stance(), Stance::Grounded);
    let landed = engine.scene().world_position(objects.character).unwrap();
    assert!(landed.y.abs() < 0.01, "landed: {landed}");
    let after = weights(&engine, objects);
    assert!(after[0] > 0.9 && after[3] < 0.01, "back to idle: {after:?}");
    assert_eq!(walker(&mut engine, objects).footsteps(), 0);
}

#[test]
fn the_character_climbs_the_ramp_and_collects_the_coin() {
    use taos_samples::character::coin::Coins;
    let (mut engine, objects) = engine();
    frames(&mut engine, 2);
    // A walks left, relative to the camera: towards the ramp's foot (-X).
    press(&mut engine, Key::A);
    let mut highest = 0.0_f32;
    for _ in 0..270 {
        frames(&mut engine, 1);
        highest = highest.max(engine.scene().world_position(objects.character).unwrap().y);
    }
    release(&mut engine, Key::A);
    frames(&mut engine, 30);
    let feet = engine.scene().world_position(objects.character).unwrap();
    let top = taos_samples::character::platform_height();
    assert!(
        (feet.y - top).abs() < 0.05,
        "stands on the platform ({top} m up): {feet}"
    );
    assert!(feet.x < -7.0, "walked past the ramp's top: {feet}");
    assert!(highest < top + 0.1, "walked up without jumping: {highest}");
    let facing = walker(&mut engine, objects).facing();
    assert!(
        (facing - std::f32::consts::FRAC_PI_2).abs() < 0.05,
        "the body faced its way (-X): {facing}"
    );
    let coins = engine.scene().world().resource::<Coins>().collected;
    assert_eq!(coins, 1, "the platform's coin, once");
    assert!(
        !engine.scene().contains(objects.platform_coin),
        "the collected coin is gone"
    );
}

#[test]
fn dragging_with_the_left_button_orbits_the_camera() {
    use taos_engine::game_loop::MouseButton;
    let (mut engine, objects) = engine();
    frames(&mut engine, 5);
    let before = engine.scene().world_position(objects.camera).unwrap();
    // Moving without the button turns nothing (the cursor is free).
    for _ in 0..10 {
        engine
            .game_loop()
            .push_input(InputEvent::MouseMotion(Vec2::new(25.0, 0.0)));
        frames(&mut engine, 1);
    }
    let still = engine.scene().world_position(objects.camera).unwrap();
    assert!(still.distance(before) < 1e-3, "{before} -> {still}");
    engine
        .game_loop()
        .push_input(InputEvent::MouseDown(MouseButton::Left));
    for _ in 0..10 {
        engine
            .game_loop()
            .push_input(InputEvent::MouseMotion(Vec2::new(25.0, 0.0)));
        frames(&mut engine, 1);
    }
    engine
        .game_loop()
        .push_input(InputEvent::MouseUp(MouseButton::Left));
    frames(&mut engine, 1);
    let orbited = engine.scene().world_position(objects.camera).unwrap();
    let feet = engine.scene().world_position(objects.character).unwrap();
    assert!(
        feet.distance(Vec3::ZERO) < 0.05,
        "the character stood still: {feet}"
    );
    assert!(
        orbited.distance(before) > 1.0,
        "the camera orbited: {before} -> {orbited}"
    );
    let (was, now) = (before - feet, orbited - feet);
    assert!(
        (Vec2::new(was.x, was.z).length() - Vec2::new(now.x, now.z).length()).abs() < 0.05,
        "at the same distance: {was} {now}"
    );
}
