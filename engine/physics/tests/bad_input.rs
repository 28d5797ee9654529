//! Bad input gets a clear error or is isolated with a logged one: never a
//! panic, never a poisoned world.

mod common;

use common::{dynamic, game, physics, physics_mut, plain_ground, position, run};
use glam::{Quat, Vec3};
use taos_core::prelude::*;
use taos_physics::{
    BodyError, Collider, QueryError, QueryFilter, RigidBody, SettingError, Shape, ShapeError,
    StepError,
};

#[test]
fn zero_negative_and_non_finite_sizes_are_refused() {
    assert!(matches!(
        Shape::ball(0.0),
        Err(ShapeError::NotPositive { .. })
    ));
    assert!(matches!(
        Shape::ball(-1.0),
        Err(ShapeError::NotPositive { .. })
    ));
    assert!(matches!(
        Shape::ball(f32::NAN),
        Err(ShapeError::NotFinite { .. })
    ));
    assert!(matches!(
        Shape::cuboid(Vec3::new(1.0, 0.0, 1.0)),
        Err(ShapeError::NotPositive {
            what: "half extent y",
            ..
        })
    ));
    assert!(Shape::cuboid(Vec3::new(1.0, f32::INFINITY, 1.0)).is_err());
    assert!(Shape::capsule(0.0, 0.5).is_err());
    assert!(Shape::cylinder(1.0, f32::NEG_INFINITY).is_err());
    assert!(
        Collider::ball(0.5)
            .unwrap()
            .with_friction(f32::NAN)
            .is_err()
    );
    assert!(Collider::ball(0.5).unwrap().with_restitution(-0.1).is_err());
    assert!(
        Collider::ball(0.5)
            .unwrap()
            .with_density(f32::INFINITY)
            .is_err()
    );
    assert!(RigidBody::dynamic().with_mass(0.0).is_err());
    assert!(RigidBody::dynamic().with_linear_damping(f32::NAN).is_err());
    assert!(matches!(
        RigidBody::dynamic().with_linear_velocity(Vec3::new(f32::NAN, 0.0, 0.0)),
        Err(SettingError::VectorNotFinite { .. })
    ));
}

#[test]
fn degenerate_hulls_and_meshes_are_refused() {
    let flat = [Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::new(1.0, 0.0, 1.0)];
    assert!(matches!(
        Shape::convex_hull(&flat),
        Err(ShapeError::FlatHull { .. })
    ));
    assert!(Shape::convex_hull(&[Vec3::ZERO; 8]).is_err());
    assert!(Shape::convex_hull(&[]).is_err());
    let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    assert!(Shape::convex_hull(&tetra).is_ok());
    let mut bad = tetra;
    bad[2] = Vec3::new(0.0, f32::NAN, 0.0);
    assert!(matches!(
        Shape::convex_hull(&bad),
        Err(ShapeError::PointNotFinite { index: 2, .. })
    ));

    let quad = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    assert!(matches!(
        Shape::trimesh(&quad, &[0, 1]),
        Err(ShapeError::PartialTriangle { len: 2 })
    ));
    assert!(matches!(
        Shape::trimesh(&quad, &[0, 1, 9]),
        Err(ShapeError::IndexOutOfRange { vertex: 9, .. })
    ));
    // Every triangle collapsed to a line or a point.
    assert!(matches!(
        Shape::trimesh(&quad, &[0, 0, 1, 2, 2, 2]),
        Err(ShapeError::DegenerateMesh { triangles: 2 })
    ));
    assert!(matches!(
        Shape::trimesh(&quad, &[]),
        Err(ShapeError::DegenerateMesh { triangles: 0 })
    ));
    assert!(Shape::trimesh(&quad, &[0, 2, 1]).is_ok());
    // Small is not degenerate: a 0.1 mm triangle is a triangle.
    assert!(Shape::trimesh(&quad.map(|p| p * 1e-4), &[0, 2, 1]).is_ok());
    // A sliver whose corners lie on one line is.
    let line = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0];
    assert!(Shape::trimesh(&line, &[0, 1, 2]).is_err());
}

