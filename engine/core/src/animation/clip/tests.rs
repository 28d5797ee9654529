use bevy_ecs::entity::Entity;

use super::*;

fn node(index: u32) -> GameObject {
    GameObject::from_entity(Entity::from_raw_u32(index).unwrap())
}

fn err(channels: Vec<AnimationChannel>) -> AnimationClipError {
    AnimationClip::new("walk", channels).unwrap_err()
}

#[test]
fn duration_is_the_latest_key() {
    let clip = AnimationClip::new(
        "walk",
        vec![
            AnimationChannel::translation(
                node(1),
                vec![0.0, 1.5],
                vec![Vec3::ZERO; 2],
                Interpolation::Linear,
            ),
            AnimationChannel::scale(
                node(2),
                vec![0.5, 2.5],
                vec![Vec3::ONE; 2],
                Interpolation::Step,
            ),
        ],
    )
    .unwrap();
    assert_eq!(clip.duration(), 2.5);
    assert_eq!(clip.name(), "walk");
    assert_eq!(clip.channels()[1].property(), AnimatedProperty::Scale);
    assert_eq!(AnimationClip::new("empty", vec![]).unwrap().duration(), 0.0);
}

#[test]
fn errors_name_the_channel_and_the_problem() {
    let good =
        AnimationChannel::translation(node(1), vec![0.0], vec![Vec3::ZERO], Interpolation::Step);
    let e = err(vec![
        good.clone(),
        AnimationChannel::rotation(node(7), vec![], vec![], Interpolation::Linear),
    ]);
    assert_eq!(e.channel, 1);
    assert_eq!(e.target, node(7));
    assert_eq!(e.property, AnimatedProperty::Rotation);
    assert_eq!(e.problem, ChannelProblem::Empty);
    let message = e.to_string();
    assert!(
        message.contains("\"walk\"") && message.contains("channel 1"),
        "{message}"
    );
    assert!(
        message.contains("rotation") && message.contains("no keyframes"),
        "{message}"
    );

    let e = err(vec![AnimationChannel::translation(
        node(1),
        vec![0.0, 1.0, 1.0],
        vec![Vec3::ZERO; 3],
        Interpolation::Linear,
    )]);
    assert_eq!(
        e.problem,
        ChannelProblem::TimesNotIncreasing {
            index: 2,
            previous: 1.0,
            time: 1.0
        }
    );
    assert!(
        e.to_string()
            .contains("keyframe 2 at 1 s does not come after keyframe 1"),
        "{e}"
    );

    let e = err(vec![AnimationChannel::translation(
        node(1),
        vec![0.0, 2.0, 1.0],
        vec![Vec3::ZERO; 3],
        Interpolation::Linear,
    )]);
    assert!(matches!(
        e.problem,
        ChannelProblem::TimesNotIncreasing { index: 2, .. }
    ));

    let e = err(vec![AnimationChannel::translation(
        node(1),
        vec![0.0, f32::NAN],
        vec![Vec3::ZERO; 2],
        Interpolation::Linear,
    )]);
    assert!(matches!(e.problem, ChannelProblem::InvalidTime { index: 1, time } if time.is_nan()));
    let e = err(vec![AnimationChannel::translation(
        node(1),
        vec![-1.0, 0.0],
        vec![Vec3::ZERO; 2],
        Interpolation::Linear,
    )]);
    assert_eq!(
        e.problem,
        ChannelProblem::InvalidTime {
            index: 0,
            time: -1.0
        }
    );
    let e = err(vec![AnimationChannel::translation(
        node(1),
        vec![0.0, f32::INFINITY],
        vec![Vec3::ZERO; 2],
        Interpolation::Linear,
    )]);
    assert!(matches!(
        e.problem,
        ChannelProblem::InvalidTime { index: 1, .. }
    ));

    let e = err(vec![AnimationChannel::scale(
        node(1),
        vec![0.0, 1.0],
        vec![Vec3::ONE; 3],
        Interpolation::Linear,
    )]);
    assert_eq!(
        e.problem,
        ChannelProblem::ValueCountMismatch {
            times: 2,
            values: 3,
            expected: 2
        }
    );
    let e = err(vec![AnimationChannel::scale(
        node(1),
        vec![0.0, 1.0],
        vec![Vec3::ONE; 2],
        Interpolation::CubicSpline,
    )]);
    assert_eq!(
        e.problem,
        ChannelProblem::ValueCountMismatch {
            times: 2,
            values: 2,
            expected: 6
        }
    );

    let e = err(vec![AnimationChannel::translation(
        node(1),
        vec![0.0, 1.0],
        vec![Vec3::ZERO, Vec3::new(0.0, f32::NAN, 0.0)],
        Interpolation::Linear,
    )]);
    assert_eq!(e.problem, ChannelProblem::NonFiniteValue { index: 1 });
    let e = err(vec![AnimationChannel::rotation(
        node(1),
        vec![0.0],
        vec![Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)],
        Interpolation::Linear,
    )]);
    assert_eq!(e.problem, ChannelProblem::NonFiniteValue { index: 0 });
    let e = err(vec![AnimationChannel::rotation(
        node(1),
        vec![0.0],
        vec![Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)],
        Interpolation::Step,
    )]);
    assert_eq!(e.problem, ChannelProblem::ZeroRotation { index: 0 });
}

#[test]
fn rotations_are_normalised_but_spline_tangents_may_be_zero() {
    let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let clip = AnimationClip::new(
        "turn",
        vec![
            AnimationChannel::rotation(
                node(1),
                vec![0.0],
                vec![Quat::from_xyzw(0.0, 0.0, 0.0, 2.0)],
                Interpolation::Linear,
            ),
            AnimationChannel::rotation(
                node(1),
                vec![0.0],
                vec![zero, Quat::from_xyzw(0.0, 3.0, 0.0, 0.0), zero],
                Interpolation::CubicSpline,
            ),
        ],
    )
    .unwrap();
    let mut t = Transform::IDENTITY;
    clip.channels()[0].apply(0.0, &mut t);
    assert_eq!(t.rotation, Quat::IDENTITY);
    clip.channels()[1].apply(0.0, &mut t);
    assert_eq!(t.rotation, Quat::from_xyzw(0.0, 1.0, 0.0, 0.0));
}

#[test]
fn apply_writes_only_its_own_field() {
    let channel = AnimationChannel::scale(
        node(1),
        vec![0.0],
        vec![Vec3::splat(2.0)],
        Interpolation::Linear,
    );
    let clip = AnimationClip::new("grow", vec![channel]).unwrap();
    let mut t = Transform::from_position(Vec3::new(1.0, 2.0, 3.0));
    clip.channels()[0].apply(5.0, &mut t);
    assert_eq!(t.scale, Vec3::splat(2.0));
    assert_eq!(t.position, Vec3::new(1.0, 2.0, 3.0));
    assert_eq!(t.rotation, Quat::IDENTITY);
}

#[test]
fn retarget_maps_every_channel() {
    let mut clip = AnimationClip::new(
        "walk",
        vec![
            AnimationChannel::translation(
                node(1),
                vec![0.0],
                vec![Vec3::ZERO],
                Interpolation::Linear,
            ),
            AnimationChannel::scale(node(2), vec![0.0], vec![Vec3::ONE], Interpolation::Linear),
        ],
    )
    .unwrap();
    clip.retarget(|old| node(old.entity().index_u32() + 10));
    let targets: Vec<_> = clip
        .channels()
        .iter()
        .map(AnimationChannel::target)
        .collect();
    assert_eq!(targets, [node(11), node(12)]);
}