#[test]
fn non_finite_velocities_and_impulses_are_refused() {
    let mut game = game();
    plain_ground(&mut game);
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, 3.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    let stranger = game.scene_mut().spawn("No body");
    run(&mut game, 1);
    let nan = Vec3::new(0.0, f32::NAN, 0.0);
    {
        let mut physics = physics_mut(&mut game);
        assert!(matches!(
            physics.set_linear_velocity(ball, nan),
            Err(BodyError::Setting { .. })
        ));
        assert!(
            physics
                .set_angular_velocity(ball, Vec3::splat(f32::INFINITY))
                .is_err()
        );
        assert!(physics.apply_impulse(ball, nan).is_err());
        assert!(physics.add_force(ball, nan).is_err());
        assert!(physics.set_gravity(nan).is_err());
        assert!(matches!(
            physics.set_linear_velocity(stranger, Vec3::X),
            Err(BodyError::NoBody(_))
        ));
    }
    run(&mut game, 120);
    let p = position(&game, ball);
    assert!(
        p.is_finite() && (p.y - 0.5).abs() < 0.02,
        "the world carried on: {p}"
    );
}

#[test]
fn a_non_finite_transform_is_isolated_with_an_error() {
    let mut game = game();
    plain_ground(&mut game);
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, 3.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    let other = dynamic(
        &mut game,
        "Other",
        Vec3::new(5.0, 3.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    run(&mut game, 10);
    game.scene_mut()
        .object_mut(ball)
        .unwrap()
        .set_position(Vec3::new(f32::NAN, 1.0, 0.0));
    run(&mut game, 1);
    let errors = physics_mut(&mut game).take_errors();
    assert!(
        matches!(errors.as_slice(), [StepError::NonFiniteTransform { object, .. }] if *object == ball),
        "{errors:?}"
    );
    // The body kept its pose and wrote it back over the bad transform.
    let p = position(&game, ball);
    assert!(p.is_finite() && p.y < 3.0, "{p}");
    run(&mut game, 120);
    assert!(position(&game, other).is_finite());
    assert!((position(&game, ball).y - 0.5).abs() < 0.02);
    assert!(
        physics_mut(&mut game).take_errors().is_empty(),
        "reported once"
    );

    // A new object placed at NaN gets no body until it is fixed.
    let scene = game.scene_mut();
    let lost = scene.spawn_with("Lost", Transform::from_position(Vec3::splat(f32::INFINITY)));
    scene
        .add_component(lost, Collider::ball(0.5).unwrap())
        .unwrap();
    run(&mut game, 1);
    assert!(!physics(&game).has_body(lost));
    assert_eq!(physics_mut(&mut game).take_errors().len(), 1);
    game.scene_mut()
        .object_mut(lost)
        .unwrap()
        .set_position(Vec3::new(-5.0, 0.5, 0.0));
    run(&mut game, 1);
    assert!(physics(&game).has_body(lost));
}

#[test]
fn bad_queries_are_refused() {
    let mut game = game();
    plain_ground(&mut game);
    run(&mut game, 1);
    let physics = physics(&game);
    let all = QueryFilter::ALL;
    assert!(matches!(
        physics.cast_ray(Vec3::ZERO, Vec3::ZERO, 1.0, &all),
        Err(QueryError::ZeroDirection)
    ));
    assert!(matches!(
        physics.cast_ray(Vec3::splat(f32::NAN), Vec3::Y, 1.0, &all),
        Err(QueryError::NotFinite { what: "origin", .. })
    ));
    assert!(matches!(
        physics.cast_ray(Vec3::ZERO, Vec3::Y, f32::NAN, &all),
        Err(QueryError::BadDistance(_))
    ));
    let ball = Shape::ball(1.0).unwrap();
    let nan_rotation = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
    assert!(
        physics
            .cast_shape(&ball, Vec3::ZERO, nan_rotation, Vec3::X, 1.0, &all)
            .is_err()
    );
    assert!(
        physics
            .overlaps(&ball, Vec3::ZERO, nan_rotation, &all, &mut Vec::new())
            .is_err()
    );
}
